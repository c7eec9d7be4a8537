#!/usr/bin/env bash
# Runs the whole stencil suite (1-D, the nine EBISU stencils) at the paper sizes
# in double precision on a CUDA build, writes JSON + PNG and prints the table.
#
#   perf_tests/run_gpu_suite.sh BUILD_DIR_OR_BINARY [OUT_DIR] [-- extra ebisu_bench options]
#
#   BUILD_DIR_OR_BINARY  a CUDA build dir (with perf_tests/ebisu_bench) or the ebisu_bench binary
#   OUT_DIR              default: perf_tests/results/<YYYY-MM-DD>-<gpu>/
#
# Environment: STEPS (default 120: a multiple of every EBISU depth 12/8/6/5/4,
# and >= 20 ms per run even for the fastest variant), REPS (default 5).
# The PNG needs matplotlib (Debian's python3-matplotlib, or the GPU image's
# python3); without it the plot command is printed to run elsewhere.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [[ $# -lt 1 || $1 == -h || $1 == --help ]]; then
  sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 2
fi
bench=$1
shift
[[ -d $bench ]] && bench=$bench/perf_tests/ebisu_bench
[[ -x $bench ]] || { echo "run_gpu_suite.sh: no executable ebisu_bench at $bench" >&2; exit 2; }

gpu=gpu
if command -v nvidia-smi > /dev/null 2>&1; then
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2> /dev/null | head -n 1 | tr -cs 'A-Za-z0-9' '-' | sed 's/-*$//')
  gpu=${gpu:-gpu}
fi
out=$here/results/$(date -u +%F)-$gpu
if [[ $# -gt 0 && $1 != -- ]]; then
  out=$1
  shift
fi
[[ $# -gt 0 && $1 == -- ]] && shift
mkdir -p "$out"

export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
steps=${STEPS:-120}
reps=${REPS:-5}
json=$out/ebisu_bench_double.json

start=$(date +%s)
set +e
"$bench" --precision double --steps "$steps" --reps "$reps" --json "$json" "$@" 2>&1 | tee "$out/ebisu_bench_double.log"
status=${PIPESTATUS[0]}
set -e
echo "run_gpu_suite.sh: ebisu_bench exited $status after $(( $(date +%s) - start )) s; results in $out"

source "$here/matplotlib_python.sh"
plot=("${python:-python3}" "$here/plot_results.py" "$json" --out "$out/ebisu_bench_double.png")
if [[ -f $json && -n $python ]]; then
  "${plot[@]}"
  "$python" "$here/plot_results.py" "$json" --all --log --out "$out/ebisu_bench_double_all.png"
else
  echo "run_gpu_suite.sh: no matplotlib here; plot elsewhere with: ${plot[*]}"
fi
exit "$status"
