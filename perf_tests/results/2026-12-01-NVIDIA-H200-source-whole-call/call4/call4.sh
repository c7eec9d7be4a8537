#!/usr/bin/env bash
# call 4 (session 36): the committed tree's Cuda field-kernel tests, all of them.
D=$(cd "$(dirname "$0")" && pwd)
source "$D/common.sh"
cd /tmp/bin
( time timeout 400 ./ebisu_unit_tests_fields --gtest_brief=1 ) > $R/unit.log 2>&1
echo "unit: $(grep -E 'PASSED|FAILED|tests ran|real' $R/unit.log | head -8 | tr '\n' ' ')"
finish
