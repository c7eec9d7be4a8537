#!/usr/bin/env bash
# session 25, call 6: the paper-size suite of the landed tree (cdf2da0) on an H200, the command lines of
# 2026-11-28-NVIDIA-H200-size-sweep/call2.sh (issue 10's "no regression at the paper sizes").
source "$(dirname "$0")/common.sh"
start_clocks clocks-suite.csv
s=$(date +%s); timeout 270 /tmp/bin/bench_new --precision double --steps 240 --reps 5 --json $R/suite2d.json --stencils j2d5pt,j2d9pt,j2d9pt-gol,j2d25pt > $R/suite2d.log 2>&1; echo "suite2d rc $? $(( $(date +%s) - s )) s"
s=$(date +%s); timeout 270 /tmp/bin/bench_new --precision double --steps 120 --reps 5 --json $R/suite3d.json --stencils j3d7pt,j3d13pt,j3d17pt,j3d27pt,poisson > $R/suite3d.log 2>&1; echo "suite3d rc $? $(( $(date +%s) - s )) s"
stop_clocks
grep -E "automatic|speedup" $R/suite2d.log $R/suite3d.log | head -40
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
