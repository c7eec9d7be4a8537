#!/usr/bin/env bash
# 2026-11-29 session 21, call 4: Cuda unit tests of the change - boundaries, boundary kernels, large domains (tB),
# memcheck of the 2-D boundary kernels.
source "$(dirname "$0")/common.sh"
run_unit() { s=$(date +%s); timeout ${2:-300} /tmp/bin/$1 > $R/unit-$1.log 2>&1; echo "unit $1 rc $? $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED) |tests? ran|FAILED  \]" $R/unit-$1.log | tail -8; }
run_unit tB 240

s=$(date +%s); EBISU_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/bin/tB --gtest_filter='cuda.boundary_kernels_2d:cuda.boundary_kernels_periodic_any_stencil' > $R/memcheck-tB.log 2>&1
echo "memcheck rc $? $(( $(date +%s) - s )) s"; grep -E "ERROR SUMMARY|PASSED|FAILED" $R/memcheck-tB.log | tail -3
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
