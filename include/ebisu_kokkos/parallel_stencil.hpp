#ifndef EBISU_KOKKOS_PARALLEL_STENCIL_HPP
#define EBISU_KOKKOS_PARALLEL_STENCIL_HPP

// parallel_stencil: T Jacobi steps of a stencil over a Kokkos View, the
// drop-in replacement for "parallel_for one step, swap, repeat".
//
// Two forms:
//  - parallel_stencil(label, policy, stencil, u, scratch): u holds step 0 on
//    entry and step T on return; scratch is a same-shaped work View whose
//    contents on return are unspecified. When the backend's last launch
//    writes scratch, the field is copied back into u (one extra pass).
//  - parallel_stencil(label, policy, stencil, buffers) on a DoubleBuffer:
//    buffers.current() holds step 0 on entry and step T on return; the
//    selector is flipped instead of copying.
// Both are asynchronous on the policy's execution space instance, like any
// Kokkos dispatch. By default the cells within the stencil radius of an edge
// are a fixed (Dirichlet) boundary; StencilPolicy::set_boundary makes a side
// periodic or mirrored (zero flux), and then the cells up to it are updated.

#include <ebisu_kokkos/double_buffer.hpp>
#include <ebisu_kokkos/impl/backends.hpp>
#include <ebisu_kokkos/impl/generic_backend.hpp>
#include <ebisu_kokkos/impl/validate.hpp>
#include <ebisu_kokkos/policy.hpp>
#include <ebisu_kokkos/stencil.hpp>

#include <cstdio>
#include <string>

namespace EbisuKokkos {

/// True when the EBISU backend can run this combination of execution space,
/// stencil and View type (what Backend::automatic would pick).
template <class ExecSpace, class Stencil, class ViewType>
inline constexpr bool ebisu_available = Impl::EbisuBackend<ExecSpace, Stencil, ViewType>::available;

namespace Impl {

// Validates, picks the backend and runs it on (u, scratch); the outcome says
// which of the two holds step T.
template <class ExecSpace, class Stencil, class ViewType, class ScratchType>
StencilOutcome dispatch_stencil(const std::string& label, const StencilPolicy<ExecSpace>& policy,
                                const Stencil& stencil, const ViewType& u, const ScratchType& scratch) {
  check_types<ExecSpace, Stencil, ViewType, ScratchType>();
  check_arguments<Stencil>(label, policy.steps(), u, scratch);
  // From here on both Views are handled as one type (they agree in value
  // type, layout and memory space); unmanaged views keep ownership with the caller.
  using View = Kokkos::View<typename ViewType::data_type, typename ViewType::array_layout,
                            typename ViewType::memory_space>;
  const View u_view = u;
  const View scratch_view = scratch;
  using Ebisu = EbisuBackend<ExecSpace, Stencil, View>;

  if (policy.backend() == Backend::ebisu && !Ebisu::available) {
    invalid(label,
            "Backend::ebisu was requested, but no EBISU kernel supports this execution space, rank, "
            "scalar type or layout in this build (use Backend::automatic to fall back)");
  }
  check_boundaries<view_rank<ViewType>>(label, policy.boundaries());
  // Periodic and mirror sides run on the generic path only so far
  // (docs/design-fields-boundaries-state.md: the EBISU kernels come next).
  const bool fixed_frame = policy.boundaries().all_fixed();
  if (policy.backend() == Backend::ebisu && !fixed_frame) {
    invalid(label,
            "Backend::ebisu was requested with a periodic or mirror boundary, which the EBISU kernels do not "
            "support yet (Backend::automatic or generic run it on the generic path)");
  }
  StencilOutcome outcome;
  Kokkos::Profiling::pushRegion("EbisuKokkos::parallel_stencil::" + label);
  if constexpr (Ebisu::available) {
    if (policy.backend() != Backend::generic && fixed_frame) {
      outcome = Ebisu::run(label, policy, stencil, u_view, scratch_view);
    } else {
      outcome = run_generic(label, policy, stencil, u_view, scratch_view);
      if (policy.backend() == Backend::automatic) {
        outcome.report.plan += " (periodic/mirror sides: the EBISU kernels take fixed frames only so far)";
      }
    }
  } else {
    outcome = run_generic(label, policy, stencil, u_view, scratch_view);
  }
  Kokkos::Profiling::popRegion();
  if (policy.knobs().print_plan) std::printf("EbisuKokkos[%s]: %s\n", label.c_str(), outcome.report.plan.c_str());
  return outcome;
}

}  // namespace Impl

template <class ExecSpace, class Stencil, class ViewType, class ScratchType>
StencilReport parallel_stencil(const std::string& label, const StencilPolicy<ExecSpace>& policy,
                               const Stencil& stencil, const ViewType& u, const ScratchType& scratch) {
  const Impl::StencilOutcome outcome = Impl::dispatch_stencil(label, policy, stencil, u, scratch);
  if (outcome.result_in_scratch) Kokkos::deep_copy(policy.space(), u, scratch);
  return outcome.report;
}

/// Runs on buffers.current() and leaves step T there without copying.
template <class ExecSpace, class Stencil, class ViewType>
StencilReport parallel_stencil(const std::string& label, const StencilPolicy<ExecSpace>& policy,
                               const Stencil& stencil, DoubleBuffer<ViewType>& buffers) {
  const Impl::StencilOutcome outcome =
      Impl::dispatch_stencil(label, policy, stencil, buffers.current(), buffers.alternate());
  if (outcome.result_in_scratch) buffers.swap();
  return outcome.report;
}

/// Overload that allocates the scratch View itself (one allocation per call).
template <class ExecSpace, class Stencil, class ViewType>
StencilReport parallel_stencil(const std::string& label, const StencilPolicy<ExecSpace>& policy,
                               const Stencil& stencil, const ViewType& u) {
  Impl::check_types<ExecSpace, Stencil, ViewType, ViewType>();
  if (u.data() == nullptr) Impl::invalid(label, "u is not allocated");
  using Scratch = Kokkos::View<typename ViewType::non_const_data_type, typename ViewType::array_layout,
                               typename ViewType::memory_space>;
  Scratch scratch(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "_scratch"), u.layout());
  return parallel_stencil(label, policy, stencil, u, scratch);
}

}  // namespace EbisuKokkos

#endif
