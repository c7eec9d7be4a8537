#!/usr/bin/env bash
# session 23, call 4: in-place tiling in the library, final code (column read from the tile each step, halo lists). Cuda tests (the new strategy's own binary, and the
# preset / boundary-kernel / split-domain / custom suites that force it on every 3-D case), sanitizers on
# its small cases, the heat3d example, then the 3-D size sweep 32^3 .. 128^3.
source "$(dirname "$0")/common.sh"
run_tests() {  # name timeout [filter]
  local s=$(date +%s)
  timeout $2 /tmp/bin/$1 ${3:+--gtest_filter=$3} > $R/test-$1.log 2>&1
  echo "tests $1 rc $? $(( $(date +%s) - s )) s: $(grep -E '^\[  PASSED|^\[  FAILED  \] [0-9]' $R/test-$1.log | tr '\n' ' ')"
  grep -E "^\[  FAILED  \] cuda" $R/test-$1.log | head -8
}
run_tests tIP 200
run_tests tM 200
run_tests tA 300
run_tests tB 300 'cuda.boundary_kernels_3d*:cuda.boundary_kernels_2d*'
run_tests tF 200
for tool in memcheck racecheck synccheck; do
  s=$(date +%s)
  EBISU_TEST_QUICK=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 /tmp/bin/tIP \
    --gtest_filter='cuda.in_place_tiling_tiny_domains:cuda.in_place_tiling_kernels_of_16_and_32_cells' > $R/$tool-in-place.log 2>&1
  echo "$tool rc $? $(( $(date +%s) - s )) s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $R/$tool-in-place.log | tr '\n' ' ')"
done
s=$(date +%s)
EBISU_TEST_QUICK=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/bin/tB --gtest_filter='cuda.boundary_kernels_3d' > $R/memcheck-boundary-kernels-3d.log 2>&1
echo "memcheck boundary_kernels_3d rc $? $(( $(date +%s) - s )) s: $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $R/memcheck-boundary-kernels-3d.log | tr '\n' ' ')"
if [ -x /tmp/bin/heat3d ]; then
  s=$(date +%s); timeout 60 /tmp/bin/heat3d --output $R/heat3d.png > $R/heat3d.log 2>&1
  echo "heat3d rc $? $(( $(date +%s) - s )) s"; grep -E "EbisuKokkos\[|final" $R/heat3d.log | cut -c1-300
fi
start_clocks clocks-sweep.csv
SIZES_2D="" SIZES_3D="32 48 64 96 128" REPS=5 perf_tests/run_size_sweep.sh /tmp/bin/ebisu_bench $R/sweep > $R/sweep-run.log 2>&1
stop_clocks
tail -8 $R/sweep-run.log
[ -f $R/sweep/sweep_summary.md ] && grep -E "^\| (j3d|poisson)" $R/sweep/sweep_summary.md | awk -F'|' '{printf "%s %s auto %s (%s, %s) dev %s inpl %s (%s) best %s %s\n",$2,$3,$8,$9,$10,$14,$17,$18,$6,$5}'
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
