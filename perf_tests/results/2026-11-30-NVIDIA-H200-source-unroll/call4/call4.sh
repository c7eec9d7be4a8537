#!/usr/bin/env bash
# call 4 (session 32): how much of the source's cost is the lost third block per SM? j2d5pt capped at two blocks
# per SM (EBISU_EXP_MAX_BPS=2 through blocks-per-sm-cap.patch, an experiment not in the tree) against uncapped, the
# same binary (45d4819's kernels), alternating processes, 8352^2 and 4096^2, T = 100.
D=$(cd "$(dirname "$0")" && pwd)
source "$D/common.sh"
cd /tmp/bin
C="--plain-variants mdrange-tile-32x4 --no-spmv --ebisu-variants double-buffer --steps 100"
run() { local tag=$1; shift; echo "$(date -u +%T) $tag" >> $R/order.txt; timeout 120 "$@" --json $R/$tag.json > $R/$tag.log 2>&1; echo "$tag rc $?"; sleep 8; }
for round in 1 2 3; do
  run free-8352-$round ./ebisu_bench_cap $C --stencils j2d5pt --field-cases j2d5pt-source --size2d 8352 --ebisu-depths 8
  run cap2-8352-$round env EBISU_EXP_MAX_BPS=2 ./ebisu_bench_cap $C --stencils j2d5pt --field-cases j2d5pt-source --size2d 8352 --ebisu-depths 8
done
run free-4096 ./ebisu_bench_cap $C --stencils j2d5pt --size2d 4096 --ebisu-depths 8
run cap2-4096 env EBISU_EXP_MAX_BPS=2 ./ebisu_bench_cap $C --stencils j2d5pt --size2d 4096 --ebisu-depths 8
for f in $R/*.log; do echo "== $(basename $f)"; grep -hE "^j2d5pt(-source)? +(parallel_stencil:(double-buffer|automatic)|ebisu-d[0-9]|ebisu-sm-d)" $f | awk '{print $1,$2,$6,$10,$11,$12}'; done
finish
