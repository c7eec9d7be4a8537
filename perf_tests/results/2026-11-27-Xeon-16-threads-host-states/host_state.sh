#!/usr/bin/env bash
# Issue 16 item 4: several state fields / time levels through the host blocked path, 16 threads
# of the GPU machine's Xeon (AVX-512 build, Kokkos 3.4.01 OpenMP); part 1 also runs the CUDA
# state tests (the level pool now shared, its copies through Kokkos::deep_copy).
set -u
part=$1
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/build-device:${LD_LIBRARY_PATH:-}
lscpu > "$OUT/lscpu.txt"; nvidia-smi -L > "$OUT/gpu.txt" 2>&1; rm -f "$OUT/status.txt"
chmod +x build-device/ebisu_bench_host_state
if [ "$part" = 1 ] && [ -f build-device/ebisu_unit_tests_cuda_state ]; then
  chmod +x build-device/ebisu_unit_tests_cuda_state
  start=$(date +%s)
  timeout 200 build-device/ebisu_unit_tests_cuda_state > "$OUT/cuda-state-tests.log" 2>&1
  echo "cuda state tests rc=$? $(( $(date +%s) - start )) s" >> "$OUT/status.txt"
  tail -n 3 "$OUT/cuda-state-tests.log"
fi
export OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=cores
run() {  # name, time limit, then ebisu_bench options
  local name=$1 limit=$2; shift 2
  local t0=$(date +%s)
  timeout $limit build-device/ebisu_bench_host_state --stencils none --no-spmv --reps 5 "$@" \
    --json "$OUT/$name.json" > "$OUT/$name.log" 2>&1
  echo "$name rc=$? $(( $(date +%s) - t0 )) s" >> "$OUT/status.txt"
  grep -E "^(wave|gray)" "$OUT/$name.log" | grep -v skipped | cut -c1-150
}
if [ "$part" = 1 ] || [ "$part" = all ]; then
  run paper-2d 150 --state-cases wave2d,gray-scott2d --steps 24 --plain-variants openmp-simd-loop,mdrange-default,range-interior
  run paper-2d-T25 60 --state-cases wave2d --steps 25 --plain-variants openmp-simd-loop
  run paper-1d 120 --state-cases wave1d,gray-scott1d --steps 32
  run sweep-2d-1024 60 --state-cases wave2d,gray-scott2d --size2d 1024 --steps 400
  run sweep-2d-4096 80 --state-cases wave2d,gray-scott2d --size2d 4096 --steps 48
fi
if [ "$part" = 2 ] || [ "$part" = all ]; then
  run paper-3d 280 --state-cases wave3d,gray-scott3d --steps 16 --plain-variants openmp-simd-loop,mdrange-default
  run sweep-3d-128 60 --state-cases wave3d,gray-scott3d --size3d 128 --steps 96
  run sweep-3d-256 80 --state-cases wave3d,gray-scott3d --size3d 256 --steps 24 --plain-variants openmp-simd-loop,mdrange-default
fi
cat "$OUT/status.txt"
tar -czf "$OUT/all.tar.gz" -C "$OUT" --exclude=all.tar.gz . 2>/dev/null
