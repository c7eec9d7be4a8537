#!/usr/bin/env bash
# 2026-11-29, call A: Cuda unit tests of this tree (bc2ca80: 2-D row loop with gathered loads, own-column-first
# sums, three blocks per SM at depth 10) - presets, functors, bad input, 2-D traits (tA) -, memcheck and
# racecheck of the changed kernels, the main example.
source "$(dirname "$0")/common.sh"
run_unit() { s=$(date +%s); timeout ${2:-300} /tmp/bin/$1 > $R/unit-$1.log 2>&1; echo "unit $1 rc $? $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED) |tests? ran|FAILED  \]" $R/unit-$1.log | tail -8; }
run_unit tA 300
f='cuda.preset_j2d5pt:cuda.preset_j2d9pt:cuda.functor_nonlinear_2d'
s=$(date +%s); EBISU_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/bin/tA --gtest_filter="$f" > $R/memcheck.log 2>&1
echo "memcheck rc $? $(( $(date +%s) - s )) s"; grep -E "ERROR SUMMARY|tests? ran|PASSED|FAILED" $R/memcheck.log | tail -3
s=$(date +%s); EBISU_TEST_QUICK=1 timeout 120 compute-sanitizer --tool racecheck --error-exitcode 3 /tmp/bin/tA --gtest_filter='cuda.preset_j2d5pt:cuda.functor_nonlinear_2d' > $R/racecheck.log 2>&1
echo "racecheck rc $? $(( $(date +%s) - s )) s"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|tests? ran|PASSED|FAILED" $R/racecheck.log | tail -3
s=$(date +%s); timeout 60 /tmp/bin/heat2d --size 9600 --steps 20000 --output $R/heat2d.png > $R/heat2d.log 2>&1; echo "heat2d rc $? $(( $(date +%s) - s )) s"; tail -3 $R/heat2d.log
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
