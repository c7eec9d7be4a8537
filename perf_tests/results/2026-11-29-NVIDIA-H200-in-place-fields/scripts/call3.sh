#!/usr/bin/env bash
# session 26, call 3: the in-place step with new values retired into the column registers (R), the same with
# the slow interior under a runtime branch (RB, the form of call 2's O1 at 4 cells), the committed kernels (F)
# and call 2's overlap (O1). In-place forced; checks at 45^3 and 100^3; two alternating rounds, 48^3-128^3.
source "$(dirname "$0")/common.sh"
s=$(date +%s)
for v in R RB; do /tmp/bin/ab_$v 45 100 2>&1 | grep CHECK | sed "s/^/$v /"; done | tee $R/check.log
for round in 1 2; do
  for v in F R RB O1; do /tmp/bin/ab_$v 48 64 80 96 112 128 2>&1 | grep RESULT | sed "s/^/$v /"; done
done | cut -c1-60 | tee $R/ab.log
echo "total $(( $(date +%s) - s )) s"
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
