#!/bin/bash
# call 8: the landed candidate (device tiling keeps 2-D star runs in registers): Cuda tests, sanitizers,
# 2-D size sweep (this tree's bench against HEAD's, same machine), 2-D field rows
source "$(dirname "$0")/common.sh"
s=$(date +%s)
T=/tmp/bin/cuda_tests
$T --gtest_filter='cuda.device_tiling*:cuda.boundary_kernels_2d:cuda.field_kernels*:cuda.measured_choice*' > $R/tests.log 2>&1
echo "tests rc $? $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|OK \] cuda" $R/tests.log | cut -c1-110
grep -h "no plan kept" $R/tests.log | head
for tool in memcheck racecheck synccheck; do
  EBISU_TEST_QUICK=1 timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_filter='cuda.device_tiling_kept_runs' > $R/san-$tool.log 2>&1
  echo "$tool rc $? $(( $(date +%s) - s )) s"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $R/san-$tool.log | head -3
done
start_clocks clocks-sweep.csv
for v in head new; do
  SIZES_2D="256 384 512 768 1024 1536 2048" SIZES_3D="" timeout 280 perf_tests/run_size_sweep.sh /tmp/bin/bench_$v $R/sweep-$v > $R/sweep-$v.log 2>&1
  echo "sweep $v rc $? $(( $(date +%s) - s )) s"
done
stop_clocks
for n in 256 512 1024 2048; do
  timeout 100 /tmp/bin/bench_new --stencils none --field-cases heat2d-var,j2d5pt-source --size2d $n --steps $((4096*1000/n)) --no-spmv \
    --json $R/fields2d-$n.json > $R/fields2d-$n.log 2>&1; echo "fields $n rc $?"
done
grep -hE "^(heat2d-var|j2d5pt-source) .*(best plain|automatic)" $R/fields2d-*.log | cut -c1-120
for v in head new; do echo "== $v"; grep -E "^\| " $R/sweep-$v/sweep_summary.md | cut -d'|' -f2-9 | head -40; done
echo "total $(( $(date +%s) - s )) s"
