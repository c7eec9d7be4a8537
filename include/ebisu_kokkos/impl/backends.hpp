#ifndef EBISU_KOKKOS_IMPL_BACKENDS_HPP
#define EBISU_KOKKOS_IMPL_BACKENDS_HPP

// Brings in the temporal-blocking backends this build has: the host one
// (portable Kokkos, every host execution space) and, in nvcc-compiled code,
// the CUDA one (with the CUDA-graph step loop of the generic path). Only
// backend files include vendor headers.

#include <ebisu_kokkos/config.hpp>
#include <ebisu_kokkos/impl/ebisu_backend_fwd.hpp>
#include <ebisu_kokkos/impl/host/ebisu_host.hpp>

#if defined(KOKKOS_ENABLE_CUDA) && defined(EBISU_KOKKOS_ENABLE_CUDA_KERNELS) && defined(__CUDACC__)
#include <ebisu_kokkos/impl/cuda/ebisu_cuda_backend.hpp>
#include <ebisu_kokkos/impl/cuda/step_graph.hpp>
#endif

#endif
