#ifndef EBISU_KOKKOS_IMPL_CUDA_CUDA_CHECK_HPP
#define EBISU_KOKKOS_IMPL_CUDA_CUDA_CHECK_HPP

// Error checking for the raw CUDA calls of the EBISU backend: every failure
// becomes a std::runtime_error that names the call site (kernel or API).

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace EbisuKokkos {
namespace Impl {
namespace Cuda {

inline void check(cudaError_t err, const char* what, const std::string& context) {
  if (err != cudaSuccess) {
    throw std::runtime_error("EbisuKokkos CUDA error in " + context + " (" + what + "): " + cudaGetErrorName(err) +
                             ": " + cudaGetErrorString(err));
  }
}

}  // namespace Cuda
}  // namespace Impl
}  // namespace EbisuKokkos

/// EBISU_CUDA_CHECK(cudaFoo(...), "kernel or context name")
#define EBISU_CUDA_CHECK(call, context) ::EbisuKokkos::Impl::Cuda::check((call), #call, (context))

#endif
