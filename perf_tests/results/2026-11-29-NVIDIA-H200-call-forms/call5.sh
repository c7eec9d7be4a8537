#!/usr/bin/env bash
# 2026-11-29 session 22, call 5: the three test binaries that failed in call 3, rebuilt with the tests
# corrected (tA presets + bad input + 2-D traits, tF functors, tM measured choice + device tiling + call forms;
# the failures were the tests' assumptions, see README), memcheck of the call-form test, racecheck of the
# unrolled poisson kernels, and the 3-D suite's poisson row (automatic and every plain variant, T = 240).
source "$(dirname "$0")/common.sh"
run_unit() { s=$(date +%s); timeout ${2:-300} /tmp/bin/$1 > $R/unit-$1.log 2>&1; echo "unit $1 rc $? $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED) |tests? ran|FAILED  \]" $R/unit-$1.log | tail -8; }
san() { local tool=$1 bin=$2 filter=$3 name=$4; s=$(date +%s); EBISU_TEST_QUICK=1 timeout ${5:-150} compute-sanitizer --tool $tool --error-exitcode 3 /tmp/bin/$bin --gtest_filter="$filter" > $R/$name.log 2>&1
  echo "$name rc $? $(( $(date +%s) - s )) s"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|tests? ran|PASSED|FAILED" $R/$name.log | tail -3; }
for b in tA tF tM; do run_unit $b 120; done
san memcheck tM 'cuda.only_the_u_scratch_form_pays_a_copy_back' memcheck-forms 60
start_clocks clocks-poisson.csv
s=$(date +%s); timeout 130 /tmp/bin/ebisu_bench --no-spmv --precision double --stencils poisson --steps 240 --reps 5 --json $R/suite3d-poisson.json > $R/suite3d-poisson.log 2>&1; echo "poisson rc $? $(( $(date +%s) - s )) s"
stop_clocks
grep -h "parallel_stencil\|best plain" $R/suite3d-poisson.log | grep -v median | cut -c1-150
san racecheck tA 'cuda.preset_poisson' racecheck-poisson 200
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
