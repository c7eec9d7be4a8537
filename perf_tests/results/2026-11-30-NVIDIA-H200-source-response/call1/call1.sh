#!/usr/bin/env bash
# call 1 (session 33): the source's response form (SourceForm::response, 2-D and 3-D).
# (a) Cuda field-kernel tests of this tree; compute-sanitizer memcheck of the star-shaped (2-D response) and the
#     3-D radius-2/source tests, racecheck of the star-shaped test;
# (b) lean bench processes: 8352^2 T = 100 three rounds (j2d5pt and j2d5pt-source in one process: automatic,
#     per-step and response forms), HEAD's binary (ebisu_bench_U2 = 45d4819's kernels) once between;
#     T = 1000; 4096^2, 2048^2, 16384^2; 3-D 2560x288x384 (j3d7pt, j3d7pt-source) twice.
D=$(cd "$(dirname "$0")" && pwd)
source "$D/common.sh"
cd /tmp/bin
( time timeout 240 ./ebisu_unit_tests_fields --gtest_brief=1 --gtest_filter='cuda.field_kernels*' ) > $R/unit.log 2>&1
echo "unit: $(grep -E 'PASSED|FAILED|tests ran' $R/unit.log | head -5 | tr '\n' ' ')"
C="--plain-variants mdrange-tile-32x4 --no-spmv --ebisu-variants double-buffer,automatic"
run() { local tag=$1; shift; echo "$(date -u +%T) $tag" >> $R/order.txt; timeout 150 ./"$@" --json $R/$tag.json > $R/$tag.log 2>&1; echo "$tag rc $?"; sleep 5; }
for round in 1 2 3; do
  run new-8352-$round ebisu_bench $C --steps 100 --stencils j2d5pt --field-cases j2d5pt-source --size2d 8352
  [ $round = 2 ] && run head-8352 ebisu_bench_U2 $C --steps 100 --stencils j2d5pt --field-cases j2d5pt-source --size2d 8352
done
run new-8352-T1000 ebisu_bench $C --steps 1000 --stencils j2d5pt --field-cases j2d5pt-source --size2d 8352 --reps 5
for n in 4096 2048 16384; do
  run new-$n ebisu_bench $C --steps 100 --stencils j2d5pt --field-cases j2d5pt-source --size2d $n
done
for round in 1 2; do
  run new-3d-$round ebisu_bench $C --steps 100 --stencils j3d7pt --field-cases j3d7pt-source
done
for f in $R/*.log; do echo "== $(basename $f)"; grep -hE "^j[23]d[57]pt(-source)? +(parallel_stencil:(double-buffer|automatic)|ebisu-sm|ebisu-d[0-9])" $f | awk '{print $1,$2,$6,$10,$11,$12}'; done
NCS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
( timeout 200 $NCS --tool memcheck ./ebisu_unit_tests_fields --gtest_brief=1 --gtest_filter='cuda.field_kernels_star_shaped_functors:cuda.field_kernels_sm_tiling_3d_radius2_source_and_coefficients' ) > $R/memcheck.log 2>&1
echo "memcheck rc $?: $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $R/memcheck.log | tr '\n' ' ')"
( timeout 150 $NCS --tool racecheck ./ebisu_unit_tests_fields --gtest_brief=1 --gtest_filter='cuda.field_kernels_star_shaped_functors' ) > $R/racecheck.log 2>&1
echo "racecheck rc $?: $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' $R/racecheck.log | tr '\n' ' ')"
finish
