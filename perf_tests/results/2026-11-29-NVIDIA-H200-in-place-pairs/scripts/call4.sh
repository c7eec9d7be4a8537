#!/usr/bin/env bash
# session 25, call 3: the Cuda tests of the in-place kernels with pairs of columns (in-place, boundary kernels,
# presets; custom shapes and boundary rules) and compute-sanitizer on the in-place tests; the 3-D sweep of the
# new bench; the committed bench (bench_after of session 24, renamed before) against the new one, in-place forced.
source "$(dirname "$0")/common.sh"
s=$(date +%s)
timeout 200 /tmp/bin/tIPT2 > $R/tests.log 2>&1; echo "tIPT2 rc $?"
timeout 200 /tmp/bin/tCB2 > $R/tests-custom-boundaries.log 2>&1; echo "tCB2 rc $?"
grep -h "PASSED\|FAILED" $R/tests*.log
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 /tmp/bin/tIPT2 --gtest_filter='cuda.in_place_tiling_pairs*:cuda.in_place_tiling_star*' > $R/$tool.log 2>&1
  echo "$tool rc $?"; tail -2 $R/$tool.log
done
echo "tests $(( $(date +%s) - s )) s"; s=$(date +%s)
start_clocks clocks-sweep.csv
SIZES_2D="" SIZES_3D="32 48 64 96 112 128" REPS=5 perf_tests/run_size_sweep.sh /tmp/bin/bench_new $R/sweep > $R/sweep-run.log 2>&1
echo "sweep rc $? $(( $(date +%s) - s )) s"; s=$(date +%s)
grep -E "^\| (j3d|poisson)" $R/sweep/sweep_summary.md | head -40
for N in 128 112 96; do
  T=2400; [[ $N == 96 ]] && T=3600
  for round in 1 2; do
    for b in before new; do
      timeout 60 /tmp/bin/bench_$b --stencils j3d7pt,j3d13pt,j3d17pt,j3d27pt,poisson --size3d $N --steps $T --reps 5 --no-spmv --bw-mb 256 \
        --plain-variants mdrange-coarse4-tile-32x4x1 --ebisu-variants automatic --ebisu-strategies in_place_tiling \
        --json $R/cmp-$b-$N-$round.json > $R/cmp-$b-$N-$round.log 2>&1 || echo "bench $b $N rc $?"
    done
  done
done
stop_clocks
echo "cmp $(( $(date +%s) - s )) s"
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
