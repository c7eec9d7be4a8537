#!/usr/bin/env bash
# 2026-11-29, call I: the gathered kernels' row loop unrolled W times - its Cuda tests (presets, functors,
# 2-D traits: tA3), memcheck and racecheck of j2d5pt and the 2-D functor, and the probe against the tree
# without the unroll (landed = 3570f86), alternating: the default set and PROBE_R2 (j2d9pt, periodic j2d5pt).
source "$(dirname "$0")/common.sh"
s=$(date +%s); timeout 120 /tmp/bin/tA3 > $R/unit-tA3.log 2>&1; echo "unit tA3 rc $? $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $R/unit-tA3.log | tail -6
s=$(date +%s); EBISU_TEST_QUICK=1 timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/bin/tA3 --gtest_filter='cuda.preset_j2d5pt:cuda.preset_j2d9pt_gol:cuda.functor_nonlinear_2d' > $R/memcheck-tA3.log 2>&1
echo "memcheck rc $? $(( $(date +%s) - s )) s"; grep -E "ERROR SUMMARY|PASSED|FAILED" $R/memcheck-tA3.log | tail -3
s=$(date +%s); EBISU_TEST_QUICK=1 timeout 100 compute-sanitizer --tool racecheck --error-exitcode 3 /tmp/bin/tA3 --gtest_filter='cuda.preset_j2d5pt' > $R/racecheck-tA3.log 2>&1
echo "racecheck rc $? $(( $(date +%s) - s )) s"; grep -E "RACECHECK SUMMARY|PASSED|FAILED" $R/racecheck-tA3.log | tail -3
for r in 1 2; do for v in landed final; do echo "== $v run $r"; /tmp/bin/probe_$v 2>&1; PROBE_R2=1 /tmp/bin/probe_$v 2>&1; done; done | sed -E 's/plan: (.{0,40}).*regs\/thread ([0-9]+).*/regs \2/; s/\(.*reps[^)]*\)//' > $R/probe-final.log
cat $R/probe-final.log
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
