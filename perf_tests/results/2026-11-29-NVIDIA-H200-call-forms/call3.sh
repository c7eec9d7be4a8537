#!/usr/bin/env bash
# 2026-11-29 session 22, call 3: this tree's whole Cuda unit suite (seven binaries of the suite's objects:
# tA presets + bad input + 2-D traits, tF functors, tB boundaries + boundary kernels + blocked + large
# domains, tM measured choice + device tiling + the call forms, tC1 fields, tC2 field kernels, tS states,
# tG 1-D segments + generic graph), then compute-sanitizer on what changed: memcheck and racecheck of the
# unrolled 3-D kernels (j3d13pt, j3d17pt, poisson; fixed and periodic), memcheck of the call-form test,
# synccheck of 2-D and 3-D SM tiling and device tiling.
source "$(dirname "$0")/common.sh"
run_unit() { s=$(date +%s); timeout ${2:-300} /tmp/bin/$1 > $R/unit-$1.log 2>&1; echo "unit $1 rc $? $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED) |tests? ran|FAILED  \]" $R/unit-$1.log | tail -8; }
san() { local tool=$1 bin=$2 filter=$3 name=$4; s=$(date +%s); EBISU_TEST_QUICK=1 timeout ${5:-150} compute-sanitizer --tool $tool --error-exitcode 3 /tmp/bin/$bin --gtest_filter="$filter" > $R/$name.log 2>&1
  echo "$name rc $? $(( $(date +%s) - s )) s"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|tests? ran|PASSED|FAILED" $R/$name.log | tail -3; }
for b in tA tF tB tM tC1 tC2 tS tG; do run_unit $b 200; done
san memcheck tA 'cuda.preset_j3d13pt:cuda.preset_j3d17pt:cuda.preset_poisson' memcheck-3d
san racecheck tA 'cuda.preset_j3d13pt:cuda.preset_poisson' racecheck-3d
san memcheck tB 'cuda.boundary_kernels_3d' memcheck-boundaries-3d
san memcheck tM 'cuda.only_the_u_scratch_form_pays_a_copy_back' memcheck-forms
san synccheck tA 'cuda.preset_j2d5pt:cuda.preset_j3d7pt:cuda.preset_poisson' synccheck
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
