#!/usr/bin/env bash
# call 3: the 2-D source kernel with every stage's centre-only field value gathered before the row's first store
# (depths <= 8): the field tests of that tree, then HEAD's bench (bench_h) against it (bench_b) in alternating
# processes, j2d5pt and j2d5pt-source in one process each, 8352^2 (T = 100) and 2048^2 / 4096^2.
source "$(dirname "$0")/common.sh"
cd /tmp/bin
timeout 300 ./ebisu_unit_tests_fields > $R/tests.log 2>&1; echo "tests rc $?" >> $R/tests.log
grep -E "^\[  (PASSED|FAILED) |tests rc" $R/tests.log
C="--plain-variants mdrange-tile-32x4 --ebisu-variants automatic --no-spmv --steps 100 --stencils j2d5pt --field-cases j2d5pt-source"
for round in 1 2; do
  for b in h b; do
    ./bench_$b $C --size2d 8352 --ebisu-depths 4,8,10 --json $R/paper-$b-$round.json > $R/paper-$b-$round.log 2>&1
    echo "== $b round $round"; grep -E "^(j2d5pt)" $R/paper-$b-$round.log | grep -E "automatic|ebisu-"
  done
done
for n in 2048 4096; do
  for b in h b; do
    ./bench_$b $C --size2d $n --ebisu-depths 8 --json $R/n$n-$b.json > $R/n$n-$b.log 2>&1
    echo "== $b $n"; grep -E "^(j2d5pt)" $R/n$n-$b.log | grep -E "automatic|ebisu-"
  done
done
finish
