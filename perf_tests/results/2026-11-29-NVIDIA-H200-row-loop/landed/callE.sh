#!/usr/bin/env bash
# 2026-11-29, call E: bc2ca80's 2-D size sweep and paper-size suite (same scripts and command lines as
# ../2026-11-28-NVIDIA-H200-size-sweep/) and the periodic / mirror rows of j2d5pt.
source "$(dirname "$0")/common.sh"
start_clocks clocks-sweep.csv
s=$(date +%s); SIZES_3D="" timeout 180 perf_tests/run_size_sweep.sh /tmp/bin/ebisu_bench $R/sweep > $R/sweep-run.log 2>&1
echo "sweep rc $? $(( $(date +%s) - s )) s"; stop_clocks; tail -2 $R/sweep-run.log
start_clocks clocks-suite.csv
s=$(date +%s); timeout 150 /tmp/bin/ebisu_bench --precision double --steps 240 --reps 5 --json $R/suite2d.json --stencils j2d5pt,j2d9pt,j2d9pt-gol,j2d25pt > $R/suite2d.log 2>&1; echo "suite2d rc $? $(( $(date +%s) - s )) s"
s=$(date +%s); timeout 80 /tmp/bin/ebisu_bench --precision double --steps 100 --reps 5 --no-spmv --json $R/boundaries2d.json --stencils j2d5pt --plain-variants mdrange-tile-32x4 --ebisu-variants double-buffer --boundaries periodic,mirror > $R/boundaries2d.log 2>&1; echo "boundaries rc $? $(( $(date +%s) - s )) s"
stop_clocks
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
