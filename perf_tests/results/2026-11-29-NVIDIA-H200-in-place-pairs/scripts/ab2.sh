#!/bin/bash
cd "$(dirname "$0")"
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name "libcudart.so.13*" 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
export AB_STARS=1
for s in 8x2 16x2; do EBISU_TMP_IPT_SHAPE=$s ./ab_N 21 45 70 2>&1 | grep CHECK | sed "s/^/N-$s /"; done | tee $OUT/check.log
for round in 1 2; do
  for s in model 16x1 8x2 16x2 32x1 4x1; do
    if [ $s = model ]; then ./ab_N 64 80 96 112 128 2>&1 | grep RESULT | sed "s/^/N-$s /"; else EBISU_TMP_IPT_SHAPE=$s ./ab_N 64 80 96 112 128 2>&1 | grep RESULT | sed "s/^/N-$s /"; fi
  done
done | tee $OUT/ab.log
