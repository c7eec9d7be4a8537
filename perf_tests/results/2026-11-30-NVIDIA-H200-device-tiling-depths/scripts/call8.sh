#!/bin/bash
# call 8: the size sweep on the landed code (device tiling's trimmed kept-run step + shallower candidates):
# automatic, device tiling forced at the model's depth, the fast plain variants
source "$(dirname "$0")/common.sh"
SIZES_2D="256 384 512 768 1024 1536 2048" SIZES_3D="32 48 64 96 128" STRATEGIES=device_tiling \
  timeout 500 bash perf_tests/run_size_sweep.sh /tmp/bin/ebisu_bench $R/sweep > $R/sweep.out 2>&1
echo "sweep rc $?"; grep -E "^\| j2d5pt|^\| j3d7pt|^\| poisson|^\| j2d25pt" $R/sweep/sweep_summary.md
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
