#!/bin/bash
# call 3: where the resident kernel loses: N8 (resident, halo cache 8, spills 80 B), N9 (HEAD kernel, halo cache 1)
source "$(dirname "$0")/common.sh"
for v in H N7 N8 N9; do
  for d in 4 12; do
    echo "== $v depth $d"
    AB_DEPTH=$d AB_STARS=1 /tmp/bin/ab_$v 256 1024 > $R/ab_${v}_d$d.log 2>&1; grep "RESULT\|WRONG\|rror" $R/ab_${v}_d$d.log | cut -c1-60
  done
done
