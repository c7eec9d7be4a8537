#!/usr/bin/env bash
# call 6: compute-sanitizer on the new forced-depth source tests (SM tiling depths 4 and 8, both layouts, fixed and
# periodic sides) and the rest of cuda.field_kernels_star_shaped_functors: memcheck, then racecheck.
source "$(dirname "$0")/common.sh"
cd /tmp/bin
CS=/usr/local/cuda/bin/compute-sanitizer
F=--gtest_filter=cuda.field_kernels_star_shaped_functors
timeout 200 $CS --tool memcheck ./ebisu_unit_tests_cuda $F > $R/memcheck.log 2>&1; echo "rc $?" >> $R/memcheck.log
timeout 330 $CS --tool racecheck ./ebisu_unit_tests_cuda $F > $R/racecheck.log 2>&1; echo "rc $?" >> $R/racecheck.log
tail -4 $R/memcheck.log $R/racecheck.log
finish
