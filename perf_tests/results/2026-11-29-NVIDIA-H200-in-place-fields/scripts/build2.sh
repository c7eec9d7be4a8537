# build2.sh NAME TREE [extra flags]: A/B binary (j3d7pt, poisson, j3d13pt) from a tree's headers and its in-place model source
v=$1; tree=$2; extra=${3:-}
K=/tmp/deps/install/kokkos-3.4.01-cuda-HOPPER90-22a3464b3b88
NV=$K/bin/nvcc_wrapper
FL="-DKOKKOS_DEPENDENCE -I$tree/include -I/tmp/cudabuild/include -isystem $K/include -O3 -DNDEBUG -expt-extended-lambda -arch=sm_90 -std=c++17 $extra"
$NV $FL -c /tmp/s25/ab2.cpp -o ab_$v.o && $NV $FL -c $tree/src/performance_model_in_place_tiling.cpp -o m_$v.o && \
$NV -O3 -arch=sm_90 ab_$v.o m_$v.o -o ab_$v /tmp/cudabuild/libebisu_kokkos.a $K/lib/libkokkoscontainers.a $K/lib/libkokkoscore.a /usr/local/cuda/lib/stubs/libcuda.so /usr/local/cuda/lib/libcudart.so -ldl
