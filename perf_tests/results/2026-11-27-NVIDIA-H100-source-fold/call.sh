#!/usr/bin/env bash
# Call 10: the source folded into each launch's last step. Cuda field tests; then the bench's source cases
# with the fold and without it (EBISU_KOKKOS_NO_SOURCE_FOLD=1), same binary, alternating, two rounds.
set -u
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name 'libcudart.so.13*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
R=$OUT/res; mkdir -p $R /tmp/bin
xz -dc build-device/ebisu_bench_fold.xz > /tmp/bin/b; chmod +x /tmp/bin/b
xz -dc build-device/ebisu_unit_tests_cuda_fold.xz > /tmp/bin/t; chmod +x /tmp/bin/t
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $R/gpu.txt; cat $R/gpu.txt; date -u > $R/date.txt
timeout 200 /tmp/bin/t --gtest_filter='*field_kernels*:*fields_linear_with_source*' > $R/unit_cuda_fields.log 2>&1; echo "tests rc $?"
grep -E "^\[  (PASSED|FAILED) |FAILED|tests ran" $R/unit_cuda_fields.log | head -20
for round in 1 2; do
  for mode in fold nofold; do
    if [ $mode = nofold ]; then export EBISU_KOKKOS_NO_SOURCE_FOLD=1; else unset EBISU_KOKKOS_NO_SOURCE_FOLD; fi
    timeout 100 /tmp/bin/b --stencils j2d5pt --field-cases j2d5pt-source --ebisu-depths 8,10 --steps 100 --reps 5 --plain-variants fast --json $R/source2d-$mode-$round.json > $R/source2d-$mode-$round.log 2>&1; echo "source2d $mode $round rc $?"
    timeout 100 /tmp/bin/b --stencils j3d7pt --field-cases j3d7pt-source --ebisu-depths 3,4 --steps 100 --reps 5 --plain-variants fast --json $R/source3d-$mode-$round.json > $R/source3d-$mode-$round.log 2>&1; echo "source3d $mode $round rc $?"
  done
done
unset EBISU_KOKKOS_NO_SOURCE_FOLD
for f in $R/source*-*.json; do python3 - "$f" <<'PY'
import json,sys
d=json.load(open(sys.argv[1]))
for c in d['cases']:
    for v in c['variants']:
        if v['family']!='plain-kokkos' and v['status']=='ok':
            pl=v.get('parameters',{}).get('plan','')
            i=pl.find('source ')
            print(sys.argv[1].split('/')[-1], c['stencil'], v['name'], round(v['gcells_per_s_median'],1), v.get('parameters',{}).get('launches',''), pl[i:i+90] if i>=0 else '')
PY
done
tar -C $OUT -czf $OUT/all.tar.gz res && rm -rf $R
