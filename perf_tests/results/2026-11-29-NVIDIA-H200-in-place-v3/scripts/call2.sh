#!/usr/bin/env bash
# session 24, call 2: which half of the change costs at 64^3: EBISU_KOKKOS_IN_PLACE_VARIANT (experiment build)
# 0 = column kept + split barrier, 1 = column kept + old barrier order, 2 = column re-read + split, 3 = both old;
# the committed code's bench (before) beside them; in-place forced, one process each, alternating.
source "$(dirname "$0")/common.sh"
start_clocks clocks-variants.csv
for N in 64 128 48; do
  T=2400; [[ $N == 64 ]] && T=6000; [[ $N == 48 ]] && T=12000
  for rep in 1 2; do
    for v in 0 1 2 3 before; do
      b=after; [[ $v == before ]] && b=before
      EBISU_KOKKOS_IN_PLACE_VARIANT=$v timeout 60 /tmp/bin/bench_$b --stencils j3d7pt,poisson,j3d27pt --size3d $N --steps $T --reps 5 --no-spmv --bw-mb 256 \
        --plain-variants mdrange-coarse4-tile-32x4x1 --ebisu-variants generic --ebisu-strategies in_place_tiling \
        --json $R/var-$v-$N-$rep.json > $R/var-$v-$N-$rep.log 2>&1 || echo "bench $v $N rc $?"
    done
  done
done
stop_clocks
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
