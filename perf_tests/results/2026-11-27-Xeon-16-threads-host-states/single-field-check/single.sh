#!/usr/bin/env bash
# Regression check of the single-field host kernel after the state refactor: paper sizes, T = 24, 16 threads.
set -u
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/build-device:${LD_LIBRARY_PATH:-}
export OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=cores
chmod +x build-device/ebisu_bench_host_state
rm -f "$OUT/status.txt"
for st in j2d5pt j3d7pt poisson; do
  t0=$(date +%s)
  timeout 150 build-device/ebisu_bench_host_state --stencils $st --steps 24 --reps 5 --no-spmv \
    --plain-variants openmp-simd-loop --ebisu-variants automatic,generic,double-buffer \
    --ebisu-strategies automatic --json "$OUT/paper-$st.json" > "$OUT/paper-$st.log" 2>&1
  echo "$st rc=$? $(( $(date +%s) - t0 )) s" >> "$OUT/status.txt"
  grep -E "^$st " "$OUT/paper-$st.log" | grep -v skipped | cut -c1-140
done
cat "$OUT/status.txt"
tar -czf "$OUT/all.tar.gz" -C "$OUT" --exclude=all.tar.gz . 2>/dev/null
