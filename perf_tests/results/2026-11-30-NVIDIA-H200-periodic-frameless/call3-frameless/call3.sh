#!/usr/bin/env bash
# call 3: (a) the Cuda unit tests of the boundary and field kernels (test_boundary_kernels, test_field_kernels,
# test_fields) with the frameless mapped 2-D kernel; (b) issue 12's periodic target: HEAD's kernels
# (ebisu_bench_head) against the frameless mapped kernel (ebisu_bench), lean processes, alternating, 15 s apart,
# two rounds, T = 100 and T = 1000; GPU power / clock / temperature every 200 ms (smi.csv).
source "$(dirname "$0")/common.sh"
cd /tmp/bin
( time ./ebisu_unit_tests_cuda --gtest_brief=1 ) > $R/unit.log 2>&1
tail -5 $R/unit.log
nvidia-smi --query-gpu=timestamp,power.draw,power.limit,clocks.sm,temperature.gpu,clocks_throttle_reasons.active --format=csv -lms 200 > $R/smi.csv 2>&1 &
SMI=$!
C="--plain-variants mdrange-tile-32x4 --no-spmv --stencils j2d5pt --size2d 8352"
run() { local tag=$1; shift; echo "$(date -u +%T) $tag" >> $R/order.txt; ./"$@" --json $R/$tag.json > $R/$tag.log 2>&1; sleep 12; }
for round in 1 2; do
  for b in ebisu_bench_head ebisu_bench; do
    run $b-fixed-T100-$round $b $C --steps 100 --ebisu-variants double-buffer
    run $b-bnd-T100-$round $b $C --steps 100 --ebisu-variants double-buffer --boundaries periodic,mirror
  done
done
for b in ebisu_bench_head ebisu_bench; do
  run $b-fixed-T1000 $b $C --steps 1000 --ebisu-variants double-buffer
  run $b-periodic-T1000 $b $C --steps 1000 --ebisu-variants double-buffer --boundaries periodic
done
run ebisu_bench-depths ebisu_bench $C --steps 100 --ebisu-variants double-buffer --boundaries periodic --ebisu-strategies sm_tiling --ebisu-depths 8,10
kill $SMI
grep -hE "^j2d5pt .*(double-buffer|automatic-periodic|automatic-mirror|ebisu-sm-d)" $R/*.log | awk '{print $2,$6,$10,$11}'
for n in $(cat $OLDPWD/build-dev30/sass_names3.txt); do
  /usr/local/cuda/bin/cuobjdump -sass -fun "$n" ./ebisu_bench > $R/sass-$(echo $n | md5sum | cut -c1-8).txt 2>&1 || true
done
finish
