#!/usr/bin/env bash
# Session 19, call 2: the paper-size suite of HEAD (48b9235) on an H200, the command lines of
# 2026-11-22-NVIDIA-H200-v6 (issue 10's "no regression at the paper sizes"), with SM clock / power samples.
source "$(dirname "$0")/common.sh"
start_clocks clocks-suite.csv
s=$(date +%s); timeout 250 /tmp/bin/ebisu_bench --precision double --steps 240 --reps 5 --json $R/suite2d.json --stencils j2d5pt,j2d9pt,j2d9pt-gol,j2d25pt > $R/suite2d.log 2>&1; echo "suite2d rc $? $(( $(date +%s) - s )) s"
s=$(date +%s); timeout 250 /tmp/bin/ebisu_bench --precision double --steps 120 --reps 5 --json $R/suite3d.json --stencils j3d7pt,j3d13pt,j3d17pt,j3d27pt,poisson > $R/suite3d.log 2>&1; echo "suite3d rc $? $(( $(date +%s) - s )) s"
stop_clocks
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
