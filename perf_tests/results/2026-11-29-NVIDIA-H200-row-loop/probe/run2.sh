#!/bin/bash
# Call 2 (2026-11-29): 82a7996 (v7-era kernel) against HEAD (base) and the addressing fix (h1), alternating;
# ncu warp-state of one depth-10 j2d5pt 2048^2 launch of each; the automatic-vs-forced j2d9pt-gol 8192^2 gap.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu.txt
for r in 1 2; do
  for v in 82 base h1; do echo "== $v run $r"; ./probe_$v 2>&1; done
done > $OUT/probe.log 2>&1
for v in 82 base h1; do echo "== $v gol"; PROBE_GOL=1 ./probe_$v 2>&1; done > $OUT/gol.log 2>&1
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
echo "ncu: $NCU" > $OUT/ncu.log
if [ -n "$NCU" ]; then
  for v in 82 base h1; do
    echo "== $v" >> $OUT/ncu.log
    PROBE_ONLY=1 timeout 120 $NCU --kernel-name regex:ebisu2d_kernel --launch-skip 20 --launch-count 1 \
      --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis --section LaunchStats \
      --section Occupancy --section SpeedOfLight ./probe_$v >> $OUT/ncu.log 2>&1
  done
fi
