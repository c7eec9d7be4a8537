#!/bin/bash
# Call 4 (2026-11-29): variants of the 2-D row loop against 82a7996 and h1 (see perf-notes-2d.md):
# h7 own-columns-first sums; h8 + gathered loads and stages deepest first with their stores;
# h9 + window shifts after the barrier; h10 + predicated output stores; h11 = h7 + predicated stores.
cd "$(dirname "$0")"; for f in probe_*.xz; do xz -dk "$f"; chmod +x "${f%.xz}"; done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu.txt
for r in 1 2; do
  for v in h12 h13; do echo "== $v run $r"; ./probe_$v 2>&1; done
done > $OUT/probe.log 2>&1
for v in ; do
  echo "== $v" >> $OUT/ncu.log
  PROBE_ONLY=1 timeout 150 ncu --kernel-name regex:ebisu2d_kernel --launch-skip 20 --launch-count 1 \
    --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,sm__cycles_elapsed.avg \
    --print-summary none ./probe_$v >> $OUT/ncu.log 2>&1
done
