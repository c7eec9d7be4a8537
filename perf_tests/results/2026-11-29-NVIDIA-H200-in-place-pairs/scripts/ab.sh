#!/bin/bash
# A/B of in-place shapes: correctness at odd sizes, then alternating timing rounds.
cd "$(dirname "$0")"
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name "libcudart.so.13*" 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
for s in 32x1 16x2; do EBISU_TMP_IPT_SHAPE=$s ./ab_N 45 100 2>&1 | sed "s/^/N-$s /"; done | tee $OUT/check.log
for round in 1 2; do
  ./ab_H 96 128 2>&1 | sed "s/^/H /"
  for s in 32x1 16x2; do EBISU_TMP_IPT_SHAPE=$s ./ab_N 96 128 2>&1 | sed "s/^/N-$s /"; done
done | tee $OUT/ab.log
