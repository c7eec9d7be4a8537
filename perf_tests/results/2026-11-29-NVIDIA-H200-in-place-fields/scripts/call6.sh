#!/usr/bin/env bash
# session 26, call 6: fp32 read-only fields in the 32-cell and paired in-place kernels. Field-kernel tests
# (incl. fp32 at 128 x 112 x 128), memcheck on the in-place field test, fp32 field bench rows 96^3-128^3.
source "$(dirname "$0")/common.sh"
s=$(date +%s)
timeout 200 /tmp/bin/tFK3 > $R/tests-tFK3.log 2>&1; echo "tFK3 rc $?"
grep -h "PASSED\|FAILED" $R/tests*.log
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/bin/tFK3 --gtest_filter='cuda.field_kernels_in_place*' > $R/memcheck.log 2>&1
echo "memcheck rc $?"; tail -n 2 $R/memcheck.log
B=/tmp/bin/ebisu_bench
for nt in 96:1000 112:600 128:400; do
  n=${nt%%:*}; t=${nt##*:}
  timeout 200 $B --stencils none --field-cases heat3d-var,j3d7pt-source --size3d $n --steps $t --no-spmv --precision float \
    --json $R/fields-float-$n.json > $R/fields-float-$n.log 2>&1; echo "size $n rc $?"
done
grep -hE "^(heat3d-var|j3d7pt-source) .*(best plain|ebisu|automatic)" $R/fields-float-*.log | cut -c1-120
echo "total $(( $(date +%s) - s )) s"
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
