#!/usr/bin/env bash
# session 23, call 6: the whole Cuda unit suite of the committed code (every test object linked into one binary).
source "$(dirname "$0")/common.sh"
s=$(date +%s)
timeout 500 /tmp/bin/tAll > $R/test-all.log 2>&1
echo "tests rc $? $(( $(date +%s) - s )) s: $(grep -E '^\[  PASSED|^\[  FAILED  \] [0-9]|tests ran' $R/test-all.log | tr '\n' ' ')"
grep -E "^\[  FAILED  \] cuda" $R/test-all.log | head -10
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
