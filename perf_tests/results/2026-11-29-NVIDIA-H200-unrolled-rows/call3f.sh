#!/usr/bin/env bash
# 2026-11-29 session 21, call 3f: Cuda unit tests of the change - functors (tF) -, memcheck / racecheck of a 2-D
# functor kernel; then a probe A/B of two accumulator chains for the 25-point sums on the GPU (c1: one, c2: two).
source "$(dirname "$0")/common.sh"
run_unit() { s=$(date +%s); timeout ${2:-300} /tmp/bin/$1 > $R/unit-$1.log 2>&1; echo "unit $1 rc $? $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED) |tests? ran|FAILED  \]" $R/unit-$1.log | tail -8; }
run_unit tF 300
s=$(date +%s); EBISU_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/bin/tF --gtest_filter='cuda.functor_nonlinear_2d' > $R/memcheck-tF.log 2>&1
echo "memcheck rc $? $(( $(date +%s) - s )) s"; grep -E "ERROR SUMMARY|PASSED|FAILED" $R/memcheck-tF.log | tail -3
s=$(date +%s); EBISU_TEST_QUICK=1 timeout 100 compute-sanitizer --tool racecheck --error-exitcode 3 /tmp/bin/tF --gtest_filter='cuda.functor_nonlinear_2d' > $R/racecheck-tF.log 2>&1
echo "racecheck rc $? $(( $(date +%s) - s )) s"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED" $R/racecheck-tF.log | tail -3
for round in 1 2; do for v in c1 c2; do
  s=$(date +%s); PROBE_CHAINS=1 timeout 90 /tmp/bin/probe_$v > $R/chains-$v-$round.log 2>&1; echo "chains $v $round rc $? $(( $(date +%s) - s )) s"
done; done
for f in $R/chains-*.log; do echo "== $f"; sed -E 's/\(.*plan: (ebisu-[a-z0-9-]*: depth [0-9]+).*/\1/' $f | cut -c1-110; done
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
