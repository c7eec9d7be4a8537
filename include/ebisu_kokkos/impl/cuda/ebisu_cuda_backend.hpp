#ifndef EBISU_KOKKOS_IMPL_CUDA_EBISU_CUDA_BACKEND_HPP
#define EBISU_KOKKOS_IMPL_CUDA_EBISU_CUDA_BACKEND_HPP

// The Kokkos::Cuda specialization of the EBISU backend hook: which problems
// the hand-written kernels take, and the dispatch to the 2-D (SM tiling) and
// 3-D (SM tiling, streaming z) implementations. Included only by nvcc-compiled code.

#include <ebisu_kokkos/impl/compat.hpp>
#include <ebisu_kokkos/impl/cuda/ebisu_2d.hpp>
#include <ebisu_kokkos/impl/cuda/ebisu_3d.hpp>
#include <ebisu_kokkos/impl/ebisu_backend_fwd.hpp>

#include <type_traits>

namespace EbisuKokkos {
namespace Impl {

template <class Stencil, class ViewType>
inline constexpr bool cuda_kernels_support =
    (view_rank<ViewType> == 2 || view_rank<ViewType> == 3) && Stencil::radius <= 2 &&
    is_accessible_from<Kokkos::Cuda, typename ViewType::memory_space> &&
    (std::is_same_v<typename ViewType::non_const_value_type, double> ||
     std::is_same_v<typename ViewType::non_const_value_type, float>) &&
    (std::is_same_v<typename ViewType::array_layout, Kokkos::LayoutLeft> ||
     std::is_same_v<typename ViewType::array_layout, Kokkos::LayoutRight>);

template <class Stencil, class ViewType>
struct EbisuBackend<Kokkos::Cuda, Stencil, ViewType, std::enable_if_t<cuda_kernels_support<Stencil, ViewType>>> {
  static constexpr bool available = true;
  static StencilOutcome run(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                            const Stencil& stencil, const ViewType& u, const ViewType& scratch) {
    if constexpr (view_rank<ViewType> == 2) {
      return Cuda::run_ebisu_2d(label, policy, stencil, u, scratch);
    } else {
      return Cuda::run_ebisu_3d(label, policy, stencil, u, scratch);
    }
  }
};

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
