#!/usr/bin/env bash
# Call 13: Cuda preset and state tests of the 3-D launch split; single launches at T = 4 (automatic
# against two launches of depth 2 and one of depth 4, both DoubleBuffer).
set -u
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name 'libcudart.so.13*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
R=$OUT/res; mkdir -p $R /tmp/bin
xz -dc build-device/ebisu_bench_new.xz > /tmp/bin/b; chmod +x /tmp/bin/b
xz -dc build-device/ebisu_unit_tests_cuda_split.xz > /tmp/bin/t; chmod +x /tmp/bin/t
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $R/gpu.txt; cat $R/gpu.txt; date -u > $R/date.txt
timeout 300 /tmp/bin/t > $R/unit_cuda_presets_state.log 2>&1; echo "tests rc $?"
grep -E "^\[  (PASSED|FAILED) |tests ran|FAILED" $R/unit_cuda_presets_state.log | head
P="--plain-variants mdrange-tile-32x4x1 --no-spmv"
for T in 4 8; do
  timeout 60 /tmp/bin/b --stencils j3d7pt --steps $T --reps 9 $P --ebisu-variants automatic,double-buffer --ebisu-depths 2,4 --json $R/t$T.json > $R/t$T.log 2>&1; echo "t$T rc $?"
done
for f in $R/t*.json; do python3 - "$f" <<'PY'
import json,sys
d=json.load(open(sys.argv[1]))
for c in d['cases']:
    for v in c['variants']:
        if v['family']!='plain-kokkos' and v['status']=='ok':
            pl=v.get('parameters',{}).get('plan','')
            i=pl.find('; launches ')
            print(sys.argv[1].split('/')[-1], c['stencil'], v['name'], round(v['gcells_per_s_median'],1), v.get('parameters',{}).get('launches',''), pl[i:i+40] if i>=0 else '')
PY
done
tar -C $OUT -czf $OUT/all.tar.gz res && rm -rf $R
