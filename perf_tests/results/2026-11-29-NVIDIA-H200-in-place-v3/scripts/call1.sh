#!/usr/bin/env bash
# session 24, call 1: in-place tiling with the column kept in registers and the split grid barrier:
# its Cuda tests (in-place, boundary kernels, presets), then before/after in one process each,
# alternating, at 64^3 / 96^3 / 128^3, in-place forced and automatic.
source "$(dirname "$0")/common.sh"
s=$(date +%s)
timeout 260 /tmp/bin/tIPT > $R/tests.log 2>&1
echo "tests rc $? $(( $(date +%s) - s )) s: $(grep -E '^\[  PASSED|^\[  FAILED  \] [0-9]|tests ran' $R/tests.log | tr '\n' ' ')"
grep -E "^\[  FAILED  \] cuda" $R/tests.log | head -10
start_clocks clocks-cmp.csv
for N in 128 64 96; do
  T=2400; [[ $N == 64 ]] && T=6000; [[ $N == 96 ]] && T=3600
  for rep in 1 2; do
    for b in before after; do
      timeout 60 /tmp/bin/bench_$b --stencils j3d7pt,j3d13pt,j3d17pt,j3d27pt,poisson --size3d $N --steps $T --reps 5 --no-spmv --bw-mb 256 \
        --plain-variants mdrange-coarse4-tile-32x4x1 --ebisu-variants automatic --ebisu-strategies in_place_tiling \
        --json $R/cmp-$b-$N-$rep.json > $R/cmp-$b-$N-$rep.log 2>&1 || echo "bench $b $N rc $?"
    done
  done
done
stop_clocks
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
