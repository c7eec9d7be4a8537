#!/bin/bash
# call 6: depth scan, HEAD against resident runs (N10), 512^2 and 768^2 (all stencils), 1024^2 j2d9pt
source "$(dirname "$0")/common.sh"
for d in 6 8 10 12; do
  for v in H N10; do
    AB_NOCHECK=1 AB_DEPTH=$d /tmp/bin/ab_$v 512 768 > $R/scan_${v}_d$d.log 2>&1
    grep "RESULT" $R/scan_${v}_d$d.log | sed -E "s/RESULT (\S+ \S+) d[0-9]+ (\S+) .*runs of ([0-9]+).*predicted ([0-9.]+).*/$v d$d \1 meas \2 runs\3 pred \4/"
  done
done
