#!/usr/bin/env bash
# Session 18: the bench with untimed warm-up runs before each variant's timed ones (after) against without (before).
set -u
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name 'libcudart.so.13*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
R=$OUT/res; mkdir -p $R /tmp/bin
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $R/gpu.txt; date -u > $R/date.txt
for f in build-device18b/*.xz; do xz -dc $f > /tmp/bin/$(basename $f .xz); done; chmod +x /tmp/bin/*
P="--no-spmv --steps 100 --plain-variants mdrange-tile-32x4"
run() { local name=$1; shift; s=$(date +%s); timeout 120 "$@" --json $R/$name.json > $R/$name.log 2>&1; echo "$name rc $? $(( $(date +%s) - s )) s"; }
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv -lms 20 > $R/clocks-src-d10-before.csv 2>&1 &
smi=$!
run src-d10-before /tmp/bin/b0 $P --reps 5 --stencils none --field-cases j2d5pt-source --ebisu-depths 10
kill $smi 2>/dev/null
run pre-gen-first-before /tmp/bin/b0 $P --reps 5 --stencils j2d5pt --ebisu-variants generic,automatic --ebisu-strategies sm_tiling,automatic
run periodic-before /tmp/bin/b0 $P --reps 5 --stencils j2d5pt,poisson --plain-variants mdrange-tile-32x4,mdrange-tile-32x4x1 --ebisu-variants automatic,double-buffer --boundaries periodic,mirror
run src3d-before /tmp/bin/b0 $P --reps 5 --stencils j3d7pt --field-cases j3d7pt-source --plain-variants mdrange-tile-32x4x1
run src-d10-after /tmp/bin/b $P --reps 5 --stencils none --field-cases j2d5pt-source --ebisu-depths 10
run pre-gen-first-after /tmp/bin/b $P --reps 5 --stencils j2d5pt --ebisu-variants generic,automatic --ebisu-strategies sm_tiling,automatic
run periodic-after /tmp/bin/b $P --reps 5 --stencils j2d5pt,poisson --plain-variants mdrange-tile-32x4,mdrange-tile-32x4x1 --ebisu-variants automatic,double-buffer --boundaries periodic,mirror
run src3d-after /tmp/bin/b $P --reps 5 --stencils j3d7pt --field-cases j3d7pt-source --plain-variants mdrange-tile-32x4x1
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
python3 - $R/clocks-src-d10-before.csv <<'PY'
import sys,collections
rows=[l.strip().split(', ') for l in open(sys.argv[1]) if l[:4].isdigit()]
sm=[int(r[1].split()[0]) for r in rows if len(r)>5 and r[1].split()[0].isdigit()]
pw=[float(r[3].split()[0]) for r in rows if len(r)>5 and r[3].split()[0].replace('.','').isdigit()]
print('clock samples', len(sm), 'SM MHz min/median/max', min(sm), sorted(sm)[len(sm)//2], max(sm), 'power W max', max(pw))
print('throttle reasons', collections.Counter(r[5] for r in rows if len(r)>5).most_common(5))
PY
tar -C $OUT -czf $OUT/res.tgz res
