#!/usr/bin/env bash
# Call 11: ncu of the 3-D kernels at depth 4: plain j3d7pt, j3d7pt-source unfolded and folded (time, DRAM bytes, instructions).
set -u
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name 'libcudart.so.13*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
R=$OUT/res; mkdir -p $R /tmp/bin
xz -dc build-device/ebisu_bench_fold.xz > /tmp/bin/b; chmod +x /tmp/bin/b
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $R/gpu.txt; date -u > $R/date.txt
NCU=/usr/local/cuda/bin/ncu
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,launch__registers_per_thread,launch__shared_mem_per_block_dynamic
timeout 150 $NCU -k regex:ebisu3d_kernel -c 2 --metrics $M /tmp/bin/b --stencils j3d7pt --steps 4 --reps 5 --plain-variants mdrange-tile-32x4 --ebisu-variants automatic --no-spmv > $R/ncu-plain.log 2>&1; echo "plain rc $?"
EBISU_KOKKOS_NO_SOURCE_FOLD=1 timeout 150 $NCU -k regex:ebisu3d_kernel -c 2 --metrics $M /tmp/bin/b --stencils none --field-cases j3d7pt-source --steps 16 --reps 5 --plain-variants mdrange-tile-32x4 --ebisu-variants automatic --no-spmv > $R/ncu-source.log 2>&1; echo "source rc $?"
timeout 200 $NCU -k regex:ebisu3d_kernel -c 3 --metrics $M /tmp/bin/b --stencils none --field-cases j3d7pt-source --steps 16 --reps 5 --plain-variants mdrange-tile-32x4 --ebisu-variants automatic --no-spmv > $R/ncu-fold.log 2>&1; echo "fold rc $?"
for f in plain source fold; do echo "== $f"; grep -E "ebisu3d_kernel|gpu__time|dram__bytes|dram__throughput|inst_executed|registers|shared_mem" $R/ncu-$f.log | sed 's/(double const\*.*//' | cut -c1-230; done
tar -C $OUT -czf $OUT/all.tar.gz res && rm -rf $R
