#!/bin/bash
# call 2: device tiling's shallower measured-choice candidates: Cuda tests (measured choice, device tiling),
# then the size sweep (automatic, device tiling forced at the model's depth, the fast plain variants)
source "$(dirname "$0")/common.sh"
/tmp/bin/cuda_sub --gtest_filter='cuda.measured_choice*:cuda.device_tiling*' > $R/tests.log 2>&1; echo "tests rc $?"
grep -E "^\[  (PASSED|FAILED) |^\[       OK|FAILED" $R/tests.log | head -30
SIZES_2D="256 384 512 768 1024 1536 2048" SIZES_3D="32 48 64 96 128" STRATEGIES=device_tiling \
  timeout 420 bash perf_tests/run_size_sweep.sh /tmp/bin/ebisu_bench $R/sweep > $R/sweep.out 2>&1
echo "sweep rc $?"; tail -16 $R/sweep.out
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
