#!/usr/bin/env bash
# call 2: (a) Cuda field-kernel tests (the source at forced depths 1-10, fixed / periodic / periodic beside fixed)
# and compute-sanitizer memcheck / racecheck on that test; (b) j2d5pt and j2d5pt-source at forced depths 2, 4, 8
# (this tree, ebisu_bench) and with the depth-8 register kernel bound to three blocks per SM (ebisu_bench_rf3),
# 8352^2 and 4096^2, T = 100, lean processes alternating.
D=$(cd "$(dirname "$0")" && pwd)
source "$D/common.sh"
cd /tmp/bin
( time ./ebisu_unit_tests_cuda --gtest_brief=1 ) > $R/unit.log 2>&1
tail -4 $R/unit.log
C="--plain-variants mdrange-tile-32x4 --no-spmv --steps 100 --ebisu-variants double-buffer"
run() { local tag=$1; shift; echo "$(date -u +%T) $tag" >> $R/order.txt; timeout 120 ./"$@" --json $R/$tag.json > $R/$tag.log 2>&1; echo "$tag rc $?"; sleep 10; }
for round in 1 2; do
  for b in ebisu_bench ebisu_bench_rf3; do
    run $b-8352-$round $b $C --stencils j2d5pt --field-cases j2d5pt-source --size2d 8352 --ebisu-depths 2,4,8
  done
done
for b in ebisu_bench ebisu_bench_rf3; do
  run $b-4096 $b $C --stencils j2d5pt --field-cases j2d5pt-source --size2d 4096 --ebisu-depths 4,8
done
for f in $R/*.log; do echo "== $(basename $f)"; grep -hE "^j2d5pt(-source)? +(parallel_stencil:(double-buffer|automatic)|ebisu-d[0-9]|ebisu-sm-d)" $f | awk '{print $1,$2,$6,$10,$11,$12}'; done
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M="--metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\\.ratio,sm__inst_executed.sum,smsp__inst_executed.avg.per_cycle_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts.sum,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,launch__registers_per_thread,launch__occupancy_limit_registers,l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed,l1tex__lsu_writeback_active.avg.pct_of_peak_sustained_elapsed"
ncu_one() { local tag=$1 re=$2; shift 2; timeout 150 $NCU --kernel-name-base demangled --kernel-name "regex:$re" --launch-skip 2 --launch-count 1 $M "$@" > $R/ncu-$tag.txt 2>&1; echo "ncu $tag rc $?"; }
S="--size2d 8352 --steps 16 --reps 5 --no-spmv --plain-variants mdrange-tile-32x4"
ncu_one j2d5pt-d8 'ebisu2d_kernel<.*double, \(int\)8, \(bool\)0, \(bool\)0, \(bool\)1, \(int\)0' ./ebisu_bench --stencils j2d5pt $S --ebisu-variants generic --ebisu-depths 8
ncu_one source-d8 'ebisu2d_kernel<.*CentreField.*double, \(int\)8, \(bool\)0, \(bool\)0, \(bool\)1, \(int\)1' ./ebisu_bench --stencils none --field-cases j2d5pt-source $S --ebisu-variants generic --ebisu-depths 8
ncu_one source-d8-rf3 'ebisu2d_kernel<.*CentreField.*double, \(int\)8, \(bool\)0, \(bool\)0, \(bool\)1, \(int\)1' ./ebisu_bench_rf3 --stencils none --field-cases j2d5pt-source $S --ebisu-variants generic --ebisu-depths 8
for f in $R/ncu-*.txt; do echo "== $(basename $f)"; grep -E "ebisu2d_kernel|duration|inst_executed|wavefronts|warps_active|registers|occupancy|stalled_(barrier|long|short|mio|lg|wait|math|not_sel|selected|dispatch|no_inst|branch)" $f | grep -v "==PROF==" | awk '{print $1, $(NF)}' | head -40; done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  timeout 150 $CS --tool $tool ./ebisu_unit_tests_cuda --gtest_filter='cuda.field_kernels_star_shaped_functors' > $R/sanitizer-$tool.log 2>&1
  echo "$tool rc $?"; tail -3 $R/sanitizer-$tool.log
done
finish
