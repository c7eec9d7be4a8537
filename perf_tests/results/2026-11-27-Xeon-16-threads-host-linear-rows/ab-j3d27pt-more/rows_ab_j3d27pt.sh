#!/usr/bin/env bash
# A/B of HEAD's binary and the new one (hand-vectorised linear rows), alternating processes, 16 threads:
# the VM's process-to-process noise (hand loop 2430 vs 2944 ms in one call) needs both orders.
set -u
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/build-device:${LD_LIBRARY_PATH:-}
export OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=cores
chmod +x build-device/ebisu_bench_*
rm -f "$OUT/status.txt"
run() {  # name binary stencils steps
  local name=$1 bin=$2 st=$3 steps=$4
  local t0=$(date +%s)
  timeout 120 build-device/$bin --stencils $st --steps $steps --reps 5 --no-spmv --plain-variants openmp-simd-loop \
    --ebisu-variants automatic,double-buffer --json "$OUT/$name.json" > "$OUT/$name.log" 2>&1
  echo "$name rc=$? $(( $(date +%s) - t0 )) s" >> "$OUT/status.txt"
  grep -E "^(j|poisson)" "$OUT/$name.log" | grep -v skipped | cut -c1-120 | sed "s/^/$name /"
}
for round in 3 4; do
  for bin in ebisu_bench_rows ebisu_bench_chains; do
    [ $round = 4 ] && bin=$([ $bin = ebisu_bench_rows ] && echo ebisu_bench_chains || echo ebisu_bench_rows)
    tag=$([ $bin = ebisu_bench_rows ] && echo new || echo head)
    run $tag-r$round-3d $bin j3d27pt 16
  done
done
cat "$OUT/status.txt"
tar -czf "$OUT/all.tar.gz" -C "$OUT" --exclude=all.tar.gz . 2>/dev/null
