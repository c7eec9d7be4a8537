#ifndef EBISU_KOKKOS_IMPL_BACKENDS_HPP
#define EBISU_KOKKOS_IMPL_BACKENDS_HPP

// Brings in the temporal-blocking backends this build has. Only backend
// files include vendor headers; everything else stays portable.

#include <ebisu_kokkos/config.hpp>
#include <ebisu_kokkos/impl/ebisu_backend_fwd.hpp>

#if defined(KOKKOS_ENABLE_CUDA) && defined(EBISU_KOKKOS_ENABLE_CUDA_KERNELS) && defined(__CUDACC__)
#include <ebisu_kokkos/impl/cuda/ebisu_cuda_backend.hpp>
#endif

#endif
