#!/usr/bin/env bash
# Runs the test suite of a CUDA build on the GPU machine and writes the logs
# to OUT_DIR: the unit tests on Cuda (every preset, functor and bad input, with
# backends automatic, generic and ebisu forced) and Serial, the host tests,
# compute-sanitizer memcheck and racecheck on the small cases, and the main
# example at full size.
#
#   scripts/gpu_tests.sh BIN_DIR OUT_DIR
#
# BIN_DIR holds ebisu_unit_tests_cuda, heat2d and, optionally,
# ebisu_unit_tests_serial and ebisu_host_tests (e.g. copied out of build-cuda);
# a missing optional one is skipped.
set -uo pipefail
bin=${1:?usage: gpu_tests.sh BIN_DIR OUT_DIR}
out=${2:?usage: gpu_tests.sh BIN_DIR OUT_DIR}
mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
failed=0
step() {
  local name=$1
  shift
  local start=$(date +%s)
  "$@" > "$out/$name.log" 2>&1
  local rc=$?
  echo "$name: exit $rc after $(( $(date +%s) - start )) s; $(grep -E '^\[  (PASSED|FAILED)  \]|ERROR SUMMARY|RACECHECK SUMMARY|centre temperature' "$out/$name.log" | tail -2 | tr '\n' ' ')"
  [ $rc -eq 0 ] || failed=1
}

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv > "$out/gpu.txt" 2>&1
cat "$out/gpu.txt"
for t in unit_cuda:ebisu_unit_tests_cuda unit_serial:ebisu_unit_tests_serial unit_host:ebisu_host_tests; do
  if [ -x "$bin/${t#*:}" ]; then step "${t%%:*}" "$bin/${t#*:}"; else echo "${t%%:*}: skipped (no $bin/${t#*:})"; fi
done
# The sanitizers slow kernels down 10-100x: the small cases of one star and
# one box stencil per rank, radius 1 and 2, and a user functor (memcheck);
# racecheck, ~100x slower, takes the exchange modes (2-D row queue: j2d5pt,
# functor; 2-D partial sums: j2d9pt-gol, j2d25pt; 3-D partial sums: poisson)
# unless RACECHECK_FILTER says (set but empty: no racecheck).
dt='cuda.device_tiling_split_domains_2d:cuda.device_tiling_split_domains_3d:cuda.device_tiling_split_domains_functor'
filter='cuda.device_tiling_*:cuda.preset_j2d5pt:cuda.preset_j2d25pt:cuda.preset_j2d9pt_gol:cuda.preset_j3d7pt:cuda.preset_j3d13pt:cuda.preset_poisson:cuda.preset_j3d27pt:cuda.functor_nonlinear_2d:cuda.functor_nonlinear_3d'
race_filter=${RACECHECK_FILTER-$dt:cuda.preset_j2d5pt:cuda.preset_j2d25pt:cuda.preset_j2d9pt_gol:cuda.preset_poisson:cuda.functor_nonlinear_2d}
step memcheck env EBISU_TEST_QUICK=1 timeout 300 compute-sanitizer --tool memcheck --error-exitcode 1 \
  "$bin/ebisu_unit_tests_cuda" --gtest_filter="$filter"
if [ -n "$race_filter" ]; then
  step racecheck env EBISU_TEST_QUICK=1 timeout 400 compute-sanitizer --tool racecheck --error-exitcode 1 \
    "$bin/ebisu_unit_tests_cuda" --gtest_filter="$race_filter"
fi
# synccheck: the device-tiling kernel's block barriers and grid barrier.
step synccheck env EBISU_TEST_QUICK=1 timeout 300 compute-sanitizer --tool synccheck --error-exitcode 1 \
  "$bin/ebisu_unit_tests_cuda" --gtest_filter="$dt"
step heat2d "$bin/heat2d" --size 9600 --steps 20000 --output "$out/heat2d.png"
echo "gpu_tests.sh: $([ $failed = 0 ] && echo all steps passed || echo SOME STEPS FAILED)"
exit $failed
