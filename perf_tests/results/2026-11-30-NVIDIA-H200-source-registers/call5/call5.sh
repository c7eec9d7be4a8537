#!/usr/bin/env bash
# call 5: the kept tree (fc0ee83: 2-D source sum from f): Cuda tests of test_field_kernels and test_fields.
D=$(cd "$(dirname "$0")" && pwd)
source "$D/common.sh"
cd /tmp/bin
( time timeout 200 ./ebisu_unit_tests_cuda --gtest_brief=1 ) > $R/unit.log 2>&1
tail -5 $R/unit.log
finish
