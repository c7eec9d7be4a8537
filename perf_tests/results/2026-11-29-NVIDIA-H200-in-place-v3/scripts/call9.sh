#!/usr/bin/env bash
# session 24, call 9: where a 128^3 in-place step goes (ncu on one launch of the final kernel, j3d7pt and poisson,
# 240 steps): speed of light, warp states, scheduler, memory workload, source counters.
source "$(dirname "$0")/common.sh"
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1); echo "ncu: $ncu"
for st in j3d7pt poisson; do
  s=$(date +%s)
  timeout 240 $ncu --kernel-name regex:in_place_tiling_kernel --launch-skip 1 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis \
    --section ComputeWorkloadAnalysis --section LaunchStats --section Occupancy \
    /tmp/bin/bench_after --stencils $st --size3d 128 --steps 240 --reps 5 --no-spmv --bw-mb 64 \
    --plain-variants mdrange-coarse4-tile-32x4x1 --ebisu-variants generic --ebisu-strategies in_place_tiling \
    --json $R/ncu-$st.json > $R/ncu-$st.log 2>&1
  echo "ncu $st rc $? $(( $(date +%s) - s )) s"
  grep -E "Duration|Issue Slots Busy|Warp Cycles Per Issued|Stall|Shared|L2 Hit|Memory Throughput|Compute \(SM\)|Executed Ipc|No Eligible|Eligible Warps|Registers" $R/ncu-$st.log | head -40
done
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
