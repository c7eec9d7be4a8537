#!/usr/bin/env bash
# call 1 (session 35): the response kept between calls. tests: the Cuda field-kernel tests (with the new
# cuda.field_kernels_source_response_kept: a loop of calls on one policy, the source / the coefficients /
# the step count changed between calls); memcheck of the response tests. bench: j2d5pt / j3d7pt and their
# -source cases in the same processes (automatic with the policy kept across repetitions, automatic with a
# fresh policy per call, per step, response), T = 100 at 2048^2 .. 16384^2, 300 and 1000 at 8352^2.
D=$(cd "$(dirname "$0")" && pwd)
source "$D/common.sh"
cd /tmp/bin
PART=${1:-tests}
if [ "$PART" = tests ] || [ "$PART" = unit ]; then
( time timeout 300 ./ebisu_unit_tests_fields --gtest_brief=1 --gtest_filter='cuda.field_kernels*' ) > $R/unit.log 2>&1
echo "unit: $(grep -E 'PASSED|FAILED|tests ran' $R/unit.log | head -5 | tr '\n' ' ')"
NCS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
( time timeout 200 $NCS --tool memcheck ./ebisu_unit_tests_fields --gtest_brief=1 --gtest_filter='cuda.field_kernels_source_response_kept' ) > $R/memcheck.log 2>&1
echo "memcheck: $(grep -E 'ERROR SUMMARY|PASSED|FAILED|^real' $R/memcheck.log | tr '\n' ' ')"
fi
C2="--plain-variants mdrange-tile-32x4 --no-spmv --ebisu-variants double-buffer,automatic"
C3="--plain-variants mdrange-tile-32x4x1,mdrange-tile-32x4x2 --no-spmv --ebisu-variants double-buffer,automatic"
run() { local tag=$1; shift; echo "$(date -u +%T) $tag" >> $R/order.txt; timeout 200 ./"$@" --json $R/$tag.json > $R/$tag.log 2>&1; echo "$tag rc $?"; sleep 2; }
if [ "$PART" = tests ] || [ "$PART" = bench2d ]; then
run 2d-8352-T100 ebisu_bench $C2 --steps 100 --size2d 8352 --stencils j2d5pt --field-cases j2d5pt-source
run 2d-4096-T100 ebisu_bench $C2 --steps 100 --size2d 4096 --stencils j2d5pt --field-cases j2d5pt-source
run 2d-2048-T100 ebisu_bench $C2 --steps 100 --size2d 2048 --stencils j2d5pt --field-cases j2d5pt-source
run 2d-16384-T100 ebisu_bench $C2 --steps 100 --size2d 16384 --stencils j2d5pt --field-cases j2d5pt-source
run 2d-8352-T300 ebisu_bench $C2 --steps 300 --size2d 8352 --stencils j2d5pt --field-cases j2d5pt-source
run 2d-8352-T1000 ebisu_bench $C2 --steps 1000 --size2d 8352 --stencils j2d5pt --field-cases j2d5pt-source
fi
if [ "$PART" = bench3d ]; then
run 3d-T100 ebisu_bench $C3 --steps 100 --stencils j3d7pt --field-cases j3d7pt-source
run 3d-T300 ebisu_bench $C3 --steps 300 --stencils j3d7pt --field-cases j3d7pt-source
run 3d-512-T100 ebisu_bench $C3 --steps 100 --size3d 512 --stencils j3d7pt --field-cases j3d7pt-source
run 3d-256-T100 ebisu_bench $C3 --steps 100 --size3d 256 --stencils j3d7pt --field-cases j3d7pt-source
fi
for f in $R/*.log; do echo "== $(basename $f)"; grep -hE "^j[23]d[57]pt(-source)? +(mdrange|parallel_stencil:(double-buffer|automatic)|ebisu-sm)" $f | awk '{print $1,$2,$6,$10,$11,$12}'; done
finish
