#ifndef EBISU_KOKKOS_PARALLEL_STENCIL_HPP
#define EBISU_KOKKOS_PARALLEL_STENCIL_HPP

// parallel_stencil: T Jacobi steps of a stencil over a Kokkos View, the
// drop-in replacement for "parallel_for one step, swap, repeat".
//
// On entry u holds step 0; on return (after the execution space instance is
// fenced, like any Kokkos dispatch) u holds step T. Cells within the stencil
// radius of an edge are a fixed Dirichlet boundary. scratch is a work View of
// the same shape; its contents on return are unspecified.

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

template <class ExecSpace, class Stencil, class ViewType, class ScratchType>
StencilReport parallel_stencil(const std::string& label, const StencilPolicy<ExecSpace>& policy,
                               const Stencil& stencil, const ViewType& u, const ScratchType& scratch) {
  Impl::check_types<ExecSpace, Stencil, ViewType, ScratchType>();
  Impl::check_arguments<Stencil>(label, policy.steps(), u, scratch);
  // From here on both Views are handled as one type (they agree in value
  // type, layout and memory space); unmanaged views keep ownership with the caller.
  using View = Kokkos::View<typename ViewType::data_type, typename ViewType::array_layout,
                            typename ViewType::memory_space>;
  const View u_view = u;
  const View scratch_view = scratch;
  using Ebisu = Impl::EbisuBackend<ExecSpace, Stencil, View>;

  StencilReport report;
  if (policy.backend() == Backend::ebisu && !Ebisu::available) {
    Impl::invalid(label,
                  "Backend::ebisu was requested, but no EBISU kernel supports this execution space, rank, "
                  "scalar type or layout in this build (use Backend::automatic to fall back)");
  }
  Kokkos::Profiling::pushRegion("EbisuKokkos::parallel_stencil::" + label);
  if constexpr (Ebisu::available) {
    if (policy.backend() != Backend::generic) {
      report = Ebisu::run(label, policy, stencil, u_view, scratch_view);
    } else {
      report = Impl::run_generic(label, policy, stencil, u_view, scratch_view);
    }
  } else {
    report = Impl::run_generic(label, policy, stencil, u_view, scratch_view);
  }
  Kokkos::Profiling::popRegion();
  if (policy.knobs().print_plan) std::printf("EbisuKokkos[%s]: %s\n", label.c_str(), report.plan.c_str());
  return report;
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
