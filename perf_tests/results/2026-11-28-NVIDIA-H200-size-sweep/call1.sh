#!/usr/bin/env bash
# Session 19, call 1: the full size sweep of HEAD (48b9235) on an H200 (issue 10 item 5), with SM clock / power samples.
source "$(dirname "$0")/common.sh"
start_clocks clocks-sweep.csv
s=$(date +%s)
timeout 540 perf_tests/run_size_sweep.sh /tmp/bin/ebisu_bench $R/sweep > $R/sweep-run.log 2>&1
echo "sweep rc $? $(( $(date +%s) - s )) s"
stop_clocks
tail -3 $R/sweep-run.log
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
