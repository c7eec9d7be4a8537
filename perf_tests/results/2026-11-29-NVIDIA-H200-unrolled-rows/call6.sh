#!/usr/bin/env bash
# 2026-11-29 session 21, call 6: Cuda unit tests of the change - fields and state suites ($*): their kernels are
# unchanged, their plans now come from the blocks-per-SM search.
source "$(dirname "$0")/common.sh"
run_unit() { s=$(date +%s); timeout ${2:-300} /tmp/bin/$1 > $R/unit-$1.log 2>&1; echo "unit $1 rc $? $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED) |tests? ran|FAILED  \]" $R/unit-$1.log | tail -8; }
for t in "$@"; do run_unit $t 200; done
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
