#!/usr/bin/env bash
# call 5: issue 12's boundary targets in lean processes (one variant family per process, alternating, two rounds):
# j2d5pt 8352^2 and poisson 2560x288x384, T = 100, fixed frame (DoubleBuffer form) against every side periodic
# and mirror (automatic, DoubleBuffer form). The bench's 2-D / 3-D preset kernels are those of 7393eb4.
source "$(dirname "$0")/common.sh"
cd /tmp/bin
C="--plain-variants mdrange-tile-32x4,mdrange-tile-32x4x1 --no-spmv --steps 100"
for round in 1 2; do
  ./ebisu_bench $C --stencils j2d5pt --size2d 8352 --ebisu-variants double-buffer > $R/j2d5pt-fixed-$round.log 2>&1
  ./ebisu_bench $C --stencils j2d5pt --size2d 8352 --ebisu-variants double-buffer --boundaries periodic,mirror > $R/j2d5pt-bnd-$round.log 2>&1
  ./ebisu_bench $C --stencils poisson --ebisu-variants double-buffer > $R/poisson-fixed-$round.log 2>&1
  ./ebisu_bench $C --stencils poisson --ebisu-variants double-buffer --boundaries periodic,mirror > $R/poisson-bnd-$round.log 2>&1
done
grep -hE "^(j2d5pt|poisson) .*(double-buffer|automatic-periodic|automatic-mirror)" $R/*.log
finish
