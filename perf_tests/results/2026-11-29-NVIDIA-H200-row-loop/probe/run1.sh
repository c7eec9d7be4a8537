#!/bin/bash
# Call 1 (2026-11-29): depth-10 regression probe, HEAD (base) against the request_row addressing fix (h1), alternating.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu.txt
for r in 1 2; do
  for v in base h1; do echo "== $v run $r"; ./probe_$v 2>&1; done
done > $OUT/probe.log 2>&1
for v in base h1; do cuobjdump -sass probe_$v > $OUT/$v.sass 2>&1; done
xz -9 $OUT/*.sass
