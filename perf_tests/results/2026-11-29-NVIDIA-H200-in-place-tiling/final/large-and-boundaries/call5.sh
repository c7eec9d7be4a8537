#!/usr/bin/env bash
# session 23, call 5: the 3-D sweep's large sizes (256^3, 512^3: in-place tiling cannot take them, so
# automatic must keep its plans), and periodic / mirror sides at 128^3 (in-place with rules in the halo).
source "$(dirname "$0")/common.sh"
start_clocks clocks-sweep.csv
SIZES_2D="" SIZES_3D="256 512" REPS=5 perf_tests/run_size_sweep.sh /tmp/bin/ebisu_bench $R/sweep-large > $R/sweep-large-run.log 2>&1
stop_clocks
grep -E "^\| (j3d|poisson)" $R/sweep-large/sweep_summary.md | awk -F'|' '{printf "%s %s auto %s (%s, %s) inpl %s (%s) best %s\n",$2,$3,$8,$9,$10,$17,$19,$6}'
/tmp/bin/ebisu_bench --stencils j3d7pt,poisson,j3d27pt --size3d 128 --steps 2400 --reps 5 --no-spmv --plain-variants fast \
  --ebisu-variants automatic --ebisu-strategies in_place_tiling --boundaries periodic,mirror --json $R/boundaries-128.json > $R/boundaries-128.log 2>&1
echo "boundaries rc $?"; grep -E "automatic|ebisu-in-place" $R/boundaries-128.log | grep -E "median" | cut -c1-110
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
