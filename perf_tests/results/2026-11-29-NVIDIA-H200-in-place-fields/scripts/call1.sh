#!/usr/bin/env bash
# session 26, call 1: read-only fields in in-place tiling. Cuda tests (field kernels incl. the new in-place
# cases, in-place tests and boundary kernels, the field suite), compute-sanitizer on the in-place field tests,
# then the field bench rows (heat3d-var, j3d7pt-source) across sizes (in-place forced among the forms).
source "$(dirname "$0")/common.sh"
s=$(date +%s)
left() { echo $(( 540 - ($(date +%s) - s) )); }
for t in tFK tIPT4 tFS; do
  timeout 200 /tmp/bin/$t > $R/tests-$t.log 2>&1; echo "$t rc $? at $(( $(date +%s) - s )) s"
done
grep -h "PASSED\|FAILED" $R/tests*.log
for tool in memcheck racecheck; do
  [ $(left) -gt 300 ] || break
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 3 /tmp/bin/tFK --gtest_filter='cuda.field_kernels_in_place*' > $R/$tool.log 2>&1
  echo "$tool rc $?"; tail -2 $R/$tool.log
done
echo "tests $(( $(date +%s) - s )) s"
B=/tmp/bin/ebisu_bench
start_clocks clocks.csv
for nt in 64:2000 96:1000 128:300 48:2000 80:1000 112:500 256:100; do
  [ $(left) -gt 40 ] || break
  n=${nt%%:*}; t=${nt##*:}
  timeout $(left) $B --stencils none --field-cases heat3d-var,j3d7pt-source --size3d $n --steps $t --no-spmv \
    --json $R/fields-$n.json > $R/fields-$n.log 2>&1; echo "size $n rc $?"
  grep -E "^(heat3d-var|j3d7pt-source) " $R/fields-$n.log
done
stop_clocks
echo "total $(( $(date +%s) - s )) s"
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
