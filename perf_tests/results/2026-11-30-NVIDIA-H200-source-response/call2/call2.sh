#!/usr/bin/env bash
# call 2 (session 33): (a) Cuda field-kernel tests of the tree with the 3-D response form only (the 2-D one dropped);
# compute-sanitizer memcheck and racecheck of its 3-D response test; (b) the 2-D input prefetch depth: P = 3 (the tree),
# 4 and 6 rows (ebisu_bench_P4 / _P6: field_cases and cases_2d_double rebuilt), alternating processes, j2d5pt and
# j2d5pt-source at 8352^2 (two rounds), 4096^2, 16384^2, T = 100; (c) 3-D j3d7pt / j3d7pt-source at 2560x288x384 and
# 512^3, T = 100 (automatic now takes the response form from 12 launches on).
D=$(cd "$(dirname "$0")" && pwd)
source "$D/common.sh"
cd /tmp/bin
( time timeout 240 ./ebisu_unit_tests_fields --gtest_brief=1 --gtest_filter='cuda.field_kernels*' ) > $R/unit.log 2>&1
echo "unit: $(grep -E 'PASSED|FAILED|tests ran' $R/unit.log | head -5 | tr '\n' ' ')"
C="--plain-variants mdrange-tile-32x4,mdrange-tile-32x4x2 --no-spmv --ebisu-variants double-buffer,automatic --steps 100"
run() { local tag=$1; shift; echo "$(date -u +%T) $tag" >> $R/order.txt; timeout 150 ./"$@" --json $R/$tag.json > $R/$tag.log 2>&1; echo "$tag rc $?"; sleep 5; }
for round in 1 2; do
  for b in ebisu_bench_base ebisu_bench_P4 ebisu_bench_P6; do
    run $b-8352-$round $b $C --stencils j2d5pt --field-cases j2d5pt-source --size2d 8352
  done
done
for n in 4096 16384; do
  for b in ebisu_bench_base ebisu_bench_P4 ebisu_bench_P6; do
    run $b-$n $b $C --stencils j2d5pt --field-cases j2d5pt-source --size2d $n
  done
done
run base-3d ebisu_bench_base $C --stencils j3d7pt --field-cases j3d7pt-source
run base-3d-512 ebisu_bench_base $C --stencils j3d7pt --field-cases j3d7pt-source --size3d 512
for f in $R/*.log; do echo "== $(basename $f)"; grep -hE "^j[23]d[57]pt(-source)? +(parallel_stencil:(double-buffer|automatic)|ebisu-sm|ebisu-d[0-9])" $f | awk '{print $1,$2,$6,$10,$11,$12}'; done
NCS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
( timeout 150 $NCS --tool memcheck ./ebisu_unit_tests_fields --gtest_brief=1 --gtest_filter='cuda.field_kernels_source_response_3d' ) > $R/memcheck.log 2>&1
echo "memcheck rc $?: $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $R/memcheck.log | tr '\n' ' ')"
( timeout 200 $NCS --tool racecheck ./ebisu_unit_tests_fields --gtest_brief=1 --gtest_filter='cuda.field_kernels_source_response_3d' ) > $R/racecheck.log 2>&1
echo "racecheck rc $?: $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' $R/racecheck.log | tr '\n' ' ')"
finish
