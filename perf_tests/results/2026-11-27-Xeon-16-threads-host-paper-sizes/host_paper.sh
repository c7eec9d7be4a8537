#!/usr/bin/env bash
# The nine stencils at the paper sizes (2-D per-stencil paper sizes, 3-D 2560x288x384), 16 threads (issue 16).
set -u
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/carry:${LD_LIBRARY_PATH:-}
export OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=cores
lscpu > "$OUT/lscpu.txt"; rm -f "$OUT/status.txt"
for isa in ${ISAS:-v4 base}; do
  chmod +x carry/ebisu_bench_host_$isa
  for st in j2d5pt,j2d9pt,j2d9pt-gol,j2d25pt j3d7pt,j3d13pt,j3d17pt,j3d27pt,poisson; do
    tag=$isa-$(echo $st | cut -c1-3)
    timeout ${LIMIT:-260} carry/ebisu_bench_host_$isa --stencils $st --steps 8 --reps 5 --no-spmv \
      --plain-variants openmp-simd-loop,mdrange-default --ebisu-variants automatic,generic \
      --ebisu-strategies automatic --json "$OUT/paper-$tag.json" > "$OUT/paper-$tag.log" 2>&1
    echo "$tag rc=$?" >> "$OUT/status.txt"
  done
done
cat "$OUT/status.txt"
tar -czf "$OUT/all.tar.gz" -C "$OUT" --exclude=all.tar.gz . 2>/dev/null
