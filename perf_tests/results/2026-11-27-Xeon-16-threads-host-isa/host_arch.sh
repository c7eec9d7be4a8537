#!/usr/bin/env bash
# The host paths built for three instruction sets (SSE2 baseline, AVX2, AVX-512), 16 threads, same machine.
set -u
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/carry:${LD_LIBRARY_PATH:-}
lscpu > "$OUT/lscpu.txt"
export OMP_NUM_THREADS=16 REPS=5
start=$(date +%s)
for isa in base v3 v4; do
  chmod +x carry/ebisu_bench_host_$isa
  SIZES_2D="4096" SIZES_3D="256" WORK=3e8 T_MIN=8 timeout 170 bash perf_tests/run_host_sweep.sh carry/ebisu_bench_host_$isa "$OUT/$isa" > "$OUT/run-$isa.log" 2>&1
  echo "$isa rc=$? $(( $(date +%s) - start )) s" >> "$OUT/status.txt"
done
tar -czf "$OUT/all.tar.gz" -C "$OUT" --exclude=all.tar.gz . 2>/dev/null
