#!/usr/bin/env bash
# call 4: the final tree (centre-only fields in registers at depths <= 8, interior pieces without the frame's
# selects, the source added last as before): (a) Cuda tests of test_field_kernels and test_fields; (b) HEAD's bench
# (ebisu_bench_head, 7c11a4b's kernels) against the final one (ebisu_bench_final), lean processes alternating,
# 8352^2 T = 100, two rounds; 2048^2 / 4096^2 / 16384^2 and j3d7pt-source 2560x288x384 once with the final one;
# (c) test_boundary_kernels if time is left.
D=$(cd "$(dirname "$0")" && pwd)
source "$D/common.sh"
cd /tmp/bin
( time ./ebisu_unit_tests_cuda --gtest_brief=1 --gtest_filter='cuda.field*:cuda.fields*:*Fields*:*fields*' ) > $R/unit.log 2>&1
tail -4 $R/unit.log
C="--plain-variants mdrange-tile-32x4 --no-spmv --steps 100 --ebisu-variants double-buffer"
run() { local tag=$1; shift; echo "$(date -u +%T) $tag" >> $R/order.txt; timeout 120 ./"$@" --json $R/$tag.json > $R/$tag.log 2>&1; echo "$tag rc $?"; sleep 8; }
for round in 1 2; do
  for b in ebisu_bench_head ebisu_bench_final; do
    run $b-8352-$round $b $C --stencils j2d5pt --field-cases j2d5pt-source --size2d 8352 --ebisu-depths 8
  done
done
for n in 2048 4096 16384; do
  run ebisu_bench_final-$n ebisu_bench_final $C --stencils j2d5pt --field-cases j2d5pt-source --size2d $n
done
run ebisu_bench_final-3d ebisu_bench_final --plain-variants fast --no-spmv --steps 100 --ebisu-variants double-buffer --stencils j3d7pt --field-cases j3d7pt-source
for f in $R/*.log; do echo "== $(basename $f)"; grep -hE "^j[23]d[57]pt(-source)? +(parallel_stencil:(double-buffer|automatic)|ebisu-d[0-9]|ebisu-sm-d)" $f | awk '{print $1,$2,$6,$10,$11,$12}'; done
( time timeout 120 ./ebisu_unit_tests_cuda --gtest_brief=1 --gtest_filter='cuda.boundary_kernels*' ) > $R/unit-boundary.log 2>&1
tail -4 $R/unit-boundary.log
finish
