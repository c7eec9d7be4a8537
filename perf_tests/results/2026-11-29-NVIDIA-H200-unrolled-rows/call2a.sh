#!/usr/bin/env bash
# 2026-11-29 session 21, call 2a (probes only): the row loop unrolled for every one-level kernel up to depth 8.
# Probe A/B (probe_u0: HEAD 4324889, probe_new: the change), then the new bench's 2-D sweep,
# paper-size suite, boundary rows and 2-D field cases.
source "$(dirname "$0")/common.sh"
start_clocks clocks-probe.csv
for round in 1 2; do for v in u0 new; do
  s=$(date +%s); PROBE_BOX=1 timeout 60 /tmp/bin/probe_$v > $R/box-$v-$round.log 2>&1; echo "box $v $round rc $? $(( $(date +%s) - s )) s"
  s=$(date +%s); PROBE_FIELDS=1 timeout 90 /tmp/bin/probe_$v > $R/fields-$v-$round.log 2>&1; echo "fields $v $round rc $? $(( $(date +%s) - s )) s"
done; done
s=$(date +%s); PROBE_BPS=1 timeout 60 /tmp/bin/probe_u0 > $R/bps-u0.log 2>&1; echo "bps rc $? $(( $(date +%s) - s )) s"
stop_clocks
for f in $R/box-*-?.log $R/fields-*-?.log $R/bps-u0.log; do echo "== $f"; sed -E 's/\(.*plan: ebisu-2d: depth ([0-9]+).* ([0-9]+) blocks \(([0-9]+)\/SM.*/d\1 \2 blocks \3\/SM/' $f | cut -c1-100; done
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
