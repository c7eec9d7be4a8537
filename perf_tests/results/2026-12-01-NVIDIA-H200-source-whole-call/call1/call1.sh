#!/usr/bin/env bash
# call 1 (session 36): the whole-call response (the tail folded into g) and the build's share following the
# loop's length. tests: the Cuda source tests (whole-call forced, kept loops) and memcheck of the kept test.
# bench: 2-D 8352^2 T = 100 / 300 / 1000, 4096^2 / 2048^2 / 16384^2 T = 100; 3-D 2560x288x384 and 512^3 T = 100.
D=$(cd "$(dirname "$0")" && pwd)
source "$D/common.sh"
cd /tmp/bin
( time timeout 200 ./ebisu_unit_tests_fields --gtest_brief=1 --gtest_filter='cuda.field_kernels_source*' ) > $R/unit.log 2>&1
echo "unit: $(grep -E 'PASSED|FAILED|tests ran' $R/unit.log | head -5 | tr '\n' ' ')"
NCS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
( time timeout 150 $NCS --tool memcheck ./ebisu_unit_tests_fields --gtest_brief=1 --gtest_filter='cuda.field_kernels_source_response_kept' ) > $R/memcheck.log 2>&1
echo "memcheck: $(grep -E 'ERROR SUMMARY|PASSED|FAILED|^real' $R/memcheck.log | tr '\n' ' ')"
( timeout 60 ./hash_time ) > $R/hash_time.txt 2>&1; grep "hash_fields" $R/hash_time.txt
C2="--plain-variants mdrange-tile-32x4 --no-spmv --ebisu-variants double-buffer,automatic"
C3="--plain-variants mdrange-tile-32x4x1,mdrange-tile-32x4x2 --no-spmv --ebisu-variants double-buffer,automatic"
run() { local tag=$1; shift; echo "$(date -u +%T) $tag" >> $R/order.txt; timeout 150 ./"$@" --json $R/$tag.json > $R/$tag.log 2>&1; echo "$tag rc $?"; sleep 2; }
run 2d-8352-T100 ebisu_bench $C2 --steps 100 --size2d 8352 --stencils j2d5pt --field-cases j2d5pt-source
run 3d-T100 ebisu_bench $C3 --steps 100 --stencils j3d7pt --field-cases j3d7pt-source
run 2d-4096-T100 ebisu_bench $C2 --steps 100 --size2d 4096 --stencils j2d5pt --field-cases j2d5pt-source
run 2d-2048-T100 ebisu_bench $C2 --steps 100 --size2d 2048 --stencils j2d5pt --field-cases j2d5pt-source
run 2d-16384-T100 ebisu_bench $C2 --steps 100 --size2d 16384 --stencils j2d5pt --field-cases j2d5pt-source
run 2d-8352-T300 ebisu_bench $C2 --steps 300 --size2d 8352 --stencils j2d5pt --field-cases j2d5pt-source
run 3d-512-T100 ebisu_bench $C3 --steps 100 --size3d 512 --stencils j3d7pt --field-cases j3d7pt-source
run 2d-8352-T1000 ebisu_bench $C2 --steps 1000 --size2d 8352 --stencils j2d5pt --field-cases j2d5pt-source
for f in $R/*.log; do echo "== $(basename $f)"; grep -hE "^j[23]d[57]pt(-source)? +(mdrange|parallel_stencil:(double-buffer|automatic)|ebisu-sm)" $f | awk '{print $1,$2,$6,$10,$11,$12}'; done
finish
