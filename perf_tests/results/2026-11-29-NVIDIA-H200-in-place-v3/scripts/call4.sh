#!/usr/bin/env bash
# session 24, call 4: the final in-place kernel (column kept, writes while arriving at 16 / 32 cells): its Cuda
# tests (in-place, boundary kernels, presets) and compute-sanitizer memcheck / racecheck / synccheck on the in-place tests.
source "$(dirname "$0")/common.sh"
s=$(date +%s)
timeout 200 /tmp/bin/tIPT > $R/tests.log 2>&1
echo "tests rc $? $(( $(date +%s) - s )) s: $(grep -E '^\[  PASSED|^\[  FAILED  \] [0-9]|tests ran' $R/tests.log | tr '\n' ' ')"
grep -E "^\[  FAILED  \] cuda" $R/tests.log | head -10
for tool in memcheck racecheck synccheck; do
  s=$(date +%s)
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 /tmp/bin/tIPT --gtest_filter='cuda.in_place_tiling*' > $R/$tool.log 2>&1
  echo "$tool rc $? $(( $(date +%s) - s )) s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED  \] [0-9]' $R/$tool.log | tr '\n' ' ')"
done
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
