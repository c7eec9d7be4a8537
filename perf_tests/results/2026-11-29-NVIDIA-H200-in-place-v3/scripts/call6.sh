#!/usr/bin/env bash
# session 24, call 6: the 3-D sweep 32^3 .. 128^3 again with the in-place model refitted on call 5 (the kernels unchanged):
# automatic's choices against the best plain variant.
source "$(dirname "$0")/common.sh"
start_clocks clocks-sweep.csv
s=$(date +%s)
SIZES_2D="" SIZES_3D="32 48 64 96 128" REPS=5 perf_tests/run_size_sweep.sh /tmp/bin/bench_after $R/sweep > $R/sweep-run.log 2>&1
echo "sweep rc $? $(( $(date +%s) - s )) s"
stop_clocks
grep -E "^\| (j3d|poisson)" $R/sweep/sweep_summary.md | awk -F'|' '{printf "%s %s auto %s (%s, %s) best %s\n",$2,$3,$7,$8,$9,$6}'
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
