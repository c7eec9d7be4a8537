#!/bin/bash
# call 9: kept runs read no row beyond the tile (clamped); racecheck again; cost of the clamp (N15, radius 1 only) against
# the unclamped kernel (N14) and HEAD (H), alternating
source "$(dirname "$0")/common.sh"
s=$(date +%s)
T=/tmp/bin/cuda_tests
$T --gtest_filter='cuda.device_tiling_kept_runs:cuda.boundary_kernels_2d' > $R/tests.log 2>&1
echo "tests rc $? $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED) |OK \] cuda" $R/tests.log | cut -c1-110
for tool in memcheck racecheck; do
EBISU_TEST_QUICK=1 timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_filter='cuda.device_tiling_kept_runs' > $R/san-$tool.log 2>&1
echo "$tool rc $? $(( $(date +%s) - s )) s"; grep -E "SUMMARY|PASSED|FAILED" $R/san-$tool.log | head -3
grep -m6 -A3 "Race reported\|Error:\|Invalid" $R/san-$tool.log | head -20
done
for round in 1 2; do
  for v in H N15 N14; do
    /tmp/bin/ab_$v 256 384 512 768 1024 > $R/ab_${v}_r$round.log 2>&1
    grep "RESULT\|WRONG" $R/ab_${v}_r$round.log | grep -v j2d25pt | sed -E "s/RESULT (\S+ \S+) d[0-9]+ (\S+) .*/$v r$round \1 \2/"
  done
done
echo "total $(( $(date +%s) - s )) s"
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
