#!/usr/bin/env bash
# call 1: centre-only fields in registers (2-D SM tiling). (a) Cuda field-kernel tests; (b) HEAD's bench
# (ebisu_bench_head) against this tree's (ebisu_bench), lean processes, alternating, 12 s apart, two rounds:
# j2d5pt and j2d5pt-source at 8352^2, T = 100, automatic and forced depths 8 and 10; other sizes once;
# (c) do SHFL and LDS share a pipe (shfl_vs_lds); (d) SASS of the depth-8 source kernel;
# (e) compute-sanitizer on the source tests.
D=$(cd "$(dirname "$0")" && pwd)
source "$D/common.sh"
cd /tmp/bin
( time ./ebisu_unit_tests_cuda --gtest_brief=1 ) > $R/unit.log 2>&1
tail -5 $R/unit.log
./shfl_vs_lds > $R/shfl_vs_lds.csv 2>&1; cat $R/shfl_vs_lds.csv
nvidia-smi --query-gpu=timestamp,power.draw,clocks.sm,temperature.gpu,clocks_throttle_reasons.active --format=csv -lms 500 > $R/smi.csv 2>&1 &
SMI=$!
C="--plain-variants mdrange-tile-32x4 --no-spmv --steps 100 --ebisu-variants double-buffer"
run() { local tag=$1; shift; echo "$(date -u +%T) $tag" >> $R/order.txt; timeout 120 ./"$@" --json $R/$tag.json > $R/$tag.log 2>&1; echo "$tag rc $?"; sleep 12; }
for round in 1 2; do
  for b in ebisu_bench_head ebisu_bench; do
    run $b-8352-$round $b $C --stencils j2d5pt --field-cases j2d5pt-source --size2d 8352 --ebisu-depths 8,10
  done
done
for n in 2048 4096 16384; do
  for b in ebisu_bench_head ebisu_bench; do
    run $b-$n $b $C --stencils j2d5pt --field-cases j2d5pt-source --size2d $n
  done
done
run ebisu_bench-8352-T1000 ebisu_bench $C --stencils j2d5pt --field-cases j2d5pt-source --size2d 8352 --steps 1000
run ebisu_bench_head-8352-T1000 ebisu_bench_head $C --stencils j2d5pt --field-cases j2d5pt-source --size2d 8352 --steps 1000
kill $SMI
grep -hE "^j2d5pt.* (parallel_stencil:double-buffer|ebisu-sm-d|best plain)" $R/*.log | awk '{print $1,$2,$6,$7}' > $R/summary.txt
for f in $R/*-8352-*.log $R/*-[0-9]*[0-9].log; do echo "== $f"; grep -hE "^j2d5pt.* (parallel_stencil:double-buffer|ebisu-sm-d)" $f | awk '{print $1,$2,$6,$10,$11,$12}'; done
if command -v cuobjdump >/dev/null || [ -x /usr/local/cuda/bin/cuobjdump ]; then
  CU=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
  for fn in $(cat $D/sass_functions.txt); do $CU -sass -fun $fn ebisu_bench > $R/sass-$(echo $fn | md5sum | cut -c1-8).txt 2>&1; done
  $CU -sass shfl_vs_lds | grep -E "SHFL|LDS" | sort | uniq -c > $R/shfl_vs_lds.sass.txt 2>&1
fi
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  timeout 120 $CS --tool $tool ./ebisu_unit_tests_cuda --gtest_filter='cuda.field_kernels_star_shaped_functors' > $R/sanitizer-$tool.log 2>&1
  echo "$tool rc $?"; tail -3 $R/sanitizer-$tool.log
done
finish
