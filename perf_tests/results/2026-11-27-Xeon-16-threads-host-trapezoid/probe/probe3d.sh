#!/usr/bin/env bash
# Host 3-D depth x tile probe after the trapezoid (issue 16); 16 threads.
set -u
cd "$(dirname "$0")/.."  # run from carry/ (the device tool carries carry/probe2 = this probe built against the trapezoid commit)
export LD_LIBRARY_PATH=$PWD/carry:${LD_LIBRARY_PATH:-}
export OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=cores
chmod +x carry/probe2
lscpu > "$OUT/lscpu.txt"
run() { local tag=$1; shift; timeout 240 carry/probe2 "$@" > "$OUT/probe-$tag.txt" 2>&1; echo "$tag rc=$?"; grep -v "^ *In general\|^ *For \|WARNING" "$OUT/probe-$tag.txt" | cut -c1-110; }
T="0x0,32x128,64x64,64x128,128x128"
run j3d7pt-384 j3d7pt 384 384 384 24 2,3,4,6,8 $T
run poisson-384 poisson 384 384 384 24 2,3,4,6,8 $T
run j3d27pt-384 j3d27pt 384 384 384 24 1,2,3,4,6,8 "0x0,64x64,64x128"
run j3d7pt-paper j3d7pt 2560 288 384 24 4,6,8 0x0,64x64
run j3d27pt-paper j3d27pt 2560 288 384 24 2,4,8 0x0,64x64
run poisson-paper poisson 2560 288 384 24 4,8 0x0,64x64
cd "$OUT" && tar czf all.tar.gz *.txt
