#!/usr/bin/env bash
# Call 2 (2026-11-27 session 15): the measured choice for several state fields / time levels.
# Cuda unit tests (presets, measured choice, state: every state case also runs with Selection::measured),
# then wave and Gray-Scott across sizes: generic, automatic, device and SM tiling forced.
set -u
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name 'libcudart.so.13*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
R=$OUT/res; mkdir -p $R /tmp/bin
for b in ebisu_bench ebisu_unit_tests_cuda; do [ -f build-device/$b.xz ] && xz -dc build-device/$b.xz > /tmp/bin/$b && chmod +x /tmp/bin/$b; done
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $R/gpu.txt; cat $R/gpu.txt; date -u > $R/date.txt
s=$(date +%s); timeout 300 /tmp/bin/ebisu_unit_tests_cuda > $R/cuda-tests.log 2>&1; echo "tests rc $? $(( $(date +%s) - s )) s"
grep -E "^\[  (PASSED|FAILED)|FAILED  \]" $R/cuda-tests.log | head -20
P="--stencils none --no-spmv --reps 5"
run() { local name=$1; shift; timeout 120 /tmp/bin/ebisu_bench $P "$@" --json $R/$name.json > $R/$name.log 2>&1; echo "$name rc $?"; }
run s2d-512 --state-cases wave2d,gray-scott2d --size2d 512 --steps 4000
run s2d-1024 --state-cases wave2d,gray-scott2d --size2d 1024 --steps 2000
run s2d-2048 --state-cases wave2d,gray-scott2d --size2d 2048 --steps 400
run s2d-8192 --state-cases wave2d,gray-scott2d --size2d 8192 --steps 100
run s3d-64 --state-cases wave3d,gray-scott3d --size3d 64 --steps 2000
run s3d-128 --state-cases wave3d,gray-scott3d --size3d 128 --steps 500
run s3d-256 --state-cases wave3d,gray-scott3d --size3d 256 --steps 100
run s3d-paper --state-cases wave3d,gray-scott3d --steps 96
for f in $R/s*.json; do python3 - "$f" <<'PY'
import json,sys
d=json.load(open(sys.argv[1]))
for c in d['cases']:
    best=max([v['gcells_per_s_median'] for v in c['variants'] if v['family']=='plain-kokkos' and v['status']=='ok'] or [0])
    row=[c['stencil'], 'x'.join(map(str,c['domain_zyx'])), 'plain %.1f'%best]
    why=''
    for v in c['variants']:
        if v['family']=='plain-kokkos' or v['status']!='ok': continue
        p=v.get('parameters',{})
        row.append('%s %.1f (%s d%s)'%(v['name'].replace('parallel_stencil:',''), v['gcells_per_s_median'], p.get('strategy',''), p.get('temporal_depth','')))
        if v['name']=='parallel_stencil:automatic':
            pl=p.get('plan',''); i=pl.find('measured'); why=pl[i:i+230] if i>=0 else pl[pl.find('predicted'):][:160]
    print(' | '.join(row)); print('    ', why)
PY
done
tar -C $OUT -czf $OUT/all.tar.gz res && rm -rf $R
