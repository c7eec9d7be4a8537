#!/bin/bash
# call 6: the kept-run step's integer work trimmed (P: ring slot by mask, no second-run work where no thread
# has one; P2: also each reloaded row's address its own product) against HEAD (H), device tiling forced
source "$(dirname "$0")/common.sh"
for round in 1 2 3; do
  for v in H P P2; do
    if [ $round = 1 ] && [ $v != H ]; then chk=(); else chk=(AB_NOCHECK=1); fi
    env "${chk[@]}" /tmp/bin/ab_$v 256 384 512 768 1024 > $R/ab_${v}_r$round.log 2>&1
    grep "RESULT\|WRONG" $R/ab_${v}_r$round.log | sed -E "s/RESULT (\S+ \S+) d[0-9]+ (\S+) .*/$v r$round \1 \2/"
  done
done
grep -h CHECK $R/ab_P*_r1.log | grep -c " ok"; grep -h CHECK $R/ab_P*_r1.log | grep -v " ok" | head
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
