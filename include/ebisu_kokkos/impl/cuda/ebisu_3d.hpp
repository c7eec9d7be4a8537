#ifndef EBISU_KOKKOS_IMPL_CUDA_EBISU_3D_HPP
#define EBISU_KOKKOS_IMPL_CUDA_EBISU_3D_HPP

// Placeholder until the 3-D EBISU kernels land: runs the generic backend.

#include <ebisu_kokkos/impl/generic_backend.hpp>

namespace EbisuKokkos {
namespace Impl {
namespace Cuda {

template <class Stencil, class ViewType>
StencilReport run_ebisu_3d(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                            const Stencil& stencil, const ViewType& u, const ViewType& scratch) {
  return run_generic(label, policy, stencil, u, scratch);
}

}  // namespace Cuda
}  // namespace Impl
}  // namespace EbisuKokkos

#endif
