#!/usr/bin/env bash
# Session 16: issues 12 and 13's targets at their sizes on an H200, this tree's bench (fp64, medians of 5).
set -u
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name 'libcudart.so.13*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
R=/tmp/res-targets; mkdir -p $R /tmp/bin
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $R/gpu.txt; cat $R/gpu.txt
date -u > $R/date.txt
xz -dc build-device/ebisu_bench_new.xz > /tmp/bin/b; chmod +x /tmp/bin/b
P="--reps 5 --no-spmv"
run() { local name=$1; shift; s=$(date +%s); timeout 150 /tmp/bin/b $P "$@" --json $R/$name.json > $R/$name.log 2>&1; echo "$name rc $? $(( $(date +%s) - s )) s"; }
run state3d --stencils none --state-cases wave3d,gray-scott3d --steps 96
run state2d --stencils none --state-cases wave2d,gray-scott2d --size2d 8192 --steps 96
run state1d --stencils j1d3pt --state-cases wave1d --size1d 67108864 --steps 256
run fields2d --stencils j2d5pt --field-cases j2d5pt-source,heat2d-var --steps 100
run fields3d --stencils j3d7pt --field-cases j3d7pt-source,heat3d-var --steps 100
run periodic --stencils j2d5pt,poisson --boundaries periodic --steps 100
for f in $R/*.json; do python3 - "$f" <<'PY'
import json,sys
d=json.load(open(sys.argv[1]))
for c in d['cases']:
    ok=[v for v in c['variants'] if v['status']=='ok']
    best=max([v['gcells_per_s_median'] for v in ok if v['family']=='plain-kokkos'] or [0])
    row=['%-14s %-14s plain %.1f'%(c['stencil'],'x'.join(map(str,c['domain_zyx'])),best)]
    for v in ok:
        if v['family']=='plain-kokkos': continue
        p=v.get('parameters',{})
        row.append('%s %.1f (%.2fx, %s d%s)'%(v['name'].replace('parallel_stencil:',''),v['gcells_per_s_median'],v['gcells_per_s_median']/best if best else 0,p.get('strategy',''),p.get('temporal_depth','')))
    print(' | '.join(row))
PY
done
tar -C /tmp -czf $OUT/res-targets.tgz res-targets
