#!/usr/bin/env bash
# Issue 16 after the trapezoid and the cost-based 3-D plan: 2-D paper sizes, T = 24, 16 threads.
set -u
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/carry:${LD_LIBRARY_PATH:-}
export OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=cores
lscpu > "$OUT/lscpu.txt"; rm -f "$OUT/status.txt"
chmod +x carry/ebisu_bench_host_v4
for st in j2d9pt j2d9pt-gol j2d25pt; do
  start=$(date +%s)
  timeout ${LIMIT:-150} carry/ebisu_bench_host_v4 --stencils $st --steps 24 --reps 5 --no-spmv \
    --plain-variants openmp-simd-loop --ebisu-variants automatic,generic,double-buffer \
    --ebisu-strategies automatic --json "$OUT/paper-$st.json" > "$OUT/paper-$st.log" 2>&1
  echo "$st rc=$? $(( $(date +%s) - start )) s" >> "$OUT/status.txt"
  grep -E "^$st " "$OUT/paper-$st.log" | grep -v skipped | cut -c1-150
done
cat "$OUT/status.txt"
tar -czf "$OUT/all.tar.gz" -C "$OUT" --exclude=all.tar.gz . 2>/dev/null
