#!/usr/bin/env bash
# 2026-11-29, call K: 6d7fb38's boundary tests (periodic / mirror instantiations of the unrolled radius-1
# kernels): test_boundaries and test_boundary_kernels (tB3), memcheck of the 2-D boundary kernels.
source "$(dirname "$0")/common.sh"
s=$(date +%s); timeout 150 /tmp/bin/tB3 > $R/unit-tB3.log 2>&1; echo "unit tB3 rc $? $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $R/unit-tB3.log | tail -6
s=$(date +%s); EBISU_TEST_QUICK=1 timeout 80 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/bin/tB3 --gtest_filter='cuda.boundary_kernels_2d' > $R/memcheck-tB3.log 2>&1
echo "memcheck rc $? $(( $(date +%s) - s )) s"; grep -E "ERROR SUMMARY|PASSED|FAILED" $R/memcheck-tB3.log | tail -3
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
