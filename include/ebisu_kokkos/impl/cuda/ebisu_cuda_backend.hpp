#ifndef EBISU_KOKKOS_IMPL_CUDA_EBISU_CUDA_BACKEND_HPP
#define EBISU_KOKKOS_IMPL_CUDA_EBISU_CUDA_BACKEND_HPP

// The Kokkos::Cuda specialization of the EBISU backend hook: which problems
// the hand-written kernels take, and the dispatch between the strategies:
// device tiling (one persistent launch, domain on chip: small and medium
// domains) and SM tiling (2-D, and 3-D streaming z: large domains). Under
// Strategy::automatic the SM-tiling run functions compare their own plan (and,
// in 3-D, the generic path) with the device-tiling plan and run the fastest by
// the model. Included only by nvcc-compiled code.

#include <ebisu_kokkos/impl/compat.hpp>
#include <ebisu_kokkos/impl/cuda/ebisu_2d.hpp>
#include <ebisu_kokkos/impl/cuda/ebisu_3d.hpp>
#include <ebisu_kokkos/impl/cuda/ebisu_device_tiling.hpp>
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
    const Strategy wanted = policy.knobs().strategy;
    PlanDT device_plan;
    device_plan.why_not = "not considered";
    const bool consider_device = wanted == Strategy::device_tiling ||
                                 (wanted == Strategy::automatic && Cuda::device_tiling::kAutomaticConsidersDeviceTiling);
    if (consider_device && policy.steps() > 0) {
      device_plan = Cuda::DeviceTiling<Stencil, ViewType>::plan(policy, u);
      if (wanted == Strategy::device_tiling && device_plan.valid) {
        return Cuda::DeviceTiling<Stencil, ViewType>::run(label, policy, stencil, u, scratch, device_plan);
      }
    }
    // Forced device tiling that cannot run falls back to SM tiling, saying why.
    const PlanDT* alternative =
        wanted == Strategy::automatic && Cuda::device_tiling::kAutomaticConsidersDeviceTiling ? &device_plan : nullptr;
    StencilOutcome outcome;
    if constexpr (view_rank<ViewType> == 2) {
      outcome = Cuda::run_ebisu_2d(label, policy, stencil, u, scratch, alternative);
    } else {
      outcome = Cuda::run_ebisu_3d(label, policy, stencil, u, scratch, alternative);
    }
    if (wanted == Strategy::device_tiling && policy.steps() > 0) {
      outcome.report.plan = "device tiling not possible (" + device_plan.why_not + "); " + outcome.report.plan;
    }
    return outcome;
  }
};

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
