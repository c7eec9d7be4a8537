#!/usr/bin/env bash
# 2026-11-29 session 21, call 7: 3-D SM tiling's plane loop unrolled by the window length (probe A/B:
# d0 = this tree, d8 = unrolled up to depth 8 for one-level kernels without fields), two rounds.
source "$(dirname "$0")/common.sh"
start_clocks clocks-probe3d.csv
for round in 1 2; do for v in d0 d8; do
  s=$(date +%s); PROBE_3D=1 timeout 120 /tmp/bin/probe_$v > $R/p3d-$v-$round.log 2>&1; echo "p3d $v $round rc $? $(( $(date +%s) - s )) s"
done; done
stop_clocks
for f in $R/p3d-*.log; do echo "== $f"; sed -E 's/\(.*plan: [a-z0-9-]*: depth ([0-9]+).*/d\1/' $f | cut -c1-100; done
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
