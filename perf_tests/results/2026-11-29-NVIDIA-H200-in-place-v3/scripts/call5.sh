#!/usr/bin/env bash
# session 24, call 5: the 3-D sweep 32^3 .. 128^3 of the final bench (automatic against the best plain variant,
# every strategy forced), then the committed code's bench (before) against it in-place forced, one process each.
source "$(dirname "$0")/common.sh"
start_clocks clocks-sweep.csv
s=$(date +%s)
SIZES_2D="" SIZES_3D="32 48 64 96 128" REPS=5 perf_tests/run_size_sweep.sh /tmp/bin/bench_after $R/sweep > $R/sweep-run.log 2>&1
echo "sweep rc $? $(( $(date +%s) - s )) s"
grep -E "^\| (j3d|poisson)" $R/sweep/sweep_summary.md | head -30
for N in 128 64 96; do
  T=2400; [[ $N == 64 ]] && T=6000; [[ $N == 96 ]] && T=3600
  for b in before after; do
    timeout 60 /tmp/bin/bench_$b --stencils j3d7pt,j3d13pt,j3d17pt,j3d27pt,poisson --size3d $N --steps $T --reps 5 --no-spmv --bw-mb 256 \
      --plain-variants mdrange-coarse4-tile-32x4x1 --ebisu-variants automatic --ebisu-strategies in_place_tiling \
      --json $R/cmp-$b-$N.json > $R/cmp-$b-$N.log 2>&1 || echo "bench $b $N rc $?"
  done
done
stop_clocks
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
