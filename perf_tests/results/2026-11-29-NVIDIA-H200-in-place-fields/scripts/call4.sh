#!/usr/bin/env bash
# session 26, call 4: the final in-place step (4-cell columns retire new values into the column registers as
# they go; the longer columns as committed): Cuda tests (in-place, boundary kernels, field kernels), sanitizers
# on the in-place tests, then the committed kernels (F) against the final ones (R2), in-place forced, two rounds.
source "$(dirname "$0")/common.sh"
s=$(date +%s)
for t in tIPT5 tFK2; do
  timeout 200 /tmp/bin/$t > $R/tests-$t.log 2>&1; echo "$t rc $? at $(( $(date +%s) - s )) s"
done
grep -h "PASSED\|FAILED" $R/tests*.log
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 /tmp/bin/tIPT5 --gtest_filter='cuda.in_place_tiling_kernels*:cuda.in_place_tiling_tiny*' > $R/$tool.log 2>&1
  echo "$tool rc $?"; tail -n 2 $R/$tool.log
done
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/bin/tFK2 --gtest_filter='cuda.field_kernels_in_place*' > $R/memcheck-fields.log 2>&1
echo "memcheck fields rc $?"; tail -n 2 $R/memcheck-fields.log
echo "tests $(( $(date +%s) - s )) s"
/tmp/bin/ab_R2 45 100 2>&1 | grep CHECK | tee $R/check.log
for round in 1 2; do
  for v in F R2; do /tmp/bin/ab_$v 48 64 80 96 112 128 2>&1 | grep RESULT | sed "s/^/$v /"; done
done | cut -c1-60 | tee $R/ab.log
echo "total $(( $(date +%s) - s )) s"
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
