#!/usr/bin/env bash
# call 4 (session 33): the Cuda field-kernel tests after the review's refactor of SmTiling3D (one launch-depth helper).
D=$(cd "$(dirname "$0")" && pwd)
source "$D/common.sh"
cd /tmp/bin
( time timeout 240 ./ebisu_unit_tests_fields --gtest_brief=1 --gtest_filter='cuda.field_kernels*' ) > $R/unit.log 2>&1
echo "unit: $(grep -E 'PASSED|FAILED|tests ran' $R/unit.log | head -5 | tr '\n' ' ')"
finish
