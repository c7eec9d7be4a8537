#!/usr/bin/env bash
# 16-thread host size sweep (issue 16) after the hand-vectorised linear rows: AVX-512 build, results under $OUT.
set -u
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/build-device:${LD_LIBRARY_PATH:-}
chmod +x build-device/ebisu_bench_rows
lscpu > "$OUT/lscpu.txt"; nproc >> "$OUT/lscpu.txt"
export OMP_NUM_THREADS=16 REPS=5
start=$(date +%s)
SIZES_2D="1024 4096 8192" SIZES_3D="" WORK=4e8 T_MIN=8 timeout 260 bash perf_tests/run_host_sweep.sh build-device/ebisu_bench_rows "$OUT/sweep2d" > "$OUT/run2d.log" 2>&1
echo "2d rc=$? $(( $(date +%s) - start )) s" >> "$OUT/status.txt"
SIZES_2D="" SIZES_3D="64 128 256" WORK=3e8 T_MIN=8 timeout 290 bash perf_tests/run_host_sweep.sh build-device/ebisu_bench_rows "$OUT/sweep3d" > "$OUT/run3d.log" 2>&1
echo "3d rc=$? $(( $(date +%s) - start )) s" >> "$OUT/status.txt"
cat "$OUT/status.txt"
for f in "$OUT"/sweep*/sweep_summary.md; do cat "$f"; done
tar -czf "$OUT/all.tar.gz" -C "$OUT" --exclude=all.tar.gz . 2>/dev/null
