#!/usr/bin/env bash
# call 3 (session 32): half B of the Cuda unit suite (generic graph, measured choice, boundaries, field kernels,
# in-place tiling, custom, state, device tiling) of the tree with the register-field row loop unrolled 2 W rows,
# then compute-sanitizer memcheck / racecheck on the source test (forced depths 1-10, fixed / periodic sides).
D=$(cd "$(dirname "$0")" && pwd)
source "$D/common.sh"
cd /tmp/bin
( time timeout 380 ./ebisu_unit_tests_cuda_B --gtest_brief=1 ) > $R/unit.log 2>&1
echo "unit: $(grep -E 'PASSED|FAILED' $R/unit.log | head -5 | tr '\n' ' ')"
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  timeout 130 $CS --tool $tool ./ebisu_unit_tests_cuda_B --gtest_filter='cuda.field_kernels_star_shaped_functors' > $R/sanitizer-$tool.log 2>&1
  echo "$tool rc $?"; tail -3 $R/sanitizer-$tool.log
done
finish
