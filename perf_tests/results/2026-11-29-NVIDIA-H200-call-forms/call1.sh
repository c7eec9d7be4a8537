#!/usr/bin/env bash
# 2026-11-29 session 22, call 1: this tree's bench (the 3-D plane loop unrolled for radius 2 and the partial
# boxes; DoubleBuffer / State calls owe no copy back): (a) the one-launch rows (run_single_launch.sh:
# DoubleBuffer form, T = depth), (b) the 3-D paper-size suite (automatic, T = 240), (c) periodic poisson and
# j3d13pt against their fixed frames (DoubleBuffer, T = 100), (d) the 3-D sweep of the changed stencils.
source "$(dirname "$0")/common.sh"
run() { local name=$1; shift; s=$(date +%s); timeout 150 /tmp/bin/ebisu_bench --no-spmv "$@" --json $R/$name.json > $R/$name.log 2>&1; echo "$name rc $? $(( $(date +%s) - s )) s"; }
start_clocks clocks-single.csv
s=$(date +%s); timeout 240 perf_tests/run_single_launch.sh /tmp/bin/ebisu_bench $R/single all > $R/single-run.log 2>&1; echo "single rc $? $(( $(date +%s) - s )) s"
stop_clocks
cut -c1-150 $R/single-run.log
start_clocks clocks-suite.csv
run suite3d --stencils j3d7pt,j3d13pt,j3d17pt,j3d27pt,poisson --steps 240 --reps 5
run periodic3d --stencils poisson,j3d13pt --steps 100 --reps 5 --plain-variants mdrange-tile-32x4x1 --ebisu-variants double-buffer --boundaries periodic,mirror
stop_clocks
grep -h "parallel_stencil:automatic\|best plain\|double-buffer" $R/suite3d.log $R/periodic3d.log | grep -v median | cut -c1-150
start_clocks clocks-sweep.csv
s=$(date +%s); SIZES_2D="" SIZES_3D="64 128 256 512" STENCILS_3D=j3d13pt,j3d17pt,poisson timeout 200 perf_tests/run_size_sweep.sh /tmp/bin/ebisu_bench $R/sweep > $R/sweep-run.log 2>&1
echo "sweep rc $? $(( $(date +%s) - s )) s"; stop_clocks; tail -25 $R/sweep-run.log | cut -c1-150
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
