#!/usr/bin/env bash
# 2026-11-29 session 22, call 2: this tree's bench (as call 1): (a) the 3-D paper-size suite (automatic and
# every plain variant, T = 240; call 1's run of it hit its time limit), (b) j2d5pt's boundary rows
# (DoubleBuffer, T = 100), (c) j2d5pt at 10208^2 (132 tiles of the original code): one launch of depth 8
# and the whole call under automatic.
source "$(dirname "$0")/common.sh"
run() { local name=$1 limit=$2; shift 2; s=$(date +%s); timeout $limit /tmp/bin/ebisu_bench --no-spmv "$@" --json $R/$name.json > $R/$name.log 2>&1; echo "$name rc $? $(( $(date +%s) - s )) s"; }
start_clocks clocks-suite.csv
run suite3d 360 --precision double --stencils j3d7pt,j3d13pt,j3d17pt,j3d27pt,poisson --steps 240 --reps 5
stop_clocks
grep -h "parallel_stencil:automatic\|best plain" $R/suite3d.log | grep -v median | cut -c1-150
start_clocks clocks-2d.csv
run boundaries2d 90 --precision double --steps 100 --reps 5 --stencils j2d5pt --plain-variants mdrange-tile-32x4 --ebisu-variants double-buffer --boundaries periodic,mirror
run one_launch_j2d5pt_d8 60 --stencils j2d5pt --size2d 10208 --steps 8 --reps 9 --ebisu-depths 8
run auto_j2d5pt_10208 90 --stencils j2d5pt --size2d 10208 --steps 240 --reps 5
stop_clocks
grep -h "automatic\|double-buffer\|ebisu-d8\|best plain" $R/boundaries2d.log $R/one_launch_j2d5pt_d8.log $R/auto_j2d5pt_10208.log | grep -v median | cut -c1-150
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
