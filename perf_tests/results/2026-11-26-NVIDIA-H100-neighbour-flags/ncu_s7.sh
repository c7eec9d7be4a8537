#!/usr/bin/env bash
# ncu of one device-tiling launch with neighbour flags and with the grid barrier (same binary).
set -u
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name 'libcudart.so.13*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
R=$OUT/ncu; mkdir -p $R /tmp/bin
xz -dc carry/ebisu_bench.xz > /tmp/bin/ebisu_bench; chmod +x /tmp/bin/ebisu_bench
for c in j2d5pt:2:256 j3d7pt:3:32; do
  IFS=: read -r st rank n <<< "$c"
  for v in flags barrier; do
    if [ $v = barrier ]; then export EBISU_KOKKOS_DEVICE_TILING_GRID_BARRIER=1; else unset EBISU_KOKKOS_DEVICE_TILING_GRID_BARRIER; fi
    f=$R/ncu-$st-$n-$v
    timeout 150 ncu --kernel-name regex:device_tiling_kernel --launch-skip 1 --launch-count 1 \
      --section SpeedOfLight --section WarpStateStats --section SourceCounters \
      --import-source no -f -o $f /tmp/bin/ebisu_bench --stencils $st --size${rank}d $n --steps 2400 --reps 5 --no-spmv \
      --plain-variants $( ((rank == 2)) && echo mdrange-tile-32x4 || echo mdrange-tile-32x4x1) --ebisu-variants generic --ebisu-strategies device_tiling > $f.run.log 2>&1
    echo "ncu $st $n $v rc $?"
    ncu --import $f.ncu-rep --page details > $f.details.txt 2>&1
    ncu --import $f.ncu-rep --page source --print-source sass --csv > $f.sass.csv 2>&1
    grep -E "^    Duration|Warp Cycles Per Issued" $f.details.txt | head -3
    rm -f $f.ncu-rep
  done
done
