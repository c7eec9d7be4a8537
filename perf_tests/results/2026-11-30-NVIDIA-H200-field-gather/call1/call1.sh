#!/usr/bin/env bash
# call 1: the 2-D source and variable-heat kernels gathered and unrolled: tests, then the paper-size
# comparison with j2d5pt in the same process (two rounds), and 2048^2 / 4096^2.
source "$(dirname "$0")/common.sh"
cd /tmp/bin
timeout 400 ./ebisu_unit_tests_cuda > $R/tests.log 2>&1; echo "tests rc $?" >> $R/tests.log
tail -3 $R/tests.log
B="./ebisu_bench --plain-variants mdrange-tile-32x4 --ebisu-variants automatic --no-spmv --steps 100"
for round in 1 2; do
  $B --stencils j2d5pt --field-cases j2d5pt-source,heat2d-var --size2d 8352 --ebisu-depths 8,10 \
     --json $R/paper-$round.json > $R/paper-$round.log 2>&1
  grep -E "^(j2d5pt|heat2d)" $R/paper-$round.log | grep -E "automatic|ebisu-d" 
done
for n in 2048 4096; do
  $B --stencils j2d5pt --field-cases j2d5pt-source,heat2d-var --size2d $n --json $R/n$n.json > $R/n$n.log 2>&1
  grep -E "^(j2d5pt|heat2d)" $R/n$n.log | grep -E "automatic"
done
finish
