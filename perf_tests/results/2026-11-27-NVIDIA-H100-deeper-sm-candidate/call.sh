#!/usr/bin/env bash
# Call 1 (2026-11-27 session 15): the deeper SM-tiling candidate of automatic's measured choice.
# Cuda unit tests (presets, measured choice, state), then the paper sizes with automatic, the
# model-only choice and forced depths, then the full size sweep.
set -u
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name 'libcudart.so.13*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
R=$OUT/res; mkdir -p $R /tmp/bin
for b in ebisu_bench ebisu_unit_tests_cuda; do [ -f build-device/$b.xz ] && xz -dc build-device/$b.xz > /tmp/bin/$b && chmod +x /tmp/bin/$b; done
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $R/gpu.txt; cat $R/gpu.txt; date -u > $R/date.txt
if [ "${TESTS:-1}" = 1 ]; then
  s=$(date +%s); timeout 300 /tmp/bin/ebisu_unit_tests_cuda > $R/cuda-tests.log 2>&1; echo "tests rc $? $(( $(date +%s) - s )) s"
  grep -E "^\[  (PASSED|FAILED)|FAILED  \]" $R/cuda-tests.log | head -20
fi
if [ "${PAPER:-1}" = 1 ]; then
  P2="--plain-variants mdrange-tile-32x4 --no-spmv"; P3="--plain-variants mdrange-tile-32x4x1 --no-spmv"
  V="--ebisu-variants automatic,automatic-model,double-buffer"
  timeout 150 /tmp/bin/ebisu_bench --stencils j2d5pt,j2d9pt,j2d9pt-gol,j2d25pt --steps 100 --reps 5 $P2 $V --ebisu-depths 4,6,8,10 --field-cases j2d5pt-source,heat2d-var --json $R/paper-2d.json > $R/paper-2d.log 2>&1; echo "paper-2d rc $?"
  timeout 150 /tmp/bin/ebisu_bench --stencils j3d7pt,j3d13pt,j3d17pt,j3d27pt,poisson --steps 100 --reps 5 $P3 $V --ebisu-depths 1,2,3,4 --field-cases j3d7pt-source,heat3d-var --json $R/paper-3d.json > $R/paper-3d.log 2>&1; echo "paper-3d rc $?"
  for f in $R/paper-*.json; do python3 - "$f" <<'PY'
import json,sys
d=json.load(open(sys.argv[1]))
for c in d['cases']:
    best=max([v['gcells_per_s_median'] for v in c['variants'] if v['family']=='plain-kokkos' and v['status']=='ok'] or [0])
    for v in c['variants']:
        if v['status']!='ok': continue
        if v['family']=='plain-kokkos' and v['gcells_per_s_median']<best: continue
        pl=v.get('parameters',{}).get('plan','')
        i=pl.find('measured over')
        print(c['stencil'], c.get('size',''), v['name'], round(v['gcells_per_s_median'],1), v.get('parameters',{}).get('temporal_depth',''), pl[i:i+170] if i>=0 else '')
PY
  done
fi
if [ "${SWEEP:-1}" = 1 ]; then
  EBISU=automatic,automatic-model timeout 420 perf_tests/run_size_sweep.sh /tmp/bin/ebisu_bench $R/sweep > $R/sweep-run.log 2>&1
  echo "sweep rc $?"; grep -v "^run_size_sweep.sh: [23]D" $R/sweep-run.log | cut -c1-230 | tail -60
fi
tar -C $OUT -czf $OUT/all.tar.gz res && rm -rf $R
