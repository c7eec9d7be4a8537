#!/bin/bash
# call 1: tagged-word halo exchange (no grid barrier) against HEAD, 2-D and 3-D device tiling forced
source "$(dirname "$0")/common.sh"
nvidia-smi -q | grep -i -A2 "clocks_event\|Clocks Event" | head -5
for round in 1 2; do
  for v in H L L4; do
    /tmp/bin/ab_$v 256 384 512 768 1024 > $R/ab_${v}_r$round.log 2>&1
    grep "RESULT\|WRONG" $R/ab_${v}_r$round.log | sed -E "s/RESULT (\S+ \S+) d[0-9]+ (\S+) .*/$v r$round \1 \2/"
  done
  EBISU_TAGGED_OFF=1 AB_NOCHECK=1 /tmp/bin/ab_L 256 512 1024 > $R/ab_Loff_r$round.log 2>&1
  grep "RESULT\|WRONG" $R/ab_Loff_r$round.log | sed -E "s/RESULT (\S+ \S+) d[0-9]+ (\S+) .*/Loff r$round \1 \2/"
done
grep -h CHECK $R/ab_*_r1.log | sort | uniq -c | sort -rn | head -40
for d in 3 4 6 8 12; do
  for v in H L; do
    AB_DEPTH=$d AB_NOCHECK=1 /tmp/bin/ab_$v 256 512 768 1024 > $R/scan_${v}_d$d.log 2>&1
    grep "RESULT\|WRONG" $R/scan_${v}_d$d.log | sed -E "s/RESULT (\S+ \S+) (d[0-9]+) (\S+) .*/scan $v \1 \2 \3/"
  done
done
for v in H L L4; do
  /tmp/bin/a3_$v 32 48 64 96 > $R/a3_${v}.log 2>&1
  grep "RESULT\|WRONG\|CHECK" $R/a3_${v}.log | sed -E "s/RESULT (\S+ \S+) d[0-9]+ (\S+) .*/$v \1 \2/"
done
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
