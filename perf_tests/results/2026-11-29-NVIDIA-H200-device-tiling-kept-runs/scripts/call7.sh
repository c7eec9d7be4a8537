#!/bin/bash
# call 7: runs of 8 kept in registers (N12) against HEAD at 256^2 / 384^2, depth scan
source "$(dirname "$0")/common.sh"
for d in 0 8 12; do
  for v in H N12; do
    AB_DEPTH=$d /tmp/bin/ab_$v 256 384 > $R/s8_${v}_d$d.log 2>&1
    grep "RESULT\|WRONG" $R/s8_${v}_d$d.log | sed -E "s/RESULT (\S+ \S+) d[0-9]+ (\S+) .*depth ([0-9]+) .*runs of ([0-9]+).*predicted ([0-9.]+).*(runs kept)?.*/$v d$d \1 meas \2 depth \3 runs\4 pred \5 \6/"
  done
done
