#!/bin/bash
# call 2: HEAD against resident runs with groups of 4 (N7)
source "$(dirname "$0")/common.sh"
for round in 1 2; do
  for v in H N7; do
    echo "== round $round $v"
    AB_STARS=1 /tmp/bin/ab_$v 256 512 1024 > $R/ab_${v}_r$round.log 2>&1; grep "RESULT\|WRONG\|rror" $R/ab_${v}_r$round.log | cut -c1-60
  done
done
