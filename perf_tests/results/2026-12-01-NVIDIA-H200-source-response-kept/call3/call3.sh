#!/usr/bin/env bash
# call 3 (session 35): the claim's interval fix (a kept response takes the kept schedule's interval). tests: the
# Cuda field-kernel tests, memcheck of the kept test. What the fields' hash costs: nsys on one 8352^2 T = 100
# j2d5pt-source run (kernel times of EbisuKokkos::hash_fields against the launches). bench: 3-D j3d7pt /
# j3d7pt-source at 2560x288x384 T = 100 / 300, 512^3 and 256^3 T = 100; 2-D 8352^2 T = 100 again.
D=$(cd "$(dirname "$0")" && pwd)
source "$D/common.sh"
cd /tmp/bin
( time timeout 240 ./ebisu_unit_tests_fields --gtest_brief=1 --gtest_filter='cuda.field_kernels_source*' ) > $R/unit.log 2>&1
echo "unit: $(grep -E 'PASSED|FAILED|tests ran' $R/unit.log | head -5 | tr '\n' ' ')"
C2="--plain-variants mdrange-tile-32x4 --no-spmv --ebisu-variants double-buffer,automatic"
C3="--plain-variants mdrange-tile-32x4x1,mdrange-tile-32x4x2 --no-spmv --ebisu-variants double-buffer,automatic"
run() { local tag=$1; shift; echo "$(date -u +%T) $tag" >> $R/order.txt; timeout 200 ./"$@" --json $R/$tag.json > $R/$tag.log 2>&1; echo "$tag rc $?"; sleep 2; }
NSYS=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
echo "nsys: $NSYS"
if [ -n "$NSYS" ]; then
  timeout 150 $NSYS profile -o $R/hash -t cuda ./ebisu_bench --plain-variants mdrange-tile-32x4 --no-spmv --ebisu-variants automatic --steps 100 --size2d 8352 --stencils j2d5pt --field-cases j2d5pt-source > $R/nsys.log 2>&1
  timeout 100 $NSYS stats -r cuda_gpu_kern_sum $R/hash.nsys-rep > $R/nsys-kern.txt 2>&1
  rm -f $R/hash.nsys-rep $R/hash.sqlite
  grep -iE "hash|Time \(%\)" $R/nsys-kern.txt | cut -c1-220 | head -5
fi
run 3d-T100 ebisu_bench $C3 --steps 100 --stencils j3d7pt --field-cases j3d7pt-source
run 3d-T300 ebisu_bench $C3 --steps 300 --stencils j3d7pt --field-cases j3d7pt-source
run 3d-512-T100 ebisu_bench $C3 --steps 100 --size3d 512 --stencils j3d7pt --field-cases j3d7pt-source
run 3d-256-T100 ebisu_bench $C3 --steps 100 --size3d 256 --stencils j3d7pt --field-cases j3d7pt-source
run 2d-8352-T100 ebisu_bench $C2 --steps 100 --size2d 8352 --stencils j2d5pt --field-cases j2d5pt-source
for f in $R/*.log; do echo "== $(basename $f)"; grep -hE "^j[23]d[57]pt(-source)? +(mdrange|parallel_stencil:(double-buffer|automatic)|ebisu-sm)" $f | awk '{print $1,$2,$6,$10,$11,$12}'; done
finish
