#!/bin/bash
# call 4: j2d5pt device tiling deeper than the searched depths (14, 16) against 10 / 12, and an ncu profile
# of the landed kept-runs kernel at 256^2 (model's plan: depth 12)
source "$(dirname "$0")/common.sh"
for round in 1 2; do
  for d in 10 12 14 16; do
    AB_DEPTH=$d AB_NOCHECK=1 AB_STARS=1 /tmp/bin/ab_H 256 384 512 768 > $R/depth_d${d}_r$round.log 2>&1
    grep "RESULT\|WRONG" $R/depth_d${d}_r$round.log | sed -E "s/RESULT (\S+ \S+) (d[0-9]+) (\S+) .*/r$round \1 \2 \3/"
  done
done
AB_DEPTH=16 AB_STARS=1 AB_REPS=1 /tmp/bin/ab_H 256 512 | grep CHECK
NCU=/usr/local/cuda/bin/ncu
AB_NOCHECK=1 AB_STARS=1 AB_REPS=1 AB_STEPS=2400 timeout 300 $NCU --set full -k regex:device_tiling --launch-count 1 \
  -o $R/prof256 /tmp/bin/ab_H 256 > $R/ncu_run.log 2>&1; echo "ncu rc $?"; tail -3 $R/ncu_run.log
$NCU --import $R/prof256.ncu-rep --page details > $R/prof256_details.txt 2>&1; echo "details rc $?"
$NCU --import $R/prof256.ncu-rep --page source --csv --print-source sass > $R/prof256_sass.csv 2>&1; echo "sass rc $?"
head -c 600 $R/prof256_sass.csv; echo
grep -E "Duration|Executed Instructions |Issued Warp|Eligible|Active Warps Per|No Eligible|Stall|Registers Per|Achieved Occ" $R/prof256_details.txt | head -40
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
