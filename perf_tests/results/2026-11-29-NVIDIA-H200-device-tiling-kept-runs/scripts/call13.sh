#!/bin/bash
# call 13: the landed code (4613e75): device-tiling and 2-D boundary-kernel tests, sanitizers on the kept-runs test
source "$(dirname "$0")/common.sh"
s=$(date +%s)
T=/tmp/bin/cuda_tests
$T --gtest_filter='cuda.device_tiling*:cuda.boundary_kernels_2d' > $R/tests.log 2>&1
echo "tests rc $? $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|OK \] cuda" $R/tests.log | cut -c1-110
for tool in memcheck racecheck synccheck; do
  EBISU_TEST_QUICK=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_filter='cuda.device_tiling_kept_runs' > $R/san-$tool.log 2>&1
  echo "$tool rc $? $(( $(date +%s) - s )) s"; grep -E "SUMMARY|PASSED|FAILED" $R/san-$tool.log | head -3
done
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
