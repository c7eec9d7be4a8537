#!/usr/bin/env bash
# call 7: sizes other than 8352^2 for 7c11a4b's interior pieces (ebisu_bench_final) against 0c46b7d (ebisu_bench):
# j2d5pt and j2d9pt-gol at 2048^2, 4096^2 and 16384^2, fixed frame, automatic (DoubleBuffer), lean processes
# alternating, 10 s apart.
source "$(dirname "$0")/common.sh"
cd /tmp/bin
C="--plain-variants mdrange-tile-32x4 --no-spmv --steps 100 --ebisu-variants double-buffer"
run() { local tag=$1; shift; echo "$(date -u +%T) $tag" >> $R/order.txt; ./"$@" --json $R/$tag.json > $R/$tag.log 2>&1; sleep 10; }
for n in 2048 4096 16384; do
  for b in ebisu_bench ebisu_bench_final; do
    run $b-$n $b $C --stencils j2d5pt,j2d9pt-gol --size2d $n
  done
done
grep -hE "^j2d.* parallel_stencil:double-buffer" $R/*.log | awk '{print $1,$6,$10}'
finish
