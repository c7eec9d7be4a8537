#!/usr/bin/env bash
# Call 12: the 3-D launch split (an even count where it costs less than the copy back). HEAD's bench and the new one alternating, two rounds: 3-D paper size at T = 100,
# T = 101 and single launches (T = 4, 3).
set -u
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name 'libcudart.so.13*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
R=$OUT/res; mkdir -p $R /tmp/bin
for b in head new; do xz -dc build-device/ebisu_bench_$b.xz > /tmp/bin/$b; chmod +x /tmp/bin/$b; done
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $R/gpu.txt; cat $R/gpu.txt; date -u > $R/date.txt
P="--plain-variants mdrange-tile-32x4x1 --no-spmv"
for round in 1 2; do
  for b in new head; do
    timeout 120 /tmp/bin/$b --stencils j3d7pt,j3d13pt,j3d17pt,j3d27pt,poisson --steps 100 --reps 5 $P --ebisu-variants automatic,double-buffer --json $R/t100-$b-$round.json > $R/t100-$b-$round.log 2>&1; echo "t100 $b $round rc $?"
    timeout 60 /tmp/bin/$b --stencils j3d13pt,j3d27pt --steps 101 --reps 5 $P --ebisu-variants automatic --json $R/t101-$b-$round.json > $R/t101-$b-$round.log 2>&1; echo "t101 $b $round rc $?"
    for T in 4 3; do
      timeout 60 /tmp/bin/$b --stencils j3d7pt,poisson --steps $T --reps 9 $P --ebisu-variants automatic --json $R/t$T-$b-$round.json > $R/t$T-$b-$round.log 2>&1; echo "t$T $b $round rc $?"
    done
  done
done
for f in $R/t*-*.json; do python3 - "$f" <<'PY'
import json,sys
d=json.load(open(sys.argv[1]))
for c in d['cases']:
    for v in c['variants']:
        if v['family']!='plain-kokkos' and v['status']=='ok' and 'generic' not in v['name']:
            pl=v.get('parameters',{}).get('plan','')
            i=pl.find('; launches ')
            print(sys.argv[1].split('/')[-1], c['stencil'], v['name'], round(v['gcells_per_s_median'],1), v.get('parameters',{}).get('launches',''), pl[i:i+40] if i>=0 else '')
PY
done
tar -C $OUT -czf $OUT/all.tar.gz res && rm -rf $R
