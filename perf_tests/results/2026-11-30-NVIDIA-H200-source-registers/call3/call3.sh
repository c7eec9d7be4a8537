#!/usr/bin/env bash
# call 3: the source's sum started from f (no separate add) and the depth-8 register kernel split into interior
# pieces without the frame's selects (ebisu_bench_rf4) against call 1/2's register kernel (ebisu_bench):
# (a) Cuda field-kernel tests of this tree; (b) lean processes alternating, 8352^2 T = 100 two rounds, then
# 2048^2 / 4096^2 / 16384^2 and j3d7pt(-source) 2560x288x384 once each; (c) ncu of the depth-8 source kernel;
# (d) SASS of its row loop; (e) compute-sanitizer on the source test.
D=$(cd "$(dirname "$0")" && pwd)
source "$D/common.sh"
cd /tmp/bin
( time ./ebisu_unit_tests_cuda --gtest_brief=1 ) > $R/unit.log 2>&1
tail -4 $R/unit.log
C="--plain-variants mdrange-tile-32x4 --no-spmv --steps 100 --ebisu-variants double-buffer"
run() { local tag=$1; shift; echo "$(date -u +%T) $tag" >> $R/order.txt; timeout 120 ./"$@" --json $R/$tag.json > $R/$tag.log 2>&1; echo "$tag rc $?"; sleep 10; }
for round in 1 2; do
  for b in ebisu_bench ebisu_bench_rf4; do
    run $b-8352-$round $b $C --stencils j2d5pt --field-cases j2d5pt-source --size2d 8352 --ebisu-depths 8
  done
done
for n in 2048 4096 16384; do
  run ebisu_bench_rf4-$n ebisu_bench_rf4 $C --stencils j2d5pt --field-cases j2d5pt-source --size2d $n
done
for b in ebisu_bench ebisu_bench_rf4; do
  run $b-3d $b $C --stencils j3d7pt --field-cases j3d7pt-source
done
for f in $R/*.log; do echo "== $(basename $f)"; grep -hE "^j[23]d[57]pt(-source)? +(parallel_stencil:(double-buffer|automatic)|ebisu-d[0-9]|ebisu-sm-d)" $f | awk '{print $1,$2,$6,$10,$11,$12}'; done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M="--metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\\.ratio,sm__inst_executed.sum,smsp__inst_executed.avg.per_cycle_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts.sum,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,launch__registers_per_thread,launch__occupancy_limit_registers,l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed"
S="--size2d 8352 --steps 16 --reps 5 --no-spmv --plain-variants mdrange-tile-32x4"
timeout 150 $NCU --kernel-name-base demangled --kernel-name 'regex:ebisu2d_kernel<.*CentreField.*double, \(int\)8, \(bool\)0, \(bool\)0, \(bool\)1, \(int\)1' --launch-skip 2 --launch-count 1 $M ./ebisu_bench_rf4 --stencils none --field-cases j2d5pt-source $S --ebisu-variants generic --ebisu-depths 8 > $R/ncu-source-d8.txt 2>&1
grep -E "duration|inst_executed|wavefronts|warps_active|registers|stalled_(long|short|mio|wait|not_sel|barrier)" $R/ncu-source-d8.txt | grep -v "==PROF==" | awk '{print $1, $(NF)}'
CU=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
$CU -sass -fun $(cat $D/sass_functions.txt) ebisu_bench_rf4 > $R/sass-source-depth8-fixed-layoutleft.txt 2>&1
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  timeout 150 $CS --tool $tool ./ebisu_unit_tests_cuda --gtest_filter='cuda.field_kernels_star_shaped_functors' > $R/sanitizer-$tool.log 2>&1
  echo "$tool rc $?"; tail -3 $R/sanitizer-$tool.log
done
finish
