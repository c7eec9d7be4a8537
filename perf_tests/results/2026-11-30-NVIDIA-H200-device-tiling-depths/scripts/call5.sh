#!/bin/bash
# call 5: compute-sanitizer on the shallower device-tiling plans (each run directly against the reference)
source "$(dirname "$0")/common.sh"
CS=/usr/local/cuda/bin/compute-sanitizer
F='cuda.measured_choice_shallower_device_plans_are_exact'
for tool in memcheck racecheck synccheck; do
  s=$(date +%s); timeout 240 $CS --tool $tool --error-exitcode 3 /tmp/bin/cuda_sub2 --gtest_filter=$F > $R/san_$tool.log 2>&1
  echo "$tool rc $? $(( $(date +%s) - s )) s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|hazard' $R/san_$tool.log | tail -1)"
  grep -E "^\[  (PASSED|FAILED) " $R/san_$tool.log
done
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
