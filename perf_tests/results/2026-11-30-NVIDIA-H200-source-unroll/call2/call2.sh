#!/usr/bin/env bash
# call 2 (session 32): (a) half A of the Cuda unit suite (fields, presets, boundary kernels, bad input, blocked
# boundaries, large domains, 2-D traits, 1-D segments) of the tree with the register-field row loop unrolled 2 W rows;
# (b) lean processes alternating, HEAD's 2-D kernels (ebisu_bench_rf4, 2026-11-30 call 3) against this tree's
# (ebisu_bench_U2): 8352^2 T = 100 three rounds with j2d5pt in the same process, 4096^2, 2048^2 and 16384^2 once;
# (the 64 MiB carry limit splits the suite in two binaries; half B and the sanitizers run in call 3).
D=$(cd "$(dirname "$0")" && pwd)
source "$D/common.sh"
cd /tmp/bin
( time timeout 300 ./ebisu_unit_tests_cuda_A --gtest_brief=1 ) > $R/unit.log 2>&1
echo "unit: $(grep -E 'PASSED|FAILED' $R/unit.log | head -5 | tr '\n' ' ')"
C="--plain-variants mdrange-tile-32x4 --no-spmv --ebisu-variants double-buffer --steps 100"
run() { local tag=$1; shift; echo "$(date -u +%T) $tag" >> $R/order.txt; timeout 120 ./"$@" --json $R/$tag.json > $R/$tag.log 2>&1; echo "$tag rc $?"; sleep 8; }
for round in 1 2 3; do
  for b in ebisu_bench_rf4 ebisu_bench_U2; do
    run $b-8352-$round $b $C --stencils j2d5pt --field-cases j2d5pt-source --size2d 8352 --ebisu-depths 8
  done
done
for round in 1; do
  for n in 4096 2048 16384; do
    for b in ebisu_bench_rf4 ebisu_bench_U2; do
      run $b-$n-$round $b $C --stencils j2d5pt --field-cases j2d5pt-source --size2d $n
    done
  done
done
for f in $R/*.log; do echo "== $(basename $f)"; grep -hE "^j2d5pt(-source)? +(parallel_stencil:(double-buffer|automatic)|ebisu-d[0-9]|ebisu-sm-d)" $f | awk '{print $1,$2,$6,$10,$11,$12}'; done
finish
