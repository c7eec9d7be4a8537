# build2d.sh NAME TREE [extra flags]: 2-D device-tiling A/B binary from a tree's headers and model sources
v=$1; tree=$2; extra=${3:-}
K=/tmp/deps/install/kokkos-3.4.01-cuda-HOPPER90-22a3464b3b88
NV=$K/bin/nvcc_wrapper
FL="-DKOKKOS_DEPENDENCE -I$tree/include -I/tmp/cudabuild/include -isystem $K/include -O3 -DNDEBUG -expt-extended-lambda -arch=sm_90 -std=c++17 $extra"
$NV $FL -Xptxas=-v -c /tmp/s28/b/ab2d.cpp -o ab_$v.o > regs_$v.log 2>&1 && $NV $FL -c $tree/src/performance_model_device_tiling.cpp -o m_$v.o && \
$NV -O3 -arch=sm_90 ab_$v.o m_$v.o -o ab_$v /tmp/cudabuild/libebisu_kokkos.a $K/lib/libkokkoscontainers.a $K/lib/libkokkoscore.a /usr/local/cuda/lib/stubs/libcuda.so /usr/local/cuda/lib/libcudart.so -ldl && echo BUILT $v
