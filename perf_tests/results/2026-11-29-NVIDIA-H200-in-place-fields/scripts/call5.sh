#!/usr/bin/env bash
# session 26, call 5: device tiling's model counts a read-only footprint field's loads as the stencil's points
# (was the whole box). Field bench rows, 3-D 48^3-96^3 and 2-D 256^2-2048^2: does automatic now pick the faster
# of in-place / device tiling / SM tiling?
source "$(dirname "$0")/common.sh"
s=$(date +%s)
B=/tmp/bin/ebisu_bench
start_clocks clocks.csv
for nt in 48:2000 64:2000 80:1000 96:1000; do
  n=${nt%%:*}; t=${nt##*:}
  timeout 200 $B --stencils none --field-cases heat3d-var,j3d7pt-source --size3d $n --steps $t --no-spmv \
    --json $R/fields-$n.json > $R/fields-$n.log 2>&1; echo "size $n rc $?"
done
for nt in 256:4000 512:2000 1024:1000 2048:300; do
  n=${nt%%:*}; t=${nt##*:}
  timeout 200 $B --stencils none --field-cases heat2d-var,j2d5pt-source --size2d $n --steps $t --no-spmv \
    --json $R/fields2d-$n.json > $R/fields2d-$n.log 2>&1; echo "size2d $n rc $?"
done
stop_clocks
grep -hE "^(heat3d-var|j3d7pt-source|heat2d-var|j2d5pt-source) .*(best plain|ebisu|automatic)" $R/fields*.log | cut -c1-120
echo "total $(( $(date +%s) - s )) s"
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
