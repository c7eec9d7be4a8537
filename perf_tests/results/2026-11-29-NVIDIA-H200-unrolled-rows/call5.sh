#!/usr/bin/env bash
# 2026-11-29 session 21, call 5: Cuda unit tests of the change - measured choice and device tiling (tM; the 2-D
# model now searches blocks per SM).
source "$(dirname "$0")/common.sh"
run_unit() { s=$(date +%s); timeout ${2:-300} /tmp/bin/$1 > $R/unit-$1.log 2>&1; echo "unit $1 rc $? $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED) |tests? ran|FAILED  \]" $R/unit-$1.log | tail -8; }
run_unit tM 300
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
