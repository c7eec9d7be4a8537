#!/usr/bin/env bash
# 2026-11-29, call G: 92abc6a's Cuda unit tests of the 2-D kernels (presets, functors, 2-D traits: tA2,
# rebuilt from 92abc6a), memcheck and racecheck of j2d5pt, j2d9pt (radius 2, now the general path) and
# the 2-D functor.
source "$(dirname "$0")/common.sh"
s=$(date +%s); timeout 200 /tmp/bin/tA2 > $R/unit-tA2.log 2>&1; echo "unit tA2 rc $? $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $R/unit-tA2.log | tail -6
f='cuda.preset_j2d5pt:cuda.preset_j2d9pt:cuda.preset_j2d9pt_gol:cuda.functor_nonlinear_2d'
s=$(date +%s); EBISU_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/bin/tA2 --gtest_filter="$f" > $R/memcheck-tA2.log 2>&1
echo "memcheck rc $? $(( $(date +%s) - s )) s"; grep -E "ERROR SUMMARY|PASSED|FAILED" $R/memcheck-tA2.log | tail -3
s=$(date +%s); EBISU_TEST_QUICK=1 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 /tmp/bin/tA2 --gtest_filter='cuda.preset_j2d5pt:cuda.preset_j2d9pt' > $R/racecheck-tA2.log 2>&1
echo "racecheck rc $? $(( $(date +%s) - s )) s"; grep -E "RACECHECK SUMMARY|PASSED|FAILED" $R/racecheck-tA2.log | tail -3
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
