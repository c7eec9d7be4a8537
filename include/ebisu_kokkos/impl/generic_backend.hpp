#ifndef EBISU_KOKKOS_IMPL_GENERIC_BACKEND_HPP
#define EBISU_KOKKOS_IMPL_GENERIC_BACKEND_HPP

// The generic backend: plain Kokkos on any execution space. One dispatch per
// time step over the interior only (the Dirichlet frame is copied once, so the
// step kernel has no boundary branch), iterating along the layout, swapping
// the two buffers between steps.

#include <ebisu_kokkos/impl/ebisu_backend_fwd.hpp>
#include <ebisu_kokkos/impl/view_access.hpp>
#include <ebisu_kokkos/policy.hpp>

#include <string>
#include <utility>

namespace EbisuKokkos {
namespace Impl {

template <class Evaluator, class InView, class OutView, int Rank = view_rank<OutView>>
struct StencilStep;

template <class Evaluator, class InView, class OutView>
struct StencilStep<Evaluator, InView, OutView, 1> {
  InView in;
  OutView out;
  Evaluator eval;
  KOKKOS_INLINE_FUNCTION void operator()(int i0) const { out(i0) = eval(ViewNeighborAccessor<InView>{in, i0}); }
};
template <class Evaluator, class InView, class OutView>
struct StencilStep<Evaluator, InView, OutView, 2> {
  InView in;
  OutView out;
  Evaluator eval;
  KOKKOS_INLINE_FUNCTION void operator()(int i0, int i1) const {
    out(i0, i1) = eval(ViewNeighborAccessor<InView>{in, i0, i1});
  }
};
template <class Evaluator, class InView, class OutView>
struct StencilStep<Evaluator, InView, OutView, 3> {
  InView in;
  OutView out;
  Evaluator eval;
  KOKKOS_INLINE_FUNCTION void operator()(int i0, int i1, int i2) const {
    out(i0, i1, i2) = eval(ViewNeighborAccessor<InView>{in, i0, i1, i2});
  }
};

template <class ExecSpace, class Stencil, class ViewType>
StencilOutcome run_generic(const std::string& label, const StencilPolicy<ExecSpace>& policy, const Stencil& stencil,
                          const ViewType& u, const ViewType& scratch) {
  constexpr int rank = view_rank<ViewType>;
  constexpr int radius = Stencil::radius;
  using Scalar = typename ViewType::non_const_value_type;
  using Layout = typename ViewType::array_layout;
  using ConstView = typename ViewType::const_type;
  const ExecSpace& space = policy.space();
  const int steps = policy.steps();

  StencilOutcome outcome;
  StencilReport& report = outcome.report;
  report.backend = Backend::generic;
  report.temporal_depth = 1;
  report.launches = steps;
  report.plan = "generic: one Kokkos dispatch per step";
  if (steps == 0) return outcome;

  int lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  for (int a = 0; a < rank; ++a) {
    lo[a] = radius;
    hi[a] = static_cast<int>(u.extent(a)) - radius;
  }
  const auto interior = box_policy<ExecSpace, Layout, rank>(space, lo, hi);
  const auto eval = stencil.template bind<Scalar>();
  using Step = StencilStep<decltype(eval), ConstView, ViewType>;

  copy_frame(space, scratch, u, radius);
  const std::string step_label = "EbisuKokkos::generic::" + label;
  ViewType src = u, dst = scratch;
  for (int s = 0; s < steps; ++s) {
    Kokkos::parallel_for(step_label, interior, Step{src, dst, eval});
    std::swap(src, dst);
  }
  outcome.result_in_scratch = steps % 2 == 1;
  return outcome;
}

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
