#!/usr/bin/env bash
# The full size sweep (all nine stencils, 2-D 256^2 .. 16384^2, 3-D 32^3 .. 512^3) of the committed code.
set -u
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name 'libcudart.so.13*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
R=/tmp/sweep; mkdir -p $R /tmp/bin
xz -dc carry/ebisu_bench.xz > /tmp/bin/ebisu_bench; chmod +x /tmp/bin/ebisu_bench
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $R/gpu.txt; cat $R/gpu.txt
date -u > $R/date.txt
timeout ${LIMIT:-540} perf_tests/run_size_sweep.sh /tmp/bin/ebisu_bench $R > $R/run.log 2>&1
echo "sweep rc $?"; grep -v "^run_size_sweep.sh: [23]D" $R/run.log | cut -c1-200 | tail -70
tar -C /tmp -czf $OUT/sweep.tgz sweep
