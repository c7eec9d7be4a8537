#!/usr/bin/env bash
# session 25, call 5: the whole size sweep of the landed tree (cdf2da0; 2-D 256^2-16384^2, 3-D 32^3-512^3,
# all nine stencils, automatic against the best plain variant incl. graph-replayed loops, every strategy forced).
source "$(dirname "$0")/common.sh"
start_clocks clocks-sweep.csv
s=$(date +%s)
timeout 540 perf_tests/run_size_sweep.sh /tmp/bin/bench_new $R/sweep > $R/sweep-run.log 2>&1
echo "sweep rc $? $(( $(date +%s) - s )) s"
stop_clocks
grep -E "^\| " $R/sweep/sweep_summary.md | cut -d'|' -f2-10 | head -60
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
