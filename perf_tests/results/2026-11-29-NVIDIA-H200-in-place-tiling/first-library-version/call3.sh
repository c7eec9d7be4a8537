#!/usr/bin/env bash
# session 23, call 3: racecheck of the 3-D kernels through the bench (tiny domain), then the 3-D size
# sweep 32^3 .. 128^3 (automatic, each strategy forced, the fast plain set).
source "$(dirname "$0")/common.sh"
# racecheck of the 3-D SM-tiling, device-tiling and in-place kernels through the bench, tiny domain
for st in j3d7pt poisson j3d13pt; do
  s=$(date +%s)
  timeout 120 compute-sanitizer --tool racecheck --error-exitcode 3 /tmp/bin/ebisu_bench --stencils $st --size3d 20,22,36 \
    --steps 3 --reps 5 --no-spmv --plain-variants mdrange-tile-32x4x1 --ebisu-variants generic \
    --ebisu-strategies sm_tiling,device_tiling,in_place_tiling --ebisu-depths 2 > $R/racecheck-bench-$st.log 2>&1
  echo "racecheck bench $st rc $? $(( $(date +%s) - s )) s: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/racecheck-bench-$st.log | tr '\n' ' ')"
done
start_clocks clocks-sweep.csv
SIZES_2D="" SIZES_3D="32 48 64 96 128" REPS=5 perf_tests/run_size_sweep.sh /tmp/bin/ebisu_bench $R/sweep > $R/sweep-run.log 2>&1
stop_clocks
tail -8 $R/sweep-run.log
[ -f $R/sweep/sweep_summary.md ] && grep -E "^\| (j3d|poisson)" $R/sweep/sweep_summary.md | awk -F'|' '{printf "%s %s auto %s (%s, %s) dev %s inpl %s (%s) best %s %s\n",$2,$3,$8,$9,$10,$14,$17,$18,$6,$5}'
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
