#!/usr/bin/env bash
# A/B: plane passes (ebisu_bench_passes) against HEAD (ebisu_bench_chains), alternating processes, 16 threads.
set -u
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/build-device:${LD_LIBRARY_PATH:-}
export OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=cores
chmod +x build-device/ebisu_bench_*
rm -f "$OUT/status.txt"
n=0
for bin in ebisu_bench_passes ebisu_bench_chains ebisu_bench_chains ebisu_bench_passes; do
  n=$((n + 1)); tag=$([ $bin = ebisu_bench_passes ] && echo passes || echo head)-p$n
  t0=$(date +%s)
  timeout 95 build-device/$bin --stencils j3d27pt,poisson,j2d25pt --steps 12 --reps 5 --no-spmv \
    --plain-variants openmp-simd-loop --ebisu-variants automatic,double-buffer --json "$OUT/$tag.json" > "$OUT/$tag.log" 2>&1
  echo "$tag rc=$? $(( $(date +%s) - t0 )) s" >> "$OUT/status.txt"
  grep -E "^(j|poisson)" "$OUT/$tag.log" | grep -v skipped | cut -c1-112 | sed "s/^/$tag /"
done
cat "$OUT/status.txt"
tar -czf "$OUT/all.tar.gz" -C "$OUT" --exclude=all.tar.gz . 2>/dev/null
