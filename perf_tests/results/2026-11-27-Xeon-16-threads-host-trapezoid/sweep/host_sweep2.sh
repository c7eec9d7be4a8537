#!/usr/bin/env bash
# 16-thread host size sweep after the trapezoid / cost-based 3-D plan / L3 rule (issue 16).
set -u
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/carry:${LD_LIBRARY_PATH:-}
chmod +x carry/ebisu_bench_host_v4
lscpu > "$OUT/lscpu.txt"; nproc >> "$OUT/lscpu.txt"
export OMP_NUM_THREADS=16 REPS=5
start=$(date +%s)
SIZES_2D="" SIZES_3D="64 128 256 384" WORK=3e8 T_MIN=8 timeout 330 bash perf_tests/run_host_sweep.sh carry/ebisu_bench_host_v4 "$OUT/sweep3d" > "$OUT/run3d.log" 2>&1
echo "3d rc=$? $(( $(date +%s) - start )) s" >> "$OUT/status.txt"
SIZES_2D="1024 4096 8192" SIZES_3D="" WORK=4e8 T_MIN=8 timeout 240 bash perf_tests/run_host_sweep.sh carry/ebisu_bench_host_v4 "$OUT/sweep2d" > "$OUT/run2d.log" 2>&1
echo "2d rc=$? $(( $(date +%s) - start )) s" >> "$OUT/status.txt"
cat "$OUT/status.txt"
grep -h "best plain\|parallel_stencil:automatic" "$OUT"/sweep*/*.log 2>/dev/null | cut -c1-140 | head -80
tar -czf "$OUT/all.tar.gz" -C "$OUT" --exclude=all.tar.gz . 2>/dev/null
