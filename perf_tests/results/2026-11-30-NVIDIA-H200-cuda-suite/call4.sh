#!/usr/bin/env bash
# call 4: the whole Cuda unit suite of this tree (HEAD's kernels, the fields test fix, the forced-depth source tests).
source "$(dirname "$0")/common.sh"
cd /tmp/bin
start=$(date +%s)
timeout 560 ./ebisu_unit_tests_cuda ${FILTER:+--gtest_filter=$FILTER} > $R/suite.log 2>&1; echo "suite rc $? after $(( $(date +%s) - start )) s" >> $R/suite.log
grep -E "^\[  (PASSED|FAILED) |tests ran|suite rc|^\[       OK|^\[  FAILED" $R/suite.log | tail -150
finish
