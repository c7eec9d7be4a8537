#!/usr/bin/env bash
# call 3 (session 33): (a) Cuda field-kernel tests of the tree to commit (3-D response test with T = 15 and 16);
# memcheck and racecheck of that test; (b) j3d7pt and j3d7pt-source in the same processes at 2560x288x384,
# T = 100 twice and T = 300 once (automatic takes the response form).
D=$(cd "$(dirname "$0")" && pwd)
source "$D/common.sh"
cd /tmp/bin
( time timeout 240 ./ebisu_unit_tests_fields --gtest_brief=1 --gtest_filter='cuda.field_kernels*' ) > $R/unit.log 2>&1
echo "unit: $(grep -E 'PASSED|FAILED|tests ran' $R/unit.log | head -5 | tr '\n' ' ')"
NCS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
( timeout 120 $NCS --tool memcheck ./ebisu_unit_tests_fields --gtest_brief=1 --gtest_filter='cuda.field_kernels_source_response_3d' ) > $R/memcheck.log 2>&1
echo "memcheck rc $?: $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $R/memcheck.log | tr '\n' ' ')"
( timeout 150 $NCS --tool racecheck ./ebisu_unit_tests_fields --gtest_brief=1 --gtest_filter='cuda.field_kernels_source_response_3d' ) > $R/racecheck.log 2>&1
echo "racecheck rc $?: $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' $R/racecheck.log | tr '\n' ' ')"
C="--plain-variants mdrange-tile-32x4x1,mdrange-tile-32x4x2 --no-spmv --ebisu-variants double-buffer,automatic"
run() { local tag=$1; shift; echo "$(date -u +%T) $tag" >> $R/order.txt; timeout 200 ./"$@" --json $R/$tag.json > $R/$tag.log 2>&1; echo "$tag rc $?"; sleep 5; }
run base-3d-1 ebisu_bench_base $C --steps 100 --stencils j3d7pt --field-cases j3d7pt-source
run base-3d-2 ebisu_bench_base $C --steps 100 --stencils j3d7pt --field-cases j3d7pt-source
run base-3d-T300 ebisu_bench_base $C --steps 300 --stencils j3d7pt --field-cases j3d7pt-source
for f in $R/*.log; do echo "== $(basename $f)"; grep -hE "^j3d7pt(-source)? +(mdrange|parallel_stencil:(double-buffer|automatic)|ebisu-sm)" $f | awk '{print $1,$2,$6,$10,$11,$12}'; done
finish
