#!/usr/bin/env bash
# Session 6 (issue 10): device tiling's overlapped tail only on runs of >= 2 groups; this tree's bench
# ("new") against HEAD's ("head") on a small-size sweep; ncu of the 3-D device-tiling kernel (where a
# step's time goes); wave3d at the paper size (issue 13). Everything lands in $OUT/results.tgz.
set -u
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name 'libcudart.so.13*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
R=/tmp/res; mkdir -p $R /tmp/bin
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $R/gpu.txt; cat $R/gpu.txt
date -u > $R/date.txt
for b in ebisu_bench_new ebisu_bench_head ebisu_unit_tests_cuda; do
  if [ -e carry/$b.xz ]; then xz -dc carry/$b.xz > /tmp/bin/$b; chmod +x /tmp/bin/$b; elif [ -e carry/$b.gz ]; then gunzip -c carry/$b.gz > /tmp/bin/$b; chmod +x /tmp/bin/$b; fi
done
T=/tmp/bin/ebisu_unit_tests_cuda
if [ -n "${UNIT:-}" ]; then
  timeout 400 $T > $R/unit.log 2>&1; echo "unit rc $?"
  tail -3 $R/unit.log; grep -E 'FAILED|Failure' $R/unit.log | head -20
  EBISU_TEST_QUICK=1 timeout 150 compute-sanitizer --tool memcheck $T --gtest_filter='cuda.device_tiling_split*' > $R/memcheck.log 2>&1
  echo "memcheck rc $?"; tail -1 $R/memcheck.log
  EBISU_TEST_QUICK=1 timeout 150 compute-sanitizer --tool racecheck $T --gtest_filter='cuda.device_tiling_split_domains_2d' > $R/racecheck.log 2>&1
  echo "racecheck rc $?"; tail -1 $R/racecheck.log
  EBISU_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck $T --gtest_filter='cuda.boundary_kernels_2d' > $R/memcheck_boundary.log 2>&1
  echo "memcheck boundary rc $?"; tail -1 $R/memcheck_boundary.log
fi
for v in ${VERSIONS:-new head}; do
  SIZES_2D="${S2:-256 384 512 768 1024}" SIZES_3D="${S3:-32 48 64 96}" STENCILS_2D="${ST2:-j2d5pt,j2d9pt,j2d25pt}" \
    STENCILS_3D="${ST3:-j3d7pt,poisson}" WORK=${WORK:-4e9} REPS=${REPS:-5} \
    timeout ${SWEEP_LIMIT:-240} perf_tests/run_size_sweep.sh /tmp/bin/ebisu_bench_$v $R/sweep-$v > $R/sweep-$v.out 2>&1
  echo "== $v rc $?"; tail -${TAILN:-40} $R/sweep-$v.out | cut -c1-160
done
if [ -n "${STATE:-}" ]; then
  for v in new head; do
    timeout 100 /tmp/bin/ebisu_bench_$v --stencils none --state-cases wave2d,gray-scott2d --size2d 512 --steps 1200 --reps 5 \
      --json $R/state-$v.json > $R/state-$v.log 2>&1
    echo "== state $v rc $?"; grep -E "best plain|parallel_stencil" $R/state-$v.log | grep -v median | cut -c1-140
  done
fi
if [ -n "${NCU:-}" ]; then
  for c in ${NCU_CASES:-j3d7pt:3:64 j2d5pt:2:256}; do
    IFS=: read -r st rank n <<< "$c"
    f=$R/ncu-$st-$n
    timeout 200 ncu --kernel-name regex:device_tiling_kernel --launch-skip 1 --launch-count 1 \
      --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
      --section SchedulerStats --section SourceCounters --section MemoryWorkloadAnalysis \
      --import-source no -f -o $f /tmp/bin/ebisu_bench_new --stencils $st --size${rank}d $n --steps 240 --reps 5 --no-spmv \
      --plain-variants $( ((rank == 2)) && echo mdrange-tile-32x4 || echo mdrange-tile-32x4x1) --ebisu-variants generic --ebisu-strategies device_tiling > $f.run.log 2>&1
    echo "ncu $st $n rc $?"; tail -3 $f.run.log
    ncu --import $f.ncu-rep --page details > $f.details.txt 2>&1
    ncu --import $f.ncu-rep --page source --print-source sass --csv > $f.sass.csv 2>&1
    echo "details $(wc -l < $f.details.txt) lines, sass $(wc -l < $f.sass.csv) lines"
    grep -E "Duration|Registers|Achieved Occupancy|Issue Slots Busy|Eligible Warps|Warp Cycles Per Issued|No Eligible|Block Size|Grid Size" $f.details.txt | head -20
  done
fi
if [ -n "${WAVE3D:-}" ]; then
  timeout 120 /tmp/bin/ebisu_bench_new --stencils none --no-spmv --state-cases wave3d --steps 100 --reps 5 \
    --json $R/wave3d.json > $R/wave3d.log 2>&1
  echo "== wave3d rc $?"; grep -E "best plain|parallel_stencil|ebisu" $R/wave3d.log | grep -v median | cut -c1-150 | head
fi
tar -C /tmp -czf $OUT/results.tgz res
