#!/usr/bin/env bash
# Host fused multiply-add chains (weighted_sum) and row pointers: 16 Xeon threads, paper sizes.
# HEAD's binary (ebisu_bench_host_state) and the new one (ebisu_bench_chains) in one call.
set -u
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/build-device:${LD_LIBRARY_PATH:-}
export OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=cores
chmod +x build-device/ebisu_bench_*
lscpu > "$OUT/lscpu.txt"
rm -f "$OUT/status.txt"
run() {  # name binary stencil extra...
  local name=$1 bin=$2 st=$3; shift 3
  local t0=$(date +%s)
  timeout 170 build-device/$bin --stencils $st --reps 5 --no-spmv --plain-variants openmp-simd-loop \
    --json "$OUT/$name.json" "$@" > "$OUT/$name.log" 2>&1
  echo "$name rc=$? $(( $(date +%s) - t0 )) s" >> "$OUT/status.txt"
  grep -E "^$st " "$OUT/$name.log" | grep -v skipped | cut -c1-150
}
run new-j3d27pt ebisu_bench_chains j3d27pt --steps 24 --ebisu-variants automatic,generic,double-buffer --ebisu-depths 3,4,6
run head-j3d27pt ebisu_bench_host_state j3d27pt --steps 24 --ebisu-variants automatic,generic
run new-poisson ebisu_bench_chains poisson --steps 24 --ebisu-variants automatic,generic,double-buffer --ebisu-depths 4,6
run new-3d ebisu_bench_chains j3d17pt,j3d13pt,j3d7pt --steps 24 --ebisu-variants automatic,generic
run new-2d ebisu_bench_chains j2d25pt,j2d9pt,j2d5pt --steps 24 --ebisu-variants automatic,generic
cat "$OUT/status.txt"
tar -czf "$OUT/all.tar.gz" -C "$OUT" --exclude=all.tar.gz . 2>/dev/null
