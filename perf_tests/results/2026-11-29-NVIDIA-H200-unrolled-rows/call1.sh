#!/usr/bin/env bash
# 2026-11-29 session 21, call 1: (a) box-stencil row loop unrolled (probe A/B: u0 HEAD, u1 partial sums
# T <= 8, u2 every kernel T <= 8), (b) blocks per SM at 2048^2 (u0, EBISU_PROBE_BPS), (c) HEAD's 2-D sweep,
# paper-size suite and j2d5pt boundary rows (as ../perf_tests/results/2026-11-29-NVIDIA-H200-row-loop/landed/callE.sh).
source "$(dirname "$0")/common.sh"
start_clocks clocks-probe.csv
for round in 1 2; do for v in u0 u1 u2; do
  s=$(date +%s); PROBE_BOX=1 timeout 60 /tmp/bin/probe_$v > $R/box-$v-$round.log 2>&1; echo "box $v $round rc $? $(( $(date +%s) - s )) s"
done; done
s=$(date +%s); PROBE_BPS=1 timeout 60 /tmp/bin/probe_u0 > $R/bps-u0.log 2>&1; echo "bps rc $? $(( $(date +%s) - s )) s"
stop_clocks
for f in $R/box-*-1.log $R/box-*-2.log; do echo "== $f"; sed -E 's/\(.*plan: ebisu-2d: depth ([0-9]+).*([0-9]+\/SM).*/d\1 \2/' $f; done | cut -c1-110
sed -E 's/\(.*plan: ebisu-2d: depth ([0-9]+).*\(([0-9]+)\/SM.*rows each.*/d\1 \2\/SM/' $R/bps-u0.log | cut -c1-120
start_clocks clocks-sweep.csv
s=$(date +%s); SIZES_3D="" timeout 180 perf_tests/run_size_sweep.sh /tmp/bin/ebisu_bench $R/sweep > $R/sweep-run.log 2>&1
echo "sweep rc $? $(( $(date +%s) - s )) s"; stop_clocks; tail -2 $R/sweep-run.log
start_clocks clocks-suite.csv
s=$(date +%s); timeout 150 /tmp/bin/ebisu_bench --precision double --steps 240 --reps 5 --json $R/suite2d.json --stencils j2d5pt,j2d9pt,j2d9pt-gol,j2d25pt > $R/suite2d.log 2>&1; echo "suite2d rc $? $(( $(date +%s) - s )) s"
s=$(date +%s); timeout 80 /tmp/bin/ebisu_bench --precision double --steps 100 --reps 5 --no-spmv --json $R/boundaries2d.json --stencils j2d5pt --plain-variants mdrange-tile-32x4 --ebisu-variants double-buffer --boundaries periodic,mirror > $R/boundaries2d.log 2>&1; echo "boundaries rc $? $(( $(date +%s) - s )) s"
stop_clocks
grep -E "parallel_stencil:automatic" $R/suite2d.log | head; grep -E "automatic|ebisu" $R/boundaries2d.log | head
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
