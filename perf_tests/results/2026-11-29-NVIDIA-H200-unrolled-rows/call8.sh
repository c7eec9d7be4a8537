#!/usr/bin/env bash
# 2026-11-29 session 21, call 8: c352f82's bench at the sizes that give the original EBISU code 132 tiles
# (../shared/notes/stencil-suite-and-performance.md): one launch of a forced depth (DoubleBuffer form, as the
# original was timed) and the whole call under automatic (T = 240), next to the plain variants of the same process.
source "$(dirname "$0")/common.sh"
start_clocks clocks-132.csv
for r in j2d5pt:10208:8 j2d9pt:9856:6 j2d9pt-gol:10736:8 j2d25pt:10560:4 j2d25pt:10560:6; do
  IFS=: read s n d <<< "$r"
  s0=$(date +%s); timeout 90 /tmp/bin/ebisu_bench --stencils $s --size2d $n --steps $d --no-spmv --reps 9 --ebisu-depths $d --json $R/one_launch_${s}_d$d.json > $R/one_launch_${s}_d$d.log 2>&1
  echo "one launch $s $n d$d rc $? $(( $(date +%s) - s0 )) s"; grep -E "ebisu-d|best plain" $R/one_launch_${s}_d$d.log | grep -v median | cut -c1-140
done
for r in j2d5pt:10208 j2d9pt:9856 j2d9pt-gol:10736 j2d25pt:10560; do
  IFS=: read s n <<< "$r"
  s0=$(date +%s); timeout 90 /tmp/bin/ebisu_bench --stencils $s --size2d $n --steps 240 --no-spmv --reps 5 --json $R/auto_${s}.json > $R/auto_${s}.log 2>&1
  echo "automatic $s $n rc $? $(( $(date +%s) - s0 )) s"; grep -E "parallel_stencil:automatic|best plain" $R/auto_${s}.log | grep -v median | cut -c1-170
done
stop_clocks
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
