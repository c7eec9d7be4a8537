#!/usr/bin/env bash
# call 4: (a) the fixed frame's interior pieces without the frame's selects (ebisu_bench_split: a second copy of
# the row loop at depths 8 and 10) against 0c46b7d (ebisu_bench), j2d5pt 8352^2 and j2d9pt-gol at its paper size,
# lean processes, alternating, 12 s apart, two rounds; (b) 0c46b7d's periodic j2d9pt-gol (its frameless depth-10
# partial-sum kernel spills 40-72 B at the three-block bound).
source "$(dirname "$0")/common.sh"
cd /tmp/bin
nvidia-smi --query-gpu=timestamp,power.draw,clocks.sm,temperature.gpu,clocks_throttle_reasons.active --format=csv -lms 200 > $R/smi.csv 2>&1 &
SMI=$!
C="--plain-variants mdrange-tile-32x4 --no-spmv --steps 100"
run() { local tag=$1; shift; echo "$(date -u +%T) $tag" >> $R/order.txt; ./"$@" --json $R/$tag.json > $R/$tag.log 2>&1; sleep 12; }
for round in 1 2; do
  for b in ebisu_bench ebisu_bench_split; do
    run $b-j2d5pt-$round $b $C --stencils j2d5pt --size2d 8352 --ebisu-variants double-buffer --ebisu-depths 8,10
    run $b-gol-$round $b $C --stencils j2d9pt-gol --ebisu-variants double-buffer --ebisu-depths 8,10
  done
done
run ebisu_bench-gol-periodic ebisu_bench $C --stencils j2d9pt-gol --ebisu-variants double-buffer --boundaries periodic --ebisu-strategies sm_tiling --ebisu-depths 8,10
kill $SMI
grep -hE "^j2d.* (parallel_stencil:double-buffer|ebisu-d8|ebisu-d10|automatic-periodic|ebisu-sm-d)" $R/*.log | awk '{print $1,$2,$6,$10,$11}'
finish
