#!/usr/bin/env bash
# session 24, call 8: the custom-shape / split-domain and boundary-rule Cuda suites (every 3-D case also forced to
# in-place tiling) with the final kernels.
source "$(dirname "$0")/common.sh"
s=$(date +%s)
timeout 400 /tmp/bin/tCB > $R/tests-custom-boundaries.log 2>&1
echo "tests rc $? $(( $(date +%s) - s )) s: $(grep -E '^\[  PASSED|^\[  FAILED  \] [0-9]|tests ran' $R/tests-custom-boundaries.log | tr '\n' ' ')"
grep -E "^\[  FAILED  \] cuda" $R/tests-custom-boundaries.log | head -10
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
