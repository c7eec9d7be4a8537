#!/usr/bin/env bash
# A/B of two ebisu_bench binaries on the host paths, in alternating processes:
# round 1 runs A then B, round 2 B then A, and so on. On a shared VM the noise
# between processes is as large as the effects measured (the same hand loop ran
# 2430 and 2944 ms in two processes of one call), so each binary gets both
# orders, and every ratio is taken against the hand loop of its own process.
#
# Usage: perf_tests/run_host_ab.sh A_BIN B_BIN OUT_DIR ROUNDS VARIANTS CASE...
#   A_BIN, B_BIN  ebisu_bench binaries (tagged "new" and "head" in the file names)
#   ROUNDS        rounds of the two processes (e.g. 2)
#   VARIANTS      parallel_stencil variants (e.g. automatic,generic,double-buffer)
#   CASE          NAME:STENCILS:STEPS, e.g. 3d:j3d27pt,poisson:16 (paper sizes)
# Writes OUT_DIR/{new,head}-r<round>-<NAME>.{json,log} and OUT_DIR/status.txt.
# Environment: OMP_NUM_THREADS (default: all cores), TIMEOUT per process (120 s),
# EXTRA further ebisu_bench arguments (e.g. "--size3d 128").
set -u
if [[ $# -lt 6 ]]; then
  sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
a=$1 b=$2 out=$3 rounds=$4 variants=$5
shift 5
mkdir -p "$out"
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)} OMP_PROC_BIND=spread OMP_PLACES=cores
for ((round = 1; round <= rounds; ++round)); do
  order=("$a" "$b")
  ((round % 2 == 0)) && order=("$b" "$a")
  for bin in "${order[@]}"; do
    tag=$([ "$bin" = "$a" ] && echo new || echo head)-r$round
    for c in "$@"; do
      IFS=: read -r name stencils steps <<< "$c"
      t0=$(date +%s)
      timeout "${TIMEOUT:-120}" "$bin" --stencils "$stencils" --steps "$steps" --reps 5 --no-spmv \
        --plain-variants openmp-simd-loop --ebisu-variants "$variants" ${EXTRA:-} \
        --json "$out/$tag-$name.json" > "$out/$tag-$name.log" 2>&1
      echo "$tag-$name rc=$? $(($(date +%s) - t0)) s" >> "$out/status.txt"
      grep -E "^(j|poisson)" "$out/$tag-$name.log" | grep -v skipped | cut -c1-120 | sed "s/^/$tag-$name /"
    done
  done
done
cat "$out/status.txt"
