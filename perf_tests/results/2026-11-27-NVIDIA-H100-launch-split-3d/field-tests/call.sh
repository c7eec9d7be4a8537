#!/usr/bin/env bash
# Call 16: the Cuda field tests after the test fix (T = 3 depth + 1 in the 3-D source-ring test).
set -u
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name 'libcudart.so.13*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
R=$OUT/res; mkdir -p $R /tmp/bin
xz -dc build-device/ebisu_unit_tests_cuda_fields.xz > /tmp/bin/t; chmod +x /tmp/bin/t
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $R/gpu.txt; cat $R/gpu.txt; date -u > $R/date.txt
timeout 240 /tmp/bin/t > $R/unit_cuda_fields.log 2>&1; echo "tests rc $?"
grep -E "^\[  (PASSED|FAILED) |tests ran|FAILED" $R/unit_cuda_fields.log | head
tar -C $OUT -czf $OUT/all.tar.gz res && rm -rf $R
