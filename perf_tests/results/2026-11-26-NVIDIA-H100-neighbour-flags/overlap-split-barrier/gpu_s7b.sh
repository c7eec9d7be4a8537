#!/usr/bin/env bash
# Session 7b (issue 10): device tiling with the exchange's grid barrier split (arrive / wait) around the
# next round's first step on the cells that read no halo. One binary run twice in the same call:
# "overlap" (default) and "plain" (EBISU_KOKKOS_DEVICE_TILING_NO_OVERLAP=1: grid.sync as in v12).
set -u
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name 'libcudart.so.13*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
R=/tmp/res; mkdir -p $R /tmp/bin
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $R/gpu.txt; cat $R/gpu.txt
date -u > $R/date.txt
for b in ebisu_bench ut_a ut_b; do
  [ -e carry/$b.xz ] && { xz -dc carry/$b.xz > /tmp/bin/$b; chmod +x /tmp/bin/$b; }
done
T=/tmp/bin/ut_a
if [ -n "${UNIT_B:-}" ]; then
  timeout 400 /tmp/bin/ut_b > $R/unit_b.log 2>&1; echo "unit b rc $?"
  tail -3 $R/unit_b.log; grep -E 'FAILED|Failure' $R/unit_b.log | head -20
fi
if [ -n "${UNIT:-}" ]; then
  timeout 300 $T > $R/unit_a.log 2>&1; echo "unit rc $?"
  tail -3 $R/unit_a.log; grep -E 'FAILED|Failure' $R/unit_a.log | head -20
  EBISU_TEST_QUICK=1 timeout 120 compute-sanitizer --tool memcheck $T --gtest_filter='cuda.device_tiling_split*:cuda.device_tiling_neighbour*' > $R/memcheck.log 2>&1
  echo "memcheck rc $?"; tail -1 $R/memcheck.log
  EBISU_TEST_QUICK=1 timeout 120 compute-sanitizer --tool racecheck $T --gtest_filter='cuda.device_tiling_split_domains_2d' > $R/racecheck.log 2>&1
  echo "racecheck rc $?"; tail -1 $R/racecheck.log
  EBISU_TEST_QUICK=1 timeout 100 compute-sanitizer --tool synccheck $T --gtest_filter='cuda.device_tiling_split_domains_2d' > $R/synccheck.log 2>&1
  echo "synccheck rc $?"; tail -1 $R/synccheck.log
  EBISU_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck $T --gtest_filter='cuda.boundary_kernels_2d' > $R/memcheck_boundary.log 2>&1
  echo "memcheck boundary rc $?"; tail -1 $R/memcheck_boundary.log
fi
for v in ${VERSIONS:-overlap plain}; do
  if [ $v = plain ]; then export EBISU_KOKKOS_DEVICE_TILING_NO_OVERLAP=1; else unset EBISU_KOKKOS_DEVICE_TILING_NO_OVERLAP; fi
  SIZES_2D="${S2:-256 384 512 768 1024}" SIZES_3D="${S3:-32 48 64 96}" STENCILS_2D="${ST2:-j2d5pt,j2d9pt,j2d25pt}" \
    STENCILS_3D="${ST3:-j3d7pt,poisson}" WORK=${WORK:-4e9} REPS=${REPS:-5} \
    timeout ${SWEEP_LIMIT:-200} perf_tests/run_size_sweep.sh /tmp/bin/ebisu_bench $R/sweep-$v > $R/sweep-$v.out 2>&1
  echo "== $v rc $?"; tail -${TAILN:-40} $R/sweep-$v.out | cut -c1-160
done
unset EBISU_KOKKOS_DEVICE_TILING_NO_OVERLAP
if [ -n "${STATE:-}" ]; then
  for v in overlap plain; do
    if [ $v = plain ]; then export EBISU_KOKKOS_DEVICE_TILING_NO_OVERLAP=1; else unset EBISU_KOKKOS_DEVICE_TILING_NO_OVERLAP; fi
    timeout 100 /tmp/bin/ebisu_bench --stencils none --state-cases wave2d,gray-scott2d --size2d 512 --steps 1200 --reps 5 \
      --json $R/state-$v.json > $R/state-$v.log 2>&1
    echo "== state $v rc $?"; grep -E "best plain|parallel_stencil" $R/state-$v.log | grep -v median | cut -c1-140
  done
fi
tar -C /tmp -czf $OUT/results.tgz res
