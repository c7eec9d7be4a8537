#!/usr/bin/env bash
# call 1 (session 32): the register-field kernels' row loop unrolled 6 (U2) or 12 (U4) rows instead of 3, so the
# field rows shift less often; against the kept tree (ebisu_bench_head). (a) Cuda field-kernel tests of U2 / U4;
# (b) lean processes alternating, 8352^2 T = 100 three rounds; 2048^2 / 4096^2 / 16384^2 once each and T = 1000;
# (c) ncu of one depth-8 source launch per build; (d) SASS of the depth-8 source kernel's loops.
D=$(cd "$(dirname "$0")" && pwd)
source "$D/common.sh"
cd /tmp/bin
for v in U2 U4; do
  ( time ./ebisu_unit_tests_cuda_$v --gtest_brief=1 --gtest_filter='cuda.field_kernels*' ) > $R/unit-$v.log 2>&1
  echo "unit $v: $(grep -E 'PASSED|FAILED' $R/unit-$v.log | head -3 | tr '\n' ' ')"
done
C="--plain-variants mdrange-tile-32x4 --no-spmv --ebisu-variants double-buffer"
run() { local tag=$1; shift; echo "$(date -u +%T) $tag" >> $R/order.txt; timeout 120 ./"$@" --json $R/$tag.json > $R/$tag.log 2>&1; echo "$tag rc $?"; sleep 8; }
for round in 1 2 3; do
  for b in ebisu_bench_head ebisu_bench_U2 ebisu_bench_U4; do
    run $b-8352-$round $b $C --steps 100 --stencils j2d5pt --field-cases j2d5pt-source --size2d 8352 --ebisu-depths 8
  done
done
for n in 2048 4096 16384; do
  for b in ebisu_bench_head ebisu_bench_U2 ebisu_bench_U4; do
    run $b-$n $b $C --steps 100 --stencils none --field-cases j2d5pt-source --size2d $n
  done
done
for b in ebisu_bench_head ebisu_bench_U2 ebisu_bench_U4; do
  run $b-8352-T1000 $b $C --steps 1000 --stencils none --field-cases j2d5pt-source --size2d 8352
done
for f in $R/*.log; do echo "== $(basename $f)"; grep -hE "^j2d5pt(-source)? +(parallel_stencil:(double-buffer|automatic)|ebisu-d[0-9]|ebisu-sm-d)" $f | awk '{print $1,$2,$6,$10,$11,$12}'; done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M="--metrics sm__inst_executed.sum,smsp__inst_executed.avg.per_cycle_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,launch__registers_per_thread,launch__occupancy_limit_registers"
S="--size2d 8352 --steps 16 --reps 5 --no-spmv --plain-variants mdrange-tile-32x4"
for b in ebisu_bench_head ebisu_bench_U2 ebisu_bench_U4; do
  timeout 150 $NCU --kernel-name-base demangled --kernel-name 'regex:ebisu2d_kernel<.*CentreField.*double, \(int\)8, \(bool\)0, \(bool\)0, \(bool\)1, \(int\)1' --launch-skip 2 --launch-count 1 $M ./$b --stencils none --field-cases j2d5pt-source $S --ebisu-variants generic --ebisu-depths 8 > $R/ncu-$b.txt 2>&1
  echo "ncu $b"; grep -E "duration|inst_executed|wavefronts|registers" $R/ncu-$b.txt | grep -v "==PROF==" | awk '{print $1, $(NF)}'
done
CU=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for b in ebisu_bench_head ebisu_bench_U2 ebisu_bench_U4; do
  $CU -sass -fun $(cat $D/sass_functions.txt) $b > $R/sass-$b.txt 2>&1
done
finish
