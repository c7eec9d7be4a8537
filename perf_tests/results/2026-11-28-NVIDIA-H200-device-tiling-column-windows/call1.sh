#!/usr/bin/env bash
# Session 16 (issue 10): device tiling with register windows for every column a stencil reads at
# several slow offsets. UNIT=1: Cuda unit tests; SAN=1: compute-sanitizer; VERSIONS: which benches
# (new = this tree, head = HEAD) run the small-size sweep, one after the other in the same call.
# Results in $OUT/res-$TAG.tgz.
set -u
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name 'libcudart.so.13*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
TAG=${TAG:-a}
R=/tmp/res-$TAG; mkdir -p $R /tmp/bin
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $R/gpu.txt; cat $R/gpu.txt
date -u > $R/date.txt
for b in ebisu_bench_new ebisu_bench_head ebisu_unit_tests_cuda; do
  [ -e build-device/$b.xz ] && [ ! -e /tmp/bin/$b ] && { xz -dc build-device/$b.xz > /tmp/bin/$b; chmod +x /tmp/bin/$b; }
done
T=/tmp/bin/ebisu_unit_tests_cuda
if [ -n "${UNIT:-}" ]; then
  s=$(date +%s); timeout ${UNIT_LIMIT:-200} $T > $R/unit.log 2>&1; echo "unit rc $? $(( $(date +%s) - s )) s"
  tail -3 $R/unit.log; grep -E 'FAILED|Failure' $R/unit.log | head -20
fi
if [ -n "${SAN:-}" ]; then
  EBISU_TEST_QUICK=1 timeout 120 compute-sanitizer --tool memcheck $T --gtest_filter='cuda.device_tiling_split*:cuda.boundary_kernels_2d' > $R/memcheck.log 2>&1
  echo "memcheck rc $?"; tail -1 $R/memcheck.log
  EBISU_TEST_QUICK=1 timeout 100 compute-sanitizer --tool racecheck $T --gtest_filter='cuda.device_tiling_split_domains_2d' > $R/racecheck.log 2>&1
  echo "racecheck rc $?"; tail -1 $R/racecheck.log
fi
for v in ${VERSIONS:-new head}; do
  SIZES_2D="${S2:-256 512 1024}" SIZES_3D="${S3:-32 48 64 96 128}" STENCILS_2D="${ST2:-j2d5pt,j2d9pt-gol,j2d25pt}" \
    STENCILS_3D="${ST3:-j3d7pt,j3d17pt,j3d27pt,poisson}" WORK=${WORK:-2e9} REPS=${REPS:-5} \
    timeout ${SWEEP_LIMIT:-180} perf_tests/run_size_sweep.sh /tmp/bin/ebisu_bench_$v $R/sweep-$v > $R/sweep-$v.out 2>&1
  echo "== $v rc $?"; tail -${TAILN:-40} $R/sweep-$v.out | cut -c1-170
done
if [ -n "${EXTRA:-}" ]; then eval "$EXTRA"; fi
tar -C /tmp -czf $OUT/res-$TAG.tgz res-$TAG
