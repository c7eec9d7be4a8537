#!/bin/bash
# call 11: the streaming kernel's code with and without the 2-D middle axis folded to one cell
# (N17 folded, N18 not), against HEAD (H), alternating; model depths
source "$(dirname "$0")/common.sh"
for round in 1 2; do
  for v in H N17 N18; do
    AB_NOCHECK=1 /tmp/bin/ab_$v 256 384 512 > $R/ab_${v}_r$round.log 2>&1
    grep "RESULT\|WRONG" $R/ab_${v}_r$round.log | sed -E "s/RESULT (\S+ \S+) d[0-9]+ (\S+) .*/$v r$round \1 \2/"
  done
done
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
