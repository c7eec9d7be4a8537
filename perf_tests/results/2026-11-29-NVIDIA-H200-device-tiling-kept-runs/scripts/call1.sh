#!/bin/bash
# call 1: 2-D device tiling, HEAD against resident runs (N6), alternating
source "$(dirname "$0")/common.sh"
for round in 1 2; do
  for v in H N6; do
    echo "== round $round $v"
    /tmp/bin/ab_$v 256 512 768 1024 > $R/ab_${v}_r$round.log 2>&1; grep -v "^  " $R/ab_${v}_r$round.log | grep "RESULT\|WRONG\|rror" | cut -c1-200
  done
done
