#!/usr/bin/env bash
# session 26, call 8: the field cases at the sizes calls 1 and 5 left out (3-D 32^3, 40^3, 512^3; 2-D 4096^2,
# 8192^2): automatic against the best plain loop of the same physics.
source "$(dirname "$0")/common.sh"
s=$(date +%s)
B=/tmp/bin/ebisu_bench
for nt in 32:4000 40:4000 512:20; do
  n=${nt%%:*}; t=${nt##*:}
  timeout 200 $B --stencils none --field-cases heat3d-var,j3d7pt-source --size3d $n --steps $t --no-spmv \
    --json $R/fields-$n.json > $R/fields-$n.log 2>&1; echo "size $n rc $?"
done
for nt in 4096:100 8192:40; do
  n=${nt%%:*}; t=${nt##*:}
  timeout 200 $B --stencils none --field-cases heat2d-var,j2d5pt-source --size2d $n --steps $t --no-spmv \
    --json $R/fields2d-$n.json > $R/fields2d-$n.log 2>&1; echo "size2d $n rc $?"
done
grep -hE "^(heat3d-var|j3d7pt-source|heat2d-var|j2d5pt-source) .*(best plain|automatic)" $R/fields*.log | cut -c1-120
echo "total $(( $(date +%s) - s )) s"
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
