#!/usr/bin/env bash
# session 25, call 3a: the Cuda tests of the in-place kernels with pairs of columns (in-place, boundary kernels,
# presets; custom shapes and boundary rules) and compute-sanitizer on the in-place tests.
source "$(dirname "$0")/common.sh"
s=$(date +%s)
timeout 200 /tmp/bin/tIPT2 > $R/tests.log 2>&1; echo "tIPT2 rc $?"
timeout 200 /tmp/bin/tCB2 > $R/tests-custom-boundaries.log 2>&1; echo "tCB2 rc $?"
grep -h "PASSED\|FAILED" $R/tests*.log
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 /tmp/bin/tIPT2 --gtest_filter='cuda.in_place_tiling*' > $R/$tool.log 2>&1
  echo "$tool rc $?"; tail -2 $R/$tool.log
done
echo "tests $(( $(date +%s) - s )) s"
