#!/usr/bin/env bash
# Size sweep: GCells/s against domain size, small to large, for the 2-D stencils
# (N^2, N = 256 ... 16384) and the 3-D ones (N^3, N = 32 ... 512), double
# precision, the fast plain-Kokkos variants (per-step and graph-replayed),
# parallel_stencil:automatic and Backend::ebisu with each Strategy forced.
# One ebisu_bench process per (rank, N): OUT_DIR/sweep-<rank>d-N<N>.json / .log;
# then the chart and summary table (perf_tests/plot_size_sweep.py).
#
#   perf_tests/run_size_sweep.sh BUILD_DIR_OR_BINARY OUT_DIR [-- extra ebisu_bench options]
#
# T per size: T = clamp(QUANTUM * round(WORK / (cells * QUANTUM)), T_MIN, T_MAX)
# with cells = N^rank: every run does ~WORK cell updates (>= 10 ms even at
# 1000 GCells/s with the default WORK = 1e10), T is a multiple of every EBISU
# depth (12/8/6/5/4 divide 120), and T_MAX caps the launch-bound small domains
# (20000 steps x 3.4 us per launch = 68 ms per run).
#
# Environment (defaults): SIZES_2D ("256 512 1024 2048 4096 8192 16384"),
# SIZES_3D ("32 64 128 256 512"), STENCILS_2D (j2d5pt,j2d9pt,j2d9pt-gol,j2d25pt),
# STENCILS_3D (j3d7pt,j3d13pt,j3d17pt,j3d27pt,poisson), WORK (1e10), QUANTUM (120),
# T_MIN (120), T_MAX (20000), REPS (5), PRECISION (double),
# PLAIN (fast), STRATEGIES (sm_tiling,device_tiling,in_place_tiling), EBISU (automatic),
# BW_MB (ebisu_bench's default). An empty SIZES_2D / SIZES_3D skips that rank.
# A CPU check of the script on tiny sizes, e.g.:
#   SIZES_2D="48 64" SIZES_3D="16" WORK=2e5 QUANTUM=2 T_MIN=4 T_MAX=8 BW_MB=16 \
#     OMP_NUM_THREADS=2 perf_tests/run_size_sweep.sh build-bench /tmp/sweep
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [[ $# -lt 2 || $1 == -h || $1 == --help ]]; then
  sed -n '2,27p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 2
fi
bench=$1
out=$2
shift 2
[[ $# -gt 0 && $1 == -- ]] && shift
[[ -d $bench ]] && bench=$bench/perf_tests/ebisu_bench
[[ -x $bench ]] || { echo "run_size_sweep.sh: no executable ebisu_bench at $bench" >&2; exit 2; }
mkdir -p "$out"

export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
sizes2d=${SIZES_2D-256 512 1024 2048 4096 8192 16384}
sizes3d=${SIZES_3D-32 64 128 256 512}
stencils2d=${STENCILS_2D:-j2d5pt,j2d9pt,j2d9pt-gol,j2d25pt}
stencils3d=${STENCILS_3D:-j3d7pt,j3d13pt,j3d17pt,j3d27pt,poisson}
work=${WORK:-1e10}
quantum=${QUANTUM:-120}
tmin=${T_MIN:-120}
tmax=${T_MAX:-20000}
reps=${REPS:-5}
precision=${PRECISION:-double}
plain=${PLAIN:-fast}
strategies=${STRATEGIES:-sm_tiling,device_tiling,in_place_tiling}
ebisu=${EBISU:-automatic}
bw=()
[[ -n ${BW_MB:-} ]] && bw=(--bw-mb "$BW_MB")

steps_for() {  # cells -> T
  awk -v c="$1" -v w="$work" -v q="$quantum" -v lo="$tmin" -v hi="$tmax" 'BEGIN {
    t = q * int(w / (c * q) + 0.5); if (t < lo) t = lo; if (t > hi) t = hi; printf "%d", t }'
}

status=0
start=$(date +%s.%N)
summary=()
run_one() {  # rank N stencils
  local rank=$1 n=$2 stencils=$3 cells size_opt t json log s0 s1 rc
  shift 3
  if [[ $rank == 2 ]]; then cells=$((n * n)); size_opt=(--size2d "$n"); else cells=$((n * n * n)); size_opt=(--size3d "$n"); fi
  t=$(steps_for "$cells")
  json=$out/sweep-${rank}d-N$n.json
  log=$out/sweep-${rank}d-N$n.log
  s0=$(date +%s.%N)
  set +e
  "$bench" --stencils "$stencils" "${size_opt[@]}" --steps "$t" --reps "$reps" --precision "$precision" \
    --no-spmv --plain-variants "$plain" --ebisu-variants "$ebisu" --ebisu-strategies "$strategies" \
    --json "$json" "${bw[@]}" "$@" > "$log" 2>&1
  rc=$?
  set -e
  s1=$(date +%s.%N)
  [[ $rc -ne 0 ]] && status=1
  local line
  line=$(awk -v r="$rank" -v n="$n" -v t="$t" -v a="$s0" -v b="$s1" -v e="$start" -v rc="$rc" 'BEGIN {
    printf "%dD N=%-6d T=%-6d %7.1f s  (total %6.1f s)%s", r, n, t, b - a, b - e, rc ? "  EXIT " rc : "" }')
  echo "run_size_sweep.sh: $line"
  summary+=("$line")
  [[ $rc -ne 0 ]] && grep -E "FAILED|error|what\(\)" "$log" | head -5 || true
}

for n in $sizes2d; do run_one 2 "$n" "$stencils2d" "$@"; done
for n in $sizes3d; do run_one 3 "$n" "$stencils3d" "$@"; done

total=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
{
  printf '%s\n' "${summary[@]}"
  echo "total ${total} s"
} > "$out/sweep-times.txt"
echo "run_size_sweep.sh: whole sweep ${total} s; JSON and logs in $out (exit status $status)"

source "$here/matplotlib_python.sh"
plot=("${python:-python3}" "$here/plot_size_sweep.py" "$out" --out "$out/sweep.png")
if [[ -n $python ]]; then
  "${plot[@]}" || status=1
else
  echo "run_size_sweep.sh: no matplotlib here; plot elsewhere with: ${plot[*]}"
fi
exit "$status"
