#!/usr/bin/env bash
# Call 15: the 3-D size sweep with HEAD's bench (b8ed429 code), on the machine of call 14.
set -u
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name 'libcudart.so.13*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
R=$OUT/res; mkdir -p $R /tmp/bin
xz -dc build-device/ebisu_bench_head.xz > /tmp/bin/b; chmod +x /tmp/bin/b
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $R/gpu.txt; cat $R/gpu.txt; date -u > $R/date.txt
SIZES_2D="" SIZES_3D="32 64 128 256 512" timeout 330 perf_tests/run_size_sweep.sh /tmp/bin/b $R/sweep-head > $R/sweep-head.log 2>&1; echo "sweep rc $?"
python3 - "$R/sweep-head" <<'PY'
import json,glob,sys
for f in sorted(glob.glob(sys.argv[1]+'/sweep-3d-N*.json')):
    d=json.load(open(f))
    for c in d['cases']:
        best=max(v['gcells_per_s_median'] for v in c['variants'] if v['family']=='plain-kokkos' and v['status']=='ok')
        for v in c['variants']:
            if v['name']=='parallel_stencil:automatic':
                print(c['stencil'],c['domain_zyx'][0],c['steps'],round(v['gcells_per_s_median'],1),round(v['gcells_per_s_median']/best,2))
PY
tar -C $OUT -czf $OUT/all.tar.gz res && rm -rf $R
