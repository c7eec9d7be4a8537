#!/bin/bash
# cubin.sh <mode> <out.cubin> [extra flags]: the kprobe TU's device code as a cubin
mode=$1; out=$2; shift 2
/usr/local/cuda/bin/nvcc -x cu -std=c++17 -DKOKKOS_DEPENDENCE -I/work/main/include -I/work/main/build-probe/m0/ebisu/include -isystem /tmp/deps/install/kokkos-3.4.01-cuda-HOPPER90-22a3464b3b88/include -DEBISU_PROBE_GATHER_MODE=$mode -O3 -DNDEBUG -expt-extended-lambda -arch=sm_90 -cubin -o $out "$@" /work/main/build-probe/src/kprobe.cpp
