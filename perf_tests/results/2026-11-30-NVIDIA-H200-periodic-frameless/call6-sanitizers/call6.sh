#!/usr/bin/env bash
# call 6: compute-sanitizer (memcheck, racecheck, synccheck) on cuda.boundary_kernels_interior_pieces
# (EBISU_TEST_QUICK=1: 530 x 60, LayoutLeft has interior pieces) with 7c11a4b's test binary.
source "$(dirname "$0")/common.sh"
cd /tmp/bin
export EBISU_TEST_QUICK=1
CS=/usr/local/cuda/bin/compute-sanitizer
F=--gtest_filter=cuda.boundary_kernels_interior_pieces
for tool in memcheck racecheck synccheck; do
  ( time timeout 240 $CS --tool $tool --error-exitcode 9 ./ebisu_unit_tests_cuda $F ) > $R/$tool.log 2>&1
  echo "$tool rc=$?" >> $R/summary.txt
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|real" $R/$tool.log >> $R/summary.txt
done
cat $R/summary.txt
finish
