#!/bin/bash
# call 5: HEAD against resident runs v2 (N10: halo cache 0, N11: halo cache 4), alternating
source "$(dirname "$0")/common.sh"
for round in 1 2; do
  for v in H N10 N11; do
    echo "== round $round $v"
    /tmp/bin/ab_$v 512 768 1024 > $R/ab_${v}_r$round.log 2>&1; grep "RESULT\|WRONG\|rror" $R/ab_${v}_r$round.log | cut -c1-64
  done
done
grep -h "RESULT j2d5pt 1024" $R/ab_*_r1.log | sed 's/.*predicted/predicted/'
