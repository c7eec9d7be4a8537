#!/usr/bin/env bash
# call 5: the final tree (interior pieces at depth 8 only; the frameless partial-sum kernel back to its 1-block
# bound at depth 10): (a) Cuda unit tests of test_boundary_kernels (with boundary_kernels_interior_pieces);
# (b) 0c46b7d (ebisu_bench) against it (ebisu_bench_final), lean processes, alternating, 12 s apart, two rounds:
# j2d5pt 8352^2 and j2d9pt-gol, fixed frame and periodic.
source "$(dirname "$0")/common.sh"
cd /tmp/bin
( time ./ebisu_unit_tests_cuda --gtest_brief=1 ) > $R/unit.log 2>&1
tail -4 $R/unit.log
nvidia-smi --query-gpu=timestamp,power.draw,clocks.sm,temperature.gpu,clocks_throttle_reasons.active --format=csv -lms 200 > $R/smi.csv 2>&1 &
SMI=$!
C="--plain-variants mdrange-tile-32x4 --no-spmv --steps 100"
run() { local tag=$1; shift; echo "$(date -u +%T) $tag" >> $R/order.txt; ./"$@" --json $R/$tag.json > $R/$tag.log 2>&1; sleep 12; }
for round in 1 2; do
  for b in ebisu_bench ebisu_bench_final; do
    run $b-j2d5pt-$round $b $C --stencils j2d5pt --size2d 8352 --ebisu-variants double-buffer --boundaries periodic
    run $b-gol-$round $b $C --stencils j2d9pt-gol --ebisu-variants double-buffer --boundaries periodic
  done
done
run ebisu_bench_final-gol-depths ebisu_bench_final $C --stencils j2d9pt-gol --ebisu-variants double-buffer --boundaries periodic --ebisu-strategies sm_tiling --ebisu-depths 8,10
kill $SMI
grep -hE "^j2d.* (parallel_stencil:double-buffer|automatic-periodic|ebisu-sm-d)" $R/*.log | awk '{print $1,$2,$6,$10,$11}'
finish
