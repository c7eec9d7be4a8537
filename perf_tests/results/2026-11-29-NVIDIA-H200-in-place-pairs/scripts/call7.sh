#!/usr/bin/env bash
# session 25, call 7: part of the halo listed where the whole list does not fit (radius 2 at 16,384 cells per
# block): Cuda tests and sanitizers, then HEAD (ab_H, e9eb7ec) against the new tree (ab_N), in-place forced,
# alternating, j3d7pt and j3d13pt; checks against the generic path at 45^3 and 100^3.
source "$(dirname "$0")/common.sh"
s=$(date +%s)
timeout 200 /tmp/bin/tIPT3 > $R/tests.log 2>&1; echo "tIPT3 rc $?"
timeout 200 /tmp/bin/tCB3 > $R/tests-custom-boundaries.log 2>&1; echo "tCB3 rc $?"
grep -h "PASSED\|FAILED" $R/tests*.log
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 /tmp/bin/tIPT3 --gtest_filter='cuda.in_place_tiling_kernels*' > $R/$tool.log 2>&1
  echo "$tool rc $?"; tail -2 $R/$tool.log
done
echo "tests $(( $(date +%s) - s )) s"
export AB_STARS=1
/tmp/bin/ab_N 45 100 2>&1 | grep CHECK | tee $R/check.log
for round in 1 2; do
  for v in H N; do /tmp/bin/ab_$v 112 128 2>&1 | grep RESULT | sed "s/^/$v /"; done
done | tee $R/ab.log
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
