#!/usr/bin/env bash
# 2026-11-29 session 21, call 2b: the bench of the change (row loop unrolled up to depth 8 for one-level
# kernels without fields; the 2-D model searches blocks per SM): 2-D sweep, paper-size suite, j2d5pt
# boundary rows and 2-D field cases, with the command lines of call 1.
source "$(dirname "$0")/common.sh"
start_clocks clocks-sweep.csv
s=$(date +%s); SIZES_3D="" timeout 180 perf_tests/run_size_sweep.sh /tmp/bin/ebisu_bench $R/sweep > $R/sweep-run.log 2>&1
echo "sweep rc $? $(( $(date +%s) - s )) s"; stop_clocks
start_clocks clocks-suite.csv
s=$(date +%s); timeout 150 /tmp/bin/ebisu_bench --precision double --steps 240 --reps 5 --json $R/suite2d.json --stencils j2d5pt,j2d9pt,j2d9pt-gol,j2d25pt > $R/suite2d.log 2>&1; echo "suite2d rc $? $(( $(date +%s) - s )) s"
s=$(date +%s); timeout 80 /tmp/bin/ebisu_bench --precision double --steps 100 --reps 5 --no-spmv --json $R/boundaries2d.json --stencils j2d5pt --plain-variants mdrange-tile-32x4 --ebisu-variants double-buffer --boundaries periodic,mirror > $R/boundaries2d.log 2>&1; echo "boundaries rc $? $(( $(date +%s) - s )) s"
s=$(date +%s); timeout 150 /tmp/bin/ebisu_bench --reps 5 --no-spmv --stencils j2d5pt --field-cases j2d5pt-source,heat2d-var --steps 100 --json $R/fields2d.json > $R/fields2d.log 2>&1; echo "fields2d rc $? $(( $(date +%s) - s )) s"
s=$(date +%s); timeout 100 /tmp/bin/ebisu_bench --reps 5 --no-spmv --stencils none --state-cases wave2d,gray-scott2d --size2d 8192 --steps 96 --json $R/state2d.json > $R/state2d.log 2>&1; echo "state2d rc $? $(( $(date +%s) - s )) s"
stop_clocks
grep -E "parallel_stencil:automatic" $R/suite2d.log | head -4; grep -E "automatic|double-buffer" $R/boundaries2d.log | tail -3; grep -E "automatic" $R/fields2d.log | tail -4; grep -E "automatic" $R/state2d.log | tail -3
grep -E "^\| j2d" $R/sweep/sweep_summary.md | awk -F'|' '{print $2,$3,$6,$8,$9,$10}'
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
