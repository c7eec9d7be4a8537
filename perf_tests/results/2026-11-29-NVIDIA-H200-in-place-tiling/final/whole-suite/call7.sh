#!/usr/bin/env bash
# session 23, call 7: the 1-D segment-tiling tests after the refusal message fix (forced device / in-place tiling).
source "$(dirname "$0")/common.sh"
s=$(date +%s)
timeout 200 /tmp/bin/tSeg > $R/test-segments-1d.log 2>&1
echo "tests rc $? $(( $(date +%s) - s )) s: $(grep -E '^\[  PASSED|^\[  FAILED  \] [0-9]' $R/test-segments-1d.log | tr '\n' ' ')"
grep -E "^\[  FAILED  \] cuda" $R/test-segments-1d.log | head -10
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
