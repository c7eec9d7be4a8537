#!/usr/bin/env bash
# call 3 (session 36): the tree to commit: every call where the response may run counts the loop (per-step ones too),
# a whole-call build shared by the calls in a row of its step count. tests: the Cuda source tests. bench: 2-D
# 2048^2 / 4096^2 / 8352^2 / 16384^2 T = 100, 8352^2 T = 1000; 3-D 2560x288x384 and 512^3 T = 100.
D=$(cd "$(dirname "$0")" && pwd)
source "$D/common.sh"
cd /tmp/bin
( time timeout 200 ./ebisu_unit_tests_fields --gtest_brief=1 --gtest_filter='cuda.field_kernels_source*' ) > $R/unit.log 2>&1
echo "unit: $(grep -E 'PASSED|FAILED|tests ran' $R/unit.log | head -5 | tr '\n' ' ')"
C2="--plain-variants mdrange-tile-32x4 --no-spmv --ebisu-variants double-buffer,automatic"
C3="--plain-variants mdrange-tile-32x4x1,mdrange-tile-32x4x2 --no-spmv --ebisu-variants double-buffer,automatic"
run() { local tag=$1; shift; echo "$(date -u +%T) $tag" >> $R/order.txt; timeout 150 ./"$@" --json $R/$tag.json > $R/$tag.log 2>&1; echo "$tag rc $?"; sleep 2; }
run 2d-2048-T100 ebisu_bench $C2 --steps 100 --size2d 2048 --stencils j2d5pt --field-cases j2d5pt-source
run 2d-8352-T100 ebisu_bench $C2 --steps 100 --size2d 8352 --stencils j2d5pt --field-cases j2d5pt-source
run 3d-T100 ebisu_bench $C3 --steps 100 --stencils j3d7pt --field-cases j3d7pt-source
run 2d-2048-T100-again ebisu_bench $C2 --steps 100 --size2d 2048 --stencils j2d5pt --field-cases j2d5pt-source
run 2d-4096-T100 ebisu_bench $C2 --steps 100 --size2d 4096 --stencils j2d5pt --field-cases j2d5pt-source
run 2d-16384-T100 ebisu_bench $C2 --steps 100 --size2d 16384 --stencils j2d5pt --field-cases j2d5pt-source
run 3d-512-T100 ebisu_bench $C3 --steps 100 --size3d 512 --stencils j3d7pt --field-cases j3d7pt-source
run 2d-8352-T1000 ebisu_bench $C2 --steps 1000 --size2d 8352 --stencils j2d5pt --field-cases j2d5pt-source
for f in $R/*.log; do echo "== $(basename $f)"; grep -hE "^j[23]d[57]pt(-source)? +(parallel_stencil:(double-buffer|automatic)|ebisu-sm-(per-step|response-whole))" $f | awk '{print $1,$2,$6}'; done
finish
