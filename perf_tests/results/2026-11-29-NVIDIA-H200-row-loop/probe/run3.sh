#!/bin/bash
# Call 3 (2026-11-29): own-columns-first sums (h7) against 82a7996, HEAD (base), h1; ncu stall reasons of one
# depth-10 j2d5pt 2048^2 launch of each.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu.txt
for r in 1 2; do
  for v in 82 base h1 h7; do echo "== $v run $r"; ./probe_$v 2>&1; done
done > $OUT/probe.log 2>&1
for v in 82 h1 h7; do
  echo "== $v" >> $OUT/ncu.log
  PROBE_ONLY=1 timeout 150 ncu --kernel-name regex:ebisu2d_kernel --launch-skip 20 --launch-count 1 \
    --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,sm__cycles_elapsed.avg \
    --section SourceCounters --print-summary none ./probe_$v >> $OUT/ncu.log 2>&1
done
