#!/bin/bash
# call 7: the trimmed kept-run step as landed: Cuda tests (device tiling incl. kept runs, boundary kernels,
# field kernels, state, measured choice), compute-sanitizer on the kept-runs test, and the probe against HEAD
source "$(dirname "$0")/common.sh"
s=$(date +%s); timeout 480 /tmp/bin/cuda_sub3 --gtest_filter='cuda.*' > $R/tests.log 2>&1
echo "tests rc $? $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $R/tests.log | head -20
CS=/usr/local/cuda/bin/compute-sanitizer
F='cuda.device_tiling_kept_runs'
for tool in memcheck racecheck synccheck; do
  s=$(date +%s); timeout 200 $CS --tool $tool --error-exitcode 3 /tmp/bin/cuda_sub3 --gtest_filter=$F > $R/san_$tool.log 2>&1
  echo "$tool rc $? $(( $(date +%s) - s )) s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san_$tool.log | tail -1)"
  grep -E "^\[  (PASSED|FAILED) " $R/san_$tool.log
done
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
