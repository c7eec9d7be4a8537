#!/usr/bin/env bash
# The sweep points below 0.97x (all on the generic path, which this change does not touch), again,
# HEAD's binary and the new one in alternating processes on the same VM instance.
set -u
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/build-device:${LD_LIBRARY_PATH:-}
export OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=cores
chmod +x build-device/ebisu_bench_*
common="--reps 5 --no-spmv --plain-variants mdrange-default,mdrange-tile-row,range-interior,openmp-simd-loop --ebisu-variants automatic,generic"
run() {  # tag bin args...
  local tag=$1 bin=$2; shift 2
  timeout 60 build-device/$bin "$@" $common --json "$OUT/$tag.json" > "$OUT/$tag.log" 2>&1
  echo "$tag rc=$?" >> "$OUT/status.txt"
  grep -E "^(j|poisson)" "$OUT/$tag.log" | grep -E "automatic|generic|simd-loop" | cut -c1-110 | sed "s/^/$tag /"
}
for round in 1 2; do
  for bin in ebisu_bench_rows ebisu_bench_chains; do
    tag=$([ $bin = ebisu_bench_rows ] && echo new || echo head)-r$round
    run $tag-j2d5pt $bin --stencils j2d5pt --size2d 1024 --steps 384
    run $tag-j3d7pt $bin --stencils j3d7pt --size3d 128 --steps 144
    run $tag-j3d13pt $bin --stencils j3d13pt --size3d 256 --steps 16
  done
done
cat "$OUT/status.txt"
tar -czf "$OUT/all.tar.gz" -C "$OUT" --exclude=all.tar.gz . 2>/dev/null
