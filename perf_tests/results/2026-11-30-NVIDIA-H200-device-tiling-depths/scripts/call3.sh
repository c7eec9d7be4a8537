#!/bin/bash
# call 3: the shallower device-tiling candidates for several state fields / time levels: Cuda tests
# (state, measured choice, device tiling), then wave and Gray-Scott at the device-tiling sizes
source "$(dirname "$0")/common.sh"
s=$(date +%s); timeout 420 /tmp/bin/cuda_sub2 --gtest_filter='cuda.state*:cuda.measured_choice*:cuda.device_tiling*' > $R/tests.log 2>&1
echo "tests rc $? $(( $(date +%s) - s )) s"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $R/tests.log | head -20
# Halo loads in flight per thread (kLoadsInFlight 8 in HEAD = H; K12, K16): device tiling forced, model's depth
for round in 1 2; do
  for v in H K12 K16; do
    # (round 1 checks K12 and K16 against the generic path first)
    if [ $round = 1 ] && [ $v != H ]; then chk=(); else chk=(AB_NOCHECK=1); fi
    env "${chk[@]}" /tmp/bin/ab_$v 256 384 512 768 1024 > $R/ab_${v}_r$round.log 2>&1
    grep "RESULT\|WRONG" $R/ab_${v}_r$round.log | sed -E "s/RESULT (\S+ \S+) d[0-9]+ (\S+) .*/$v r$round \1 \2/"
  done
done
grep -h CHECK $R/ab_K*_r1.log | grep -c " ok"; grep -h CHECK $R/ab_K*_r1.log | grep -v " ok" | head
P="--stencils none --no-spmv --reps 5"
run() { local name=$1; shift; timeout 120 /tmp/bin/ebisu_bench $P "$@" --json $R/$name.json > $R/$name.log 2>&1; echo "$name rc $?"; }
run s2d-256 --state-cases wave2d,gray-scott2d --size2d 256 --steps 8000
run s2d-512 --state-cases wave2d,gray-scott2d --size2d 512 --steps 4000
run s2d-768 --state-cases wave2d,gray-scott2d --size2d 768 --steps 3000
run s2d-1024 --state-cases wave2d,gray-scott2d --size2d 1024 --steps 2000
run s3d-32 --state-cases wave3d,gray-scott3d --size3d 32 --steps 4000
run s3d-48 --state-cases wave3d,gray-scott3d --size3d 48 --steps 3000
run s3d-64 --state-cases wave3d,gray-scott3d --size3d 64 --steps 2000
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
            pl=p.get('plan',''); i=pl.find('measured'); why=pl[i:i+300] if i>=0 else pl[pl.find('predicted'):][:160]
    print(' | '.join(row)); print('    ', why)
PY
done > $R/summary.txt
cat $R/summary.txt
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
