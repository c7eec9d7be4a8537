#!/usr/bin/env bash
# session 26, call 2: the slow interior of interior units updated while the other blocks arrive at the grid
# barrier (overlap). ab_F: the committed kernels (61eeccf); ab_O1: overlap for 16- and 32-cell columns;
# ab_O4: overlap for 4-cell columns too. In-place forced; checks against the generic path at 45^3 and 100^3
# (short tiles), then two alternating rounds at 64^3, 96^3, 128^3.
source "$(dirname "$0")/common.sh"
s=$(date +%s)
for v in F O1 O4; do /tmp/bin/ab_$v 45 100 2>&1 | grep CHECK | sed "s/^/$v /"; done | tee $R/check.log
for round in 1 2; do
  for v in F O1 O4; do /tmp/bin/ab_$v 64 96 128 2>&1 | grep RESULT | sed "s/^/$v /"; done
done | tee $R/ab.log
echo "total $(( $(date +%s) - s )) s"
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
