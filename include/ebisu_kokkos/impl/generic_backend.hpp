#ifndef EBISU_KOKKOS_IMPL_GENERIC_BACKEND_HPP
#define EBISU_KOKKOS_IMPL_GENERIC_BACKEND_HPP

// The generic backend: plain Kokkos on any execution space. One dispatch per
// time step over the interior only (the Dirichlet frame is copied once, so the
// step kernel has no boundary branch), iterating along the layout, swapping
// the two buffers between steps; on GPUs each work item of a large domain
// updates 4 cells along the slowest index, and a long loop on a small domain
// is replayed as a recorded chunk where the space can (StepLoop).

#include <ebisu_kokkos/impl/boundary.hpp>
#include <ebisu_kokkos/impl/ebisu_backend_fwd.hpp>
#include <ebisu_kokkos/impl/step_loop.hpp>
#include <ebisu_kokkos/impl/view_access.hpp>
#include <ebisu_kokkos/policy.hpp>

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

namespace EbisuKokkos {
namespace Impl {

// Where a step reads a cell's neighbours: straight from the View (interior
// cells), or through the boundary map (cells next to a periodic or mirror side).
struct DirectReads {
  template <class View, class... I>
  KOKKOS_FORCEINLINE_FUNCTION ViewNeighborAccessor<View> at(const View& v, I... i) const {
    return {v, i...};
  }
};
struct MappedReads {
  BoundaryMap map;
  template <class View, class... I>
  KOKKOS_FORCEINLINE_FUNCTION MappedNeighborAccessor<View> at(const View& v, I... i) const {
    return {v, map, i...};
  }
};

template <class Evaluator, class InView, class OutView, class Reads = DirectReads, int Rank = view_rank<OutView>>
struct StencilStep;

template <class Evaluator, class InView, class OutView, class Reads>
struct StencilStep<Evaluator, InView, OutView, Reads, 1> {
  InView in;
  OutView out;
  Evaluator eval;
  Reads reads;
  KOKKOS_INLINE_FUNCTION void operator()(int i0) const { out(i0) = eval(reads.at(in, i0)); }
};
template <class Evaluator, class InView, class OutView, class Reads>
struct StencilStep<Evaluator, InView, OutView, Reads, 2> {
  InView in;
  OutView out;
  Evaluator eval;
  Reads reads;
  KOKKOS_INLINE_FUNCTION void operator()(int i0, int i1) const { out(i0, i1) = eval(reads.at(in, i0, i1)); }
};
template <class Evaluator, class InView, class OutView, class Reads>
struct StencilStep<Evaluator, InView, OutView, Reads, 3> {
  InView in;
  OutView out;
  Evaluator eval;
  Reads reads;
  KOKKOS_INLINE_FUNCTION void operator()(int i0, int i1, int i2) const {
    out(i0, i1, i2) = eval(reads.at(in, i0, i1, i2));
  }
};

// GPU form of the step: each work item updates kCoarseCells cells along the
// slowest index, so every thread has several independent loads in flight.
// With one cell per thread a memory-bound step stops at ~75% of the copy
// bandwidth on an H200 (too few bytes in flight per SM); four reach ~90%.
constexpr int kCoarseCells = 4;

template <class Evaluator, class InView, class OutView, int Slow, int Rank = view_rank<OutView>>
struct CoarseStencilStep;

template <class Evaluator, class InView, class OutView, int Slow>
struct CoarseStencilStep<Evaluator, InView, OutView, Slow, 2> {
  InView in;
  OutView out;
  Evaluator eval;
  int lo, hi;  // the interior along the slowest index
  KOKKOS_INLINE_FUNCTION void operator()(int i0, int i1) const {
    int i[2] = {i0, i1};
    const int first = lo + kCoarseCells * (i[Slow] - lo);
#pragma unroll
    for (int k = 0; k < kCoarseCells; ++k) {
      i[Slow] = first + k;
      if (i[Slow] < hi) out(i[0], i[1]) = eval(ViewNeighborAccessor<InView>{in, i[0], i[1]});
    }
  }
};
template <class Evaluator, class InView, class OutView, int Slow>
struct CoarseStencilStep<Evaluator, InView, OutView, Slow, 3> {
  InView in;
  OutView out;
  Evaluator eval;
  int lo, hi;
  KOKKOS_INLINE_FUNCTION void operator()(int i0, int i1, int i2) const {
    int i[3] = {i0, i1, i2};
    const int first = lo + kCoarseCells * (i[Slow] - lo);
#pragma unroll
    for (int k = 0; k < kCoarseCells; ++k) {
      i[Slow] = first + k;
      if (i[Slow] < hi) out(i[0], i[1], i[2]) = eval(ViewNeighborAccessor<InView>{in, i[0], i[1], i[2]});
    }
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
  // The step functors travel as kernel arguments (HintLightWeight) on GPUs, so
  // that a recorded step loop replays them as they were.
  const auto light = [](const auto& p) {
    if constexpr (runs_on_host<ExecSpace>) {
      return p;
    } else {
      return Kokkos::Experimental::require(p, Kokkos::Experimental::WorkItemProperty::HintLightWeight);
    }
  };
  constexpr std::size_t kernel_argument_bytes = 1024;  // well inside every GPU's kernel-argument limit
  const auto eval = stencil.template bind<Scalar>();
  copy_frame(space, scratch, u, radius);
  // Cells next to a periodic or mirror side: thin slabs with a mapped accessor.
  const BoundaryMap map = boundary_map(u, policy.boundaries());
  const EdgeSlabs slabs = edge_slabs<rank>(map, radius);
  using EdgeStep = StencilStep<decltype(eval), ConstView, ViewType, MappedReads>;
  const std::string edge_label = "EbisuKokkos::generic_edges::" + label;
  const auto issue_edges = [&](const ExecSpace& on, const ViewType& src, const ViewType& dst) {
    for (int k = 0; k < slabs.count; ++k) {
      Kokkos::parallel_for(edge_label, light(box_policy<ExecSpace, Layout, rank>(on, slabs.lo[k], slabs.hi[k])),
                           EdgeStep{src, dst, eval, MappedReads{map}});
    }
  };
  const int per_step = 1 + slabs.count;
  report.launches = steps * per_step;
  const bool edges_replayable = sizeof(EdgeStep) <= kernel_argument_bytes;
  const std::string step_label = "EbisuKokkos::generic::" + label;
  std::string loop_note;
  // Coarsening pays only when the GPU has more than enough threads without it
  // (H200: 1024^2 +27% with 4 cells per item, 512^2 and 64^3 -3..-11%).
  bool coarse = false;
  if constexpr (!runs_on_host<ExecSpace> && rank >= 2) {
    long interior = 1;
    for (int a = 0; a < rank; ++a) interior *= hi[a] - lo[a];
    coarse = interior >= 2L * space.concurrency();
  }
  if constexpr (!runs_on_host<ExecSpace> && rank >= 2) {
    constexpr int slow = std::is_same_v<Layout, Kokkos::LayoutRight> ? 0 : rank - 1;
    if (coarse) {
      int groups_hi[3] = {hi[0], hi[1], hi[2]};
      groups_hi[slow] = lo[slow] + (hi[slow] - lo[slow] + kCoarseCells - 1) / kCoarseCells;
      using Step = CoarseStencilStep<decltype(eval), ConstView, ViewType, slow>;
      const auto issue = [&](const ExecSpace& on, int n) {
        const auto groups = light(box_policy<ExecSpace, Layout, rank>(on, lo, groups_hi));
        ViewType src = u, dst = scratch;
        for (int s = 0; s < n; ++s) {
          Kokkos::parallel_for(step_label, groups, Step{src, dst, eval, lo[slow], hi[slow]});
          issue_edges(on, src, dst);
          std::swap(src, dst);
        }
      };
      loop_note = StepLoop<ExecSpace>::run(space, steps, per_step,
                                           sizeof(Step) <= kernel_argument_bytes && edges_replayable, issue);
    }
  }
  if (!coarse) {
    using Step = StencilStep<decltype(eval), ConstView, ViewType>;
    const auto issue = [&](const ExecSpace& on, int n) {
      const auto interior = light(box_policy<ExecSpace, Layout, rank>(on, lo, hi));
      ViewType src = u, dst = scratch;
      for (int s = 0; s < n; ++s) {
        Kokkos::parallel_for(step_label, interior, Step{src, dst, eval, DirectReads{}});
        issue_edges(on, src, dst);
        std::swap(src, dst);
      }
    };
    loop_note = StepLoop<ExecSpace>::run(space, steps, per_step,
                                           sizeof(Step) <= kernel_argument_bytes && edges_replayable, issue);
  }
  report.plan += std::string(coarse ? ", 4 cells per work item" : "") +
                 (slabs.count > 0 ? ", periodic/mirror edges in " + std::to_string(slabs.count) + " slab dispatches per step"
                                  : std::string()) +
                 loop_note;
  outcome.result_in_scratch = steps % 2 == 1;
  return outcome;
}

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
