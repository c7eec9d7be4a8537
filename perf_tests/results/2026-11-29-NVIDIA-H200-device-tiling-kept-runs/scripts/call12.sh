#!/bin/bash
# call 12: the final tree (N18) against HEAD (H) at 768^2 and 1024^2, alternating; plans of the final tree
source "$(dirname "$0")/common.sh"
for round in 1 2; do
  for v in H N18; do
    AB_NOCHECK=1 /tmp/bin/ab_$v 768 1024 > $R/ab_${v}_r$round.log 2>&1
    grep "RESULT\|WRONG" $R/ab_${v}_r$round.log | sed -E "s/RESULT (\S+ \S+) d[0-9]+ (\S+) .*/$v r$round \1 \2/"
  done
done
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
