#!/usr/bin/env bash
# 2026-11-29 session 22, call 6: racecheck of the 3-D boundary kernels (j3d7pt, j3d13pt, j3d27pt, poisson with
# fixed, periodic and mirror sides; the unrolled plane loops among them), small cases (EBISU_TEST_QUICK=1).
source "$(dirname "$0")/common.sh"
s=$(date +%s); EBISU_TEST_QUICK=1 timeout 140 compute-sanitizer --tool racecheck --error-exitcode 3 /tmp/bin/tB --gtest_filter='cuda.boundary_kernels_3d' > $R/racecheck-boundaries-3d.log 2>&1
echo "racecheck rc $? $(( $(date +%s) - s )) s"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|tests? ran|PASSED|FAILED" $R/racecheck-boundaries-3d.log | tail -3
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
