#!/usr/bin/env bash
# Session 18: the source term as the linear kernel plus precomputed launch sums (issue 12), H200.
# tests: the Cuda tests of the sums and the field kernels, memcheck of the sums tests;
# bench: j2d5pt / j2d5pt-source (and 3-D when built) with last session's bench (before) and this tree's.
set -u
export WITH3D=1
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name 'libcudart.so.13*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
R=$OUT/res; mkdir -p $R /tmp/bin
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $R/gpu.txt; cat $R/gpu.txt
date -u > $R/date.txt
for f in build-device18/*.xz; do xz -dc $f > /tmp/bin/$(basename $f .xz); done; chmod +x /tmp/bin/*; ls /tmp/bin
if [ -x /tmp/bin/t ]; then
s=$(date +%s); timeout 300 /tmp/bin/t --gtest_filter='cuda.source_sums*:cuda.field_kernels*' > $R/unit.log 2>&1; echo "unit rc $? $(( $(date +%s) - s )) s"
grep -E "^\[  (PASSED|FAILED) |tests? ran|FAILED  \]|OK \]" $R/unit.log | tail -20
s=$(date +%s); timeout 180 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/bin/t --gtest_filter='cuda.source_sums_2d_radius2:cuda.source_sums_3d' > $R/memcheck.log 2>&1
echo "memcheck rc $? $(( $(date +%s) - s )) s"; grep -E "ERROR SUMMARY|tests? ran|PASSED|FAILED" $R/memcheck.log | tail -4
fi
P="--reps 5 --no-spmv --plain-variants mdrange-tile-32x4,mdrange-tile-32x4x1 --ebisu-variants automatic"
run() { local bin=$1 name=$2; shift 2; [ -x /tmp/bin/$bin ] || return 0; s=$(date +%s); timeout 200 /tmp/bin/$bin $P "$@" --json $R/$name.json > $R/$name.log 2>&1; echo "$name rc $? $(( $(date +%s) - s )) s"; }
for round in 1 2; do
  for v in b0 b; do
    tag=$([ $v = b0 ] && echo before || echo after)
    run $v src2d-8352-T100-$tag-$round --stencils j2d5pt --field-cases j2d5pt-source --steps 100
    [ $round = 1 ] && run $v src2d-8352-T1000-$tag --stencils j2d5pt --field-cases j2d5pt-source --steps 1000
    [ $round = 1 ] && for n in 2048 4096 16384; do run $v src2d-$n-T100-$tag --stencils j2d5pt --field-cases j2d5pt-source --steps 100 --size2d $n; done
    [ -n "${WITH3D:-}" ] && run $v src3d-T100-$tag-$round --stencils none --field-cases j3d7pt-source --steps 100 --reps 5
  done
done
for f in $R/*.json; do python3 - "$f" <<'PY'
import json,sys,os
d=json.load(open(sys.argv[1]))
for c in d['cases']:
    row=['%-26s %-14s'%(os.path.basename(sys.argv[1])[:-5],c['stencil'])]
    for v in c['variants']:
        if v['status']!='ok' or 'generic' in v['name']: continue
        p=v.get('parameters',{})
        row.append('%s %.1f (%s d%s%s)'%(v['name'].replace('parallel_stencil:',''),v['gcells_per_s_median'],p.get('strategy',''),p.get('temporal_depth',''),' sums' if 'launch sums' in p.get('plan','') else ''))
    print(' | '.join(row))
PY
done
python3 - $R/src2d-8352-T100-after-1.json <<'PY'
import json,sys
for c in json.load(open(sys.argv[1]))['cases']:
  for v in c['variants']:
    if 'parallel' in v['name']: print(c['stencil'], v['name'], v.get('parameters',{}).get('plan','')[:1500])
PY
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
