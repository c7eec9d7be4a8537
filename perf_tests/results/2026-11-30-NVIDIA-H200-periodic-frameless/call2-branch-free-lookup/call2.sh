#!/usr/bin/env bash
# call 2: issue 12's periodic target. HEAD's kernels (ebisu_bench_head) against the branch-free row lookup
# (ebisu_bench: StreamedAxis::source without branches, no y_inside / z_inside), lean processes, alternating,
# 15 s apart, two rounds; GPU power, clock and temperature logged every 200 ms (smi.csv).
source "$(dirname "$0")/common.sh"
cd /tmp/bin
nvidia-smi --query-gpu=timestamp,power.draw,power.limit,clocks.sm,temperature.gpu,clocks_throttle_reasons.active --format=csv -lms 200 > $R/smi.csv 2>&1 &
SMI=$!
C="--plain-variants mdrange-tile-32x4,mdrange-tile-32x4x1 --no-spmv --steps 100"
run() { local tag=$1; shift; echo "$(date -u +%T) $tag" >> $R/order.txt; ./"$@" --json $R/$tag.json > $R/$tag.log 2>&1; sleep 15; }
for round in 1 2; do
  for b in ebisu_bench_head ebisu_bench; do
    run $b-j2d5pt-fixed-$round $b $C --stencils j2d5pt --size2d 8352 --ebisu-variants double-buffer
    run $b-j2d5pt-periodic-$round $b $C --stencils j2d5pt --size2d 8352 --ebisu-variants double-buffer --boundaries periodic,mirror
    run $b-poisson-periodic-$round $b $C --stencils poisson --ebisu-variants double-buffer --boundaries periodic
  done
done
for b in ebisu_bench_head ebisu_bench; do
  run $b-j2d5pt-depths $b $C --stencils j2d5pt --size2d 8352 --ebisu-variants double-buffer --boundaries periodic --ebisu-strategies sm_tiling --ebisu-depths 8,10
done
kill $SMI
grep -hE "^(j2d5pt|poisson) .*(double-buffer|automatic-periodic|automatic-mirror|ebisu-sm-d)" $R/*.log | awk '{print $1,$2,$6,$9,$10,$11}'
for n in $(cat $OLDPWD/build-dev30/sass_names2.txt); do
  /usr/local/cuda/bin/cuobjdump -sass -fun "$n" ./ebisu_bench > $R/sass-$(echo $n | md5sum | cut -c1-8).txt 2>&1 || true
done
finish
