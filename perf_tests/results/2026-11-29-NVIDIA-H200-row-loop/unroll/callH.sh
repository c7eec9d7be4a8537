#!/usr/bin/env bash
# 2026-11-29, call H (exploration, not landed): the row loop unrolled 3 times (the window length of radius 1:
# window copies become register renames) against the landed tree, alternating (probe.cpp default set).
source "$(dirname "$0")/common.sh"
for r in 1 2; do for v in landed u3; do echo "== $v run $r"; /tmp/bin/probe_$v 2>&1 | sed -E 's/plan: (.{0,40}).*regs\/thread ([0-9]+).*/regs \2/; s/\(.*reps[^)]*\)//'; done; done > $R/probe-unroll.log
cat $R/probe-unroll.log
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
