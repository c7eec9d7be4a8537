#!/usr/bin/env bash
# 2026-11-29 session 21, call 3: Cuda unit tests of the change - presets, bad input, 2-D traits (tA) -,
# memcheck and racecheck of the newly unrolled kernels (j2d9pt, j2d9pt-gol, j2d25pt).
source "$(dirname "$0")/common.sh"
run_unit() { s=$(date +%s); timeout ${2:-300} /tmp/bin/$1 > $R/unit-$1.log 2>&1; echo "unit $1 rc $? $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED) |tests? ran|FAILED  \]" $R/unit-$1.log | tail -8; }
run_unit tA 300
f="cuda.preset_j2d9pt:cuda.preset_j2d9pt_gol:cuda.preset_j2d25pt"
s=$(date +%s); EBISU_TEST_QUICK=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/bin/tA --gtest_filter="$f" > $R/memcheck.log 2>&1
echo "memcheck rc $? $(( $(date +%s) - s )) s"; grep -E "ERROR SUMMARY|tests? ran|PASSED|FAILED" $R/memcheck.log | tail -3
s=$(date +%s); EBISU_TEST_QUICK=1 timeout 200 compute-sanitizer --tool racecheck --error-exitcode 3 /tmp/bin/tA --gtest_filter='cuda.preset_j2d9pt:cuda.preset_j2d25pt:cuda.preset_j2d9pt_gol' > $R/racecheck.log 2>&1
echo "racecheck rc $? $(( $(date +%s) - s )) s"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|tests? ran|PASSED|FAILED" $R/racecheck.log | tail -3
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
