#!/usr/bin/env bash
# 2026-11-29, call F: j2d9pt (radius 2) at 4096^2 / 8192^2 and periodic j2d5pt 8192^2 with HEAD 9765914 (base),
# bc2ca80 (cur) and bc2ca80 with the gathered row for radius 1 only (r1), alternating (probe.cpp, PROBE_R2).
source "$(dirname "$0")/common.sh"
for f in build-dF/probe_*.xz; do n=$(basename $f .xz); xz -dc $f > /tmp/bin/$n; chmod +x /tmp/bin/$n; done
for r in 1 2; do for v in base r1 r3; do echo "== $v run $r"; PROBE_R2=1 /tmp/bin/probe_$v 2>&1 | sed -E 's/plan: (.{0,60}).*regs\/thread ([0-9]+).*/plan: \1 ... regs \2/'; done; done > $R/probe-r2.log
cat $R/probe-r2.log | sed -E 's/\(.*reps[^)]*\)//'
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
