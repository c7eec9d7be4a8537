#!/usr/bin/env bash
# call 1: periodic j2d5pt (issue 12) -- HEAD's bench against P1 (the mapped radius-1 linear kernel compiled for
# three blocks per SM at depth 10, as the fixed-frame one), lean processes, alternating, two rounds; then the SASS
# of the fixed and mapped depth-8/10 kernels of HEAD's binary.
source "$(dirname "$0")/common.sh"
cd /tmp/bin
C="--plain-variants mdrange-tile-32x4 --no-spmv --steps 100 --stencils j2d5pt --size2d 8352"
for round in 1 2; do
  for b in ebisu_bench ebisu_bench_p1; do
    ./$b $C --ebisu-variants double-buffer --json $R/$b-fixed-$round.json > $R/$b-fixed-$round.log 2>&1
    ./$b $C --ebisu-variants double-buffer --boundaries periodic --ebisu-strategies sm_tiling --ebisu-depths 8,10 \
      --json $R/$b-periodic-$round.json > $R/$b-periodic-$round.log 2>&1
  done
done
grep -hE "^j2d5pt .*(double-buffer|periodic)" $R/*.log
CO=/usr/local/cuda/bin/cuobjdump
for n in $(cat $OLDPWD/build-dev30/sass_names.txt); do
  $CO -sass -fun "$n" ./ebisu_bench > $R/sass-$(echo $n | md5sum | cut -c1-8).txt 2>&1 || true
done
ls -la $R | head -40
finish
