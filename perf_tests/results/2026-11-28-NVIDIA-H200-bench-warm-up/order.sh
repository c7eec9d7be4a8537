#!/usr/bin/env bash
# Session 18: is the first EBISU row after the generic one slower because of its place in the process?
set -u
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name 'libcudart.so.13*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
R=$OUT/res; mkdir -p $R /tmp/bin
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $R/gpu.txt; date -u > $R/date.txt
xz -dc build-device18b/b0.xz > /tmp/bin/b0; chmod +x /tmp/bin/b0
P="--no-spmv --steps 100 --plain-variants mdrange-tile-32x4"
run() { local name=$1; shift; s=$(date +%s); timeout 120 "$@" --json $R/$name.json > $R/$name.log 2>&1; echo "$name rc $? $(( $(date +%s) - s )) s"; }
run src-d10 /tmp/bin/b0 $P --reps 5 --stencils none --field-cases j2d5pt-source --ebisu-depths 10
run src-d10-reps9 /tmp/bin/b0 $P --reps 9 --stencils none --field-cases j2d5pt-source --ebisu-depths 10
CUDA_MODULE_LOADING=EAGER run src-d10-eager /tmp/bin/b0 $P --reps 5 --stencils none --field-cases j2d5pt-source --ebisu-depths 10
run pre-gen-first /tmp/bin/b0 $P --reps 5 --stencils j2d5pt --ebisu-variants generic,automatic --ebisu-strategies sm_tiling,automatic
run pre-no-gen /tmp/bin/b0 $P --reps 5 --stencils j2d5pt --ebisu-variants automatic --ebisu-strategies sm_tiling,automatic
for f in $R/*.json; do python3 - "$f" <<'PY'
import json,sys,os
d=json.load(open(sys.argv[1]))
for c in d['cases']:
    row=['%-16s %-14s'%(os.path.basename(sys.argv[1])[:-5],c['stencil'])]
    for v in c['variants']:
        if v['status']!='ok': continue
        p=v.get('parameters',{})
        t=v.get('times_s',[])
        row.append('%s %.1f [%s] (d%s)'%(v['name'].replace('parallel_stencil:',''),v['gcells_per_s_median'],' '.join('%.2f'%(x*1e3) for x in t),p.get('temporal_depth','')))
    print('\n   '.join(row))
PY
done
tar -C $OUT -czf $OUT/res.tgz res
