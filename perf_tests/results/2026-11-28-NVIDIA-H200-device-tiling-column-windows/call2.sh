#!/usr/bin/env bash
# Session 16 (issue 10): device tiling forced at each depth, this tree's bench (new: register windows
# for every column read at several slow offsets) and HEAD's (head), one process per (stencil, size).
set -u
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name 'libcudart.so.13*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
R=/tmp/res-depths; mkdir -p $R /tmp/bin
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $R/gpu.txt; cat $R/gpu.txt
date -u > $R/date.txt
for b in ebisu_bench_new ebisu_bench_head; do
  [ -e build-device/$b.xz ] && [ ! -e /tmp/bin/$b ] && { xz -dc build-device/$b.xz > /tmp/bin/$b; chmod +x /tmp/bin/$b; }
done
D=${DEPTHS:-2,3,4,5,6,8,10,12}
for v in new head; do
  for c in ${CASES:-j2d25pt:2:256:4800 j2d25pt:2:512:2400 j2d25pt:2:1024:960 j2d9pt-gol:2:512:2400 j2d9pt-gol:2:1024:960 \
           poisson:3:32:4800 poisson:3:48:2400 poisson:3:96:480 j3d17pt:3:32:4800 j3d17pt:3:96:480 j3d27pt:3:32:4800 j3d27pt:3:96:480}; do
    IFS=: read -r st rank n t <<< "$c"
    f=$R/$v-$st-$n
    timeout 60 /tmp/bin/ebisu_bench_$v --stencils $st --size${rank}d $n --steps $t --reps 3 --no-spmv \
      --plain-variants $( ((rank == 2)) && echo mdrange-tile-32x4 || echo mdrange-tile-32x4x1) --ebisu-variants automatic \
      --ebisu-strategies device_tiling --ebisu-depths $D --json $f.json > $f.log 2>&1 || echo "$v $st $n rc $?"
    python3 - "$f.json" "$v" <<'PY'
import json,sys
d=json.load(open(sys.argv[1]))
for c in d['cases']:
    row={v['name']:v for v in c['variants'] if v['status']=='ok'}
    a=row.get('parallel_stencil:automatic',{}); pa=a.get('parameters',{})
    dev=' '.join('d%s %.1f'%(k.split('-d')[-1],v['gcells_per_s_median']) for k,v in row.items() if k.startswith('ebisu-device-d'))
    print('%-4s %-10s %-12s auto %.1f (%s d%s) | device %s'%(sys.argv[2],c['stencil'],'x'.join(map(str,c['domain_zyx'])),a.get('gcells_per_s_median',0),pa.get('strategy',''),pa.get('temporal_depth',''),dev))
PY
  done
done
tar -C /tmp -czf $OUT/res-depths.tgz res-depths
