#!/usr/bin/env bash
# One EBISU launch per stencil (T = its temporal depth), the way the
# hand-written reference kernels of the EBISU paper are timed: every 2-D and
# 3-D suite stencil at the paper size, fp64, with the forced depth below (and
# 128 and 256 threads per block for the radius-2 2-D ones), DoubleBuffer form (no copy back), next
# to the plain-Kokkos variants run for the same T in the same process.
#
#   perf_tests/run_single_launch.sh BUILD_DIR_OR_BINARY OUT_DIR [2d|3d|all]
set -euo pipefail
bench=${1:?usage: run_single_launch.sh BUILD_DIR_OR_BINARY OUT_DIR [2d|3d|all]}
out=${2:?usage: run_single_launch.sh BUILD_DIR_OR_BINARY OUT_DIR [2d|3d|all]}
which=${3:-all}
[[ -d $bench ]] && bench=$bench/perf_tests/ebisu_bench
mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
runs2d="j2d5pt:8 j2d9pt:6 j2d9pt-gol:8 j2d25pt:4"  # the depths the model picks on an H200
runs3d="j3d7pt:4 j3d13pt:2 j3d17pt:2 j3d27pt:2 poisson:2"
case $which in 2d) runs=$runs2d ;; 3d) runs=$runs3d ;; *) runs="$runs2d $runs3d" ;; esac
for r in $runs; do
  s=${r%%:*} d=${r#*:}
  extra=(--ebisu-threads 128,256)
  # The 3-D and the radius-1 2-D kernels have a fixed block.
  [[ $s == j3d* || $s == poisson || $s == j2d5pt || $s == j2d9pt-gol ]] && extra=()
  "$bench" --stencils "$s" --steps "$d" --no-spmv --reps 9 --ebisu-depths "$d" "${extra[@]}" \
    --json "$out/single_launch_$s.json" > "$out/single_launch_$s.log" 2>&1 || echo "run_single_launch.sh: $s failed"
  grep -E "best plain|ebisu-d" "$out/single_launch_$s.log" | tail -4
done
