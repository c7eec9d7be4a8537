#!/usr/bin/env bash
# Call 17: ncu, one launch at depth 4 at 2560x288x384: the plain j3d7pt kernel and the wave3d state kernel
# (time, DRAM bytes, instructions), to set beside the source kernels' counts of call 11.
set -u
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name 'libcudart.so.13*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
R=$OUT/res; mkdir -p $R /tmp/bin
xz -dc build-device/ebisu_bench_new.xz > /tmp/bin/b; chmod +x /tmp/bin/b
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $R/gpu.txt; date -u > $R/date.txt
NCU=/usr/local/cuda/bin/ncu
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,launch__registers_per_thread,launch__shared_mem_per_block_dynamic
timeout 150 $NCU -k regex:ebisu3d_kernel -c 2 --metrics $M /tmp/bin/b --stencils j3d7pt --steps 8 --reps 5 --plain-variants mdrange-tile-32x4x1 --ebisu-variants automatic --no-spmv > $R/ncu-plain.log 2>&1; echo "plain rc $?"
timeout 150 $NCU -k regex:ebisu3d_kernel -c 2 --metrics $M /tmp/bin/b --stencils none --state-cases wave3d --steps 8 --reps 5 --plain-variants fast --ebisu-variants automatic --no-spmv > $R/ncu-wave3d.log 2>&1; echo "wave3d rc $?"
for f in plain wave3d; do echo "== $f"; grep -E "ebisu3d_kernel|gpu__time|dram__bytes|dram__throughput|inst_executed|registers|shared_mem" $R/ncu-$f.log | sed 's/(double const\*.*//' | cut -c1-150; done
tar -C $OUT -czf $OUT/all.tar.gz res && rm -rf $R
