#!/usr/bin/env bash
# Call 14: Cuda field tests of the final tree (3-D SM tiling with forced depths and remainders), then the
# 3-D size sweep (32^3 .. 512^3, all five 3-D stencils) with this tree's bench (call 15: HEAD's, same machine).
set -u
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name 'libcudart.so.13*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
R=$OUT/res; mkdir -p $R /tmp/bin
xz -dc build-device/ebisu_bench_new.xz > /tmp/bin/b; chmod +x /tmp/bin/b
xz -dc build-device/ebisu_unit_tests_cuda_fields.xz > /tmp/bin/t; chmod +x /tmp/bin/t
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $R/gpu.txt; cat $R/gpu.txt; date -u > $R/date.txt
timeout 200 /tmp/bin/t > $R/unit_cuda_fields.log 2>&1; echo "tests rc $?"
grep -E "^\[  (PASSED|FAILED) |tests ran|FAILED" $R/unit_cuda_fields.log | head
SIZES_2D="" SIZES_3D="32 64 128 256 512" timeout 330 perf_tests/run_size_sweep.sh /tmp/bin/b $R/sweep-new > $R/sweep-new.log 2>&1; echo "sweep rc $?"
python3 - "$R/sweep-new" <<'PY'
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
