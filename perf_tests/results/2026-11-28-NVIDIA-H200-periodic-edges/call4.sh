#!/usr/bin/env bash
# Session 17: periodic / mirror SM tiling after the per-piece load fixes (issue 12), H200.
# Cuda unit tests that reach the mapped kernels, memcheck of the boundary kernels, and the bench's
# periodic / mirror rows against the fixed frame, HEAD's bench (before) and this tree's (after) in one call.
set -u
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name 'libcudart.so.13*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
R=$OUT/res; mkdir -p $R /tmp/bin
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $R/gpu.txt; cat $R/gpu.txt
date -u > $R/date.txt
PART=${1:-tests}  # tests (unit tests, memcheck) or bench: the binaries of both exceed one call's carry
if [ "$PART" = tests ]; then
xz -dc build-device/tests_s17.xz > /tmp/bin/t; chmod +x /tmp/bin/t
s=$(date +%s); timeout 420 /tmp/bin/t > $R/unit.log 2>&1; echo "unit rc $? $(( $(date +%s) - s )) s"
grep -E "^\[  (PASSED|FAILED) |tests? ran|FAILED  \]" $R/unit.log | tail -8
s=$(date +%s); EBISU_TEST_QUICK=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/bin/t --gtest_filter='cuda.boundary_kernels_2d:cuda.boundary_kernels_3d:cuda.field_kernels_sm_tiling*' > $R/memcheck.log 2>&1
echo "memcheck rc $? $(( $(date +%s) - s )) s"; grep -E "ERROR SUMMARY|tests? ran|PASSED|FAILED" $R/memcheck.log | tail -4
tar -C $OUT -czf $OUT/tests.tgz res && rm -rf $R
exit 0
fi
xz -dc build-device/bench_s17.xz > /tmp/bin/b; xz -dc build-device/ebisu_bench_new.xz > /tmp/bin/b0; chmod +x /tmp/bin/*
P="--reps 5 --no-spmv --steps 100"
run() { local bin=$1 name=$2; shift 2; s=$(date +%s); timeout 150 /tmp/bin/$bin $P "$@" --json $R/$name.json > $R/$name.log 2>&1; echo "$name rc $? $(( $(date +%s) - s )) s"; }
for round in 1 2; do
  for v in b0 b; do
    tag=$([ $v = b0 ] && echo head || echo new)
    run $v j2d5pt-$tag-$round --stencils j2d5pt --plain-variants mdrange-tile-32x4 --ebisu-variants double-buffer --boundaries periodic,mirror
    run $v poisson-$tag-$round --stencils poisson --plain-variants mdrange-tile-32x4x1 --ebisu-variants double-buffer --boundaries periodic,mirror
    run $v j3d7pt-$tag-$round --stencils j3d7pt --plain-variants mdrange-tile-32x4x1 --ebisu-variants double-buffer --boundaries periodic
  done
done
for f in $R/*.json; do python3 - "$f" <<'PY'
import json,sys,os
d=json.load(open(sys.argv[1]))
for c in d['cases']:
    row=['%-22s %-9s'%(os.path.basename(sys.argv[1])[:-5],c['stencil'])]
    for v in c['variants']:
        if v['status']!='ok' or v['family']=='plain-kokkos' or 'generic' in v['name']: continue
        p=v.get('parameters',{})
        row.append('%s %.1f (%s d%s)'%(v['name'].replace('parallel_stencil:',''),v['gcells_per_s_median'],p.get('strategy',''),p.get('temporal_depth','')))
    print(' | '.join(row))
PY
done
tar -C $OUT -czf $OUT/bench.tgz res && rm -rf $R
