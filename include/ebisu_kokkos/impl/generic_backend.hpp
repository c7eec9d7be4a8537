#ifndef EBISU_KOKKOS_IMPL_GENERIC_BACKEND_HPP
#define EBISU_KOKKOS_IMPL_GENERIC_BACKEND_HPP

// The generic backend: plain Kokkos on any execution space. One dispatch per
// time step over the interior only (the Dirichlet frame is copied once, so the
// step kernel has no boundary branch), iterating along the layout, swapping
// the two buffers between steps; on GPUs each work item of a large domain
// updates 4 cells along the slowest index, and a long loop on a small domain
// is replayed as a recorded chunk where the space can (StepLoop). Read-only
// fields (fields.hpp) travel in the step functors as a FieldViews; the
// evaluator gets one accessor per field next to the state's.

#include <ebisu_kokkos/impl/boundary.hpp>
#include <ebisu_kokkos/impl/ebisu_backend_fwd.hpp>
#include <ebisu_kokkos/impl/fields.hpp>
#include <ebisu_kokkos/impl/state_ring.hpp>
#include <ebisu_kokkos/impl/step_loop.hpp>
#include <ebisu_kokkos/impl/view_access.hpp>
#include <ebisu_kokkos/policy.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
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

// A field read only at the output cell never leaves the domain: plain reads
// even in the edge slabs. Fields read over the footprint go through `reads`
// like the state (the boundary map next to a periodic or mirror side).
template <class Kind, class Reads>
KOKKOS_FORCEINLINE_FUNCTION std::enable_if_t<!Kind::centre_only, const Reads&> reads_for_field(const Reads& reads) {
  return reads;
}
template <class Kind, class Reads>
KOKKOS_FORCEINLINE_FUNCTION std::enable_if_t<Kind::centre_only, DirectReads> reads_for_field(const Reads&) {
  return {};
}

// The new value of cell i: the evaluator gets the state's accessor and one
// accessor per field (none without fields: exactly `eval(reads.at(in, i...))`).
template <class Evaluator, class Reads, class InView, class FieldView, class... Kinds, std::size_t... K, class... I>
KOKKOS_FORCEINLINE_FUNCTION auto evaluate_cell(const Evaluator& eval, const Reads& reads, const InView& in,
                                               const FieldViews<FieldView, Kinds...>& fields,
                                               std::index_sequence<K...>, I... i) {
  return eval(reads.at(in, i...), reads_for_field<Kinds>(reads).at(fields.views[K], i...)...);
}
template <class Evaluator, class Reads, class InView, class FieldView, class... Kinds, class... I>
KOKKOS_FORCEINLINE_FUNCTION auto evaluate_cell(const Evaluator& eval, const Reads& reads, const InView& in,
                                               const FieldViews<FieldView, Kinds...>& fields, I... i) {
  return evaluate_cell(eval, reads, in, fields, std::index_sequence_for<Kinds...>{}, i...);
}

// The step functors hold the fields as their (first) base class: without
// fields it is empty and takes no room, so the functor is the one it always
// was. Built as Step{fields, in, out, eval, ...}.
template <class Evaluator, class InView, class OutView, class Reads = DirectReads, class Fields = NoFields,
          int Rank = view_rank<OutView>>
struct StencilStep;

template <class Evaluator, class InView, class OutView, class Reads, class Fields>
struct StencilStep<Evaluator, InView, OutView, Reads, Fields, 1> : Fields {
  InView in;
  OutView out;
  Evaluator eval;
  Reads reads;
  KOKKOS_INLINE_FUNCTION void operator()(int i0) const {
    store_cell(out, evaluate_cell(eval, reads, in, static_cast<const Fields&>(*this), i0), i0);
  }
};
template <class Evaluator, class InView, class OutView, class Reads, class Fields>
struct StencilStep<Evaluator, InView, OutView, Reads, Fields, 2> : Fields {
  InView in;
  OutView out;
  Evaluator eval;
  Reads reads;
  KOKKOS_INLINE_FUNCTION void operator()(int i0, int i1) const {
    store_cell(out, evaluate_cell(eval, reads, in, static_cast<const Fields&>(*this), i0, i1), i0, i1);
  }
};
template <class Evaluator, class InView, class OutView, class Reads, class Fields>
struct StencilStep<Evaluator, InView, OutView, Reads, Fields, 3> : Fields {
  InView in;
  OutView out;
  Evaluator eval;
  Reads reads;
  KOKKOS_INLINE_FUNCTION void operator()(int i0, int i1, int i2) const {
    store_cell(out, evaluate_cell(eval, reads, in, static_cast<const Fields&>(*this), i0, i1, i2), i0, i1, i2);
  }
};

// GPU form of the step: each work item updates kCoarseCells cells along the
// slowest index, so every thread has several independent loads in flight.
// With one cell per thread a memory-bound step stops at ~75% of the copy
// bandwidth on an H200 (too few bytes in flight per SM); four reach ~90%.
constexpr int kCoarseCells = 4;

template <class Evaluator, class InView, class OutView, int Slow, class Fields = NoFields,
          int Rank = view_rank<OutView>>
struct CoarseStencilStep;

template <class Evaluator, class InView, class OutView, int Slow, class Fields>
struct CoarseStencilStep<Evaluator, InView, OutView, Slow, Fields, 2> : Fields {
  InView in;
  OutView out;
  Evaluator eval;
  int lo, hi;  // the interior along the slowest index
  KOKKOS_INLINE_FUNCTION void operator()(int i0, int i1) const {
    const Fields& fields = *this;
    int i[2] = {i0, i1};
    const int first = lo + kCoarseCells * (i[Slow] - lo);
#pragma unroll
    for (int k = 0; k < kCoarseCells; ++k) {
      i[Slow] = first + k;
      if (i[Slow] < hi) store_cell(out, evaluate_cell(eval, DirectReads{}, in, fields, i[0], i[1]), i[0], i[1]);
    }
  }
};
template <class Evaluator, class InView, class OutView, int Slow, class Fields>
struct CoarseStencilStep<Evaluator, InView, OutView, Slow, Fields, 3> : Fields {
  InView in;
  OutView out;
  Evaluator eval;
  int lo, hi;
  KOKKOS_INLINE_FUNCTION void operator()(int i0, int i1, int i2) const {
    const Fields& fields = *this;
    int i[3] = {i0, i1, i2};
    const int first = lo + kCoarseCells * (i[Slow] - lo);
#pragma unroll
    for (int k = 0; k < kCoarseCells; ++k) {
      i[Slow] = first + k;
      if (i[Slow] < hi) {
        store_cell(out, evaluate_cell(eval, DirectReads{}, in, fields, i[0], i[1], i[2]), i[0], i[1], i[2]);
      }
    }
  }
};

// GPU form of the step as one RangePolicy over the interior: the index is
// split into (i0, i1, i2) here, contiguous index fastest. Fewer instructions
// per cell than an MDRange tile (whose tile loop is in every work item) and
// fewer registers: where the domain lives in L2 and the stencil is a box
// (j3d27pt 128^3 on an H200: 14.6 M instructions and 58 registers per step
// against 15.6 M and 80 for 4 cells per tiled item), that is what counts.
template <class Evaluator, class InView, class OutView, bool Right, class Fields = NoFields,
          int Rank = view_rank<OutView>>
struct FlatStencilStep : Fields {
  static_assert(Rank == 2 || Rank == 3, "1-D steps are a range already");
  InView in;
  OutView out;
  Evaluator eval;
  Kokkos::Array<int, 3> lo, n;  // the interior: first cell and extents per View index
  KOKKOS_INLINE_FUNCTION void operator()(int idx) const {
    const Fields& fields = *this;
    int i[3] = {0, 0, 0};
    if constexpr (Right) {
      for (int a = Rank - 1; a > 0; --a) {
        i[a] = lo[a] + idx % n[a];
        idx /= n[a];
      }
      i[0] = lo[0] + idx;
    } else {
      for (int a = 0; a < Rank - 1; ++a) {
        i[a] = lo[a] + idx % n[a];
        idx /= n[a];
      }
      i[Rank - 1] = lo[Rank - 1] + idx;
    }
    if constexpr (Rank == 2) {
      store_cell(out, evaluate_cell(eval, DirectReads{}, in, fields, i[0], i[1]), i[0], i[1]);
    } else {
      store_cell(out, evaluate_cell(eval, DirectReads{}, in, fields, i[0], i[1], i[2]), i[0], i[1], i[2]);
    }
  }
};

// Host form of the interior step: one work item per row along the layout's
// contiguous index, the row a unit-stride loop the compiler vectorises. (An
// MDRange tile calls the functor cell by cell with its index arithmetic in
// between: on 16 threads of a Xeon the hand-written `omp parallel for simd`
// loop was 1.3-1.7x every MDRange variant at 256^2 to 1024^2.) Rank 3: rows
// numbered slow-major over the (slow, middle) interior.
//
// A row reads and writes through pointers with 64-bit element offsets, not
// through the Views: Kokkos 3.4 keeps the extents of a View with three or more
// runtime extents as `unsigned` (ViewDimension), so a rank-3 View's offset is
// computed in 32-bit unsigned arithmetic, which may wrap; GCC then cannot prove
// a row's accesses contiguous and left the 3-D row loop scalar (0.57-0.61x the
// hand-written loop on 16 Xeon threads, 2026-11-25).

// A View seen from one row: the element at the row's cell 0 along the
// contiguous index, and the element strides of the View's indices (0 beyond
// its rank). The contiguous index has stride 1 (LayoutLeft and LayoutRight).
template <class Pointer>
struct RowCursor {
  Pointer base;
  long s0, s1, s2;
};
// Index (slow, mid) of a row: the slow index is View index 0 (LayoutRight) or Rank - 1 (LayoutLeft).
template <bool Right, class View>
KOKKOS_FORCEINLINE_FUNCTION RowCursor<typename View::pointer_type> row_cursor(const View& v, int slow, int mid) {
  constexpr int rank = view_rank<View>;
  const long s[3] = {static_cast<long>(v.stride(0)), static_cast<long>(v.stride(rank > 1 ? 1 : 0)),
                     rank > 2 ? static_cast<long>(v.stride(rank > 2 ? 2 : 0)) : 0L};
  const long at = static_cast<long>(slow) * s[Right ? 0 : rank - 1] + (rank == 3 ? static_cast<long>(mid) * s[1] : 0L);
  return {v.data() + at, s[0], rank > 1 ? s[1] : 0L, s[2]};
}
// Reads around cell f of a row: D0, D1, D2 along View indices 0, 1, 2.
template <class Scalar>
struct RowNeighborAccessor {
  const Scalar* p;
  long s0, s1, s2;
  template <int D0, int D1, int D2>
  KOKKOS_FORCEINLINE_FUNCTION Scalar get() const {
    return p[D0 * s0 + D1 * s1 + D2 * s2];
  }
};
template <class Pointer>
KOKKOS_FORCEINLINE_FUNCTION auto row_reads(const RowCursor<Pointer>& c, int f) {
  using Scalar = std::remove_cv_t<std::remove_pointer_t<Pointer>>;
  return RowNeighborAccessor<Scalar>{c.base + f, c.s0, c.s1, c.s2};
}
// Where a row's new values go: one View, or one per state field.
template <bool Right, class View>
KOKKOS_FORCEINLINE_FUNCTION auto row_outputs(const View& v, int slow, int mid) {
  return row_cursor<Right>(v, slow, mid).base;
}
template <class Pointer, int NumFields>
struct RowTargets {
  Pointer row[NumFields];
  // Straight-line stores: the row loop is the one to vectorise (a loop over the fields here was
  // vectorised itself, as a 2-lane scatter).
  template <class Values, std::size_t... K>
  KOKKOS_FORCEINLINE_FUNCTION void store(int f, const Values& v, std::index_sequence<K...>) const {
    ((row[K][f] = v[K]), ...);
  }
};
template <bool Right, class View, int NumFields>
KOKKOS_FORCEINLINE_FUNCTION auto row_outputs(const StateOutputs<View, NumFields>& out, int slow, int mid) {
  RowTargets<typename View::pointer_type, NumFields> to;
  for (int k = 0; k < NumFields; ++k) to.row[k] = row_cursor<Right>(out.views[k], slow, mid).base;
  return to;
}

template <class Evaluator, class InView, class OutView, bool Right, class Fields = NoFields,
          int Rank = view_rank<OutView>>
struct RowStencilStep : Fields {
  static_assert(Rank == 2 || Rank == 3, "1-D steps are a range already");
  InView in;
  OutView out;
  Evaluator eval;
  int lo_fast, hi_fast;  // the interior along the contiguous index
  int lo_slow;           // rank 3: first interior cell along the slow index
  int lo_mid, n_mid;     // rank 3: the middle index's interior
  KOKKOS_INLINE_FUNCTION void operator()(int row) const {
    const int slow = Rank == 3 ? lo_slow + row / n_mid : row;
    const int mid = Rank == 3 ? lo_mid + row % n_mid : 0;
    run_row(slow, mid, static_cast<const Fields&>(*this), std::make_index_sequence<static_cast<std::size_t>(Fields::size)>{});
  }

 private:
  template <class FieldSet, std::size_t... K>
  KOKKOS_FORCEINLINE_FUNCTION void run_row(int slow, int mid, const FieldSet& fields, std::index_sequence<K...>) const {
    const auto from = row_cursor<Right>(in, slow, mid);
    const auto to = row_outputs<Right>(out, slow, mid);
    [[maybe_unused]] const RowCursor<typename InView::pointer_type> field[sizeof...(K) > 0 ? sizeof...(K) : 1] = {
        row_cursor<Right>(fields.views[K], slow, mid)...};
    // A local copy of the evaluator: its coefficients stay in registers (a store through `to` might
    // alias the functor's own doubles, so the compiler re-reads members after every store).
    const Evaluator e = eval;
    const int f0 = lo_fast, f1 = hi_fast;
    if constexpr (std::is_pointer_v<std::decay_t<decltype(to)>>) {
      EBISU_KOKKOS_VECTOR_LOOP
      for (int f = f0; f < f1; ++f) to[f] = e(row_reads(from, f), row_reads(field[K], f)...);
    } else {
      constexpr std::size_t outputs = sizeof(to.row) / sizeof(to.row[0]);
      EBISU_KOKKOS_IVDEP_LOOP
      for (int f = f0; f < f1; ++f) to.store(f, e(row_reads(from, f), row_reads(field[K], f)...), std::make_index_sequence<outputs>{});
    }
  }
};

// Launch bounds of the interior step. On GPUs the 3-D step is held to 6
// blocks of 128 threads (its 32x4x1 tile) per SM, i.e. at most 80 registers:
// left alone, nvcc gave the 4-cell step 86 registers for poisson (5 blocks,
// 28% warps active against the plain loop's 80 registers and 34%). H200,
// fp64, same-run ratios to the best plain loop, without -> with: poisson 128^3
// 0.92 -> 1.00x, 256^3 0.87 -> 1.01x; j3d7pt 128^3 0.99 -> 1.07x; heat3d-var
// 2560x288x384 0.87 -> 1.00x; j3d27pt 128^3 1.14 -> 1.02x (its only loss).
// The 2-D step keeps the compiler's choice (j2d5pt 4096^2 0.99 -> 0.96x with it).
template <class ExecSpace, int Rank>
using GenericStepBounds =
    std::conditional_t<!runs_on_host<ExecSpace> && Rank == 3, Kokkos::LaunchBounds<kGpuTileThreads, 6>,
                       Kokkos::LaunchBounds<>>;

// The GPU step's form: the knob's, else 4 cells per tiled item only when the
// GPU has more than enough threads without it (H200: 1024^2 +27% with 4 cells
// per item, 512^2 and 64^3 -3..-11%, but j3d17pt and poisson 64^3 +18%; the
// flat form wins for j3d27pt 128^3: Backend::automatic on CUDA times the forms
// where unsure).
template <class ExecSpace>
GenericStep generic_step_form(const ExecSpace& space, long interior_cells, GenericStep knob) {
  if (knob != GenericStep::automatic) return knob;
  return interior_cells >= 2L * space.concurrency() ? GenericStep::tiled_4cells : GenericStep::tiled;
}

// The stencil bound to the scalar and to the kinds of the call's fields.
template <class Scalar, class Stencil, class FieldView, class... Kinds>
auto bind_evaluator(const Stencil& stencil, const FieldViews<FieldView, Kinds...>&) {
  return stencil.template bind<Scalar, Kinds...>();
}

/// Runs the steps on a ring of buffers (state_ring.hpp): `steps` steps from
/// slot 0, step s reading levels s, s-1, ... of every field and writing slot
/// s + 1; the newest level ends `steps` slots on. `fields`: the call's
/// read-only fields as Views of ViewType::const_type (none by default).
template <class ExecSpace, class Stencil, class ViewType, int NumFields, int RingSize, class Fields = NoFields>
StencilOutcome run_generic_ring(const std::string& label, const StencilPolicy<ExecSpace>& policy,
                                const Stencil& stencil, const StateRing<ViewType, NumFields, RingSize>& ring,
                                const Fields& fields = Fields{}) {
  constexpr int rank = view_rank<ViewType>;
  constexpr int radius = Stencil::radius;
  constexpr int levels = RingSize - 1;
  constexpr int extra = NumFields * levels - 1;  // state Views the step reads besides field 0's newest level
  using Scalar = typename ViewType::non_const_value_type;
  using Layout = typename ViewType::array_layout;
  using ConstView = typename ViewType::const_type;
  using Outputs = StepOutputs<ViewType, NumFields>;
  using AllFields = StateStepFields<Stencil, ConstView, extra, Fields>;
  const ExecSpace& space = policy.space();
  const int steps = policy.steps();

  StencilOutcome outcome;
  StencilReport& report = outcome.report;
  report.backend = Backend::generic;
  report.temporal_depth = 1;
  report.launches = steps;
  report.plan = "generic: one Kokkos dispatch per step";
  if (NumFields > 1 || levels > 1) {
    report.plan += " (" + std::to_string(NumFields) + " state field" + (NumFields > 1 ? "s" : "") + ", " +
                   std::to_string(levels) + " time level" + (levels > 1 ? "s" : "") + ")";
  }
  if (steps == 0) return outcome;

  int lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  const ViewType& u = ring.buffers[0];
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
  static_assert(Fields::size == 0 || std::is_same_v<typename Fields::view_type, ConstView>,
                "EbisuKokkos: fields reach run_generic as Views of the state's const View type");
  // What step `done` (0-based) reads and writes: field 0's newest level, the
  // other fields and levels in the functor's order before the read-only fields,
  // and the buffer of each field's next level.
  const auto state_fields = [&](int done) {
    std::array<ConstView, static_cast<std::size_t>(extra)> views = make_state_reads<ConstView, extra>(
        [&](int k) -> const ViewType& { return ring.level((k + 1) / levels, (k + 1) % levels, done); });
    return step_fields<AllFields>(views, fields);
  };
  const auto outputs = [&](int done) -> Outputs {
    if constexpr (NumFields == 1) {
      return ring.target(0, done);
    } else {
      return make_outputs<ViewType, NumFields>([&](int f) -> const ViewType& { return ring.target(f, done); });
    }
  };
  const auto eval = bind_evaluator<Scalar>(stencil, state_fields(0));
  // Fixed frames: each new level's frame cells keep the newest level's values.
  // A buffer gets them just before its first write (the older levels it holds
  // until then may still be read).
  const auto copy_frames = [&](int done) {
    for (int f = 0; f < NumFields; ++f) copy_frame(space, ring.target(f, done), ring.level(f, 0, 0), radius);
  };
  // Cells next to a periodic or mirror side: thin slabs with a mapped accessor.
  const BoundaryMap map = boundary_map(u, policy.boundaries());
  const EdgeSlabs slabs = edge_slabs<rank>(map, radius);
  using EdgeStep = StencilStep<decltype(eval), ConstView, Outputs, MappedReads, AllFields>;
  const std::string edge_label = "EbisuKokkos::generic_edges::" + label;
  const auto issue_edges = [&](const ExecSpace& on, int done) {
    for (int k = 0; k < slabs.count; ++k) {
      Kokkos::parallel_for(edge_label, light(box_policy<ExecSpace, Layout, rank>(on, slabs.lo[k], slabs.hi[k])),
                           EdgeStep{state_fields(done), ring.level(0, 0, done), outputs(done), eval, MappedReads{map}});
    }
  };
  const int per_step = 1 + slabs.count;
  report.launches = steps * per_step;
  const bool edges_replayable = sizeof(EdgeStep) <= kernel_argument_bytes;
  const std::string step_label = "EbisuKokkos::generic::" + label;
  using StepBounds = GenericStepBounds<ExecSpace, rank>;
  // Steps are issued in order; `issue(on, n)` goes on from the last one issued.
  int issued = 0;
  // The first levels - 1 steps each need a frame copy before them; the loop
  // (possibly replayed, StepLoop) gets the rest, a whole number of ring turns
  // per replay.
  const int lead = std::min(levels - 1, steps);
  const auto run_steps = [&](const auto& issue, bool replayable) {
    for (int s = 0; s < lead; ++s) {
      copy_frames(s);
      issue(space, 1);
    }
    if (steps > lead) {
      copy_frames(lead);
      return StepLoop<ExecSpace>::run(space, steps - lead, per_step, replayable && edges_replayable, issue, RingSize);
    }
    return std::string();
  };
  std::string loop_note;
  GenericStep form = GenericStep::tiled;  // host spaces and 1-D: the one form there is
  if constexpr (!runs_on_host<ExecSpace> && rank >= 2) {
    long interior = 1;
    for (int a = 0; a < rank; ++a) interior *= hi[a] - lo[a];
    form = generic_step_form(space, interior, policy.knobs().generic_step);
    // The flat form numbers the cells in 32 bits (its index arithmetic is what
    // makes it cheap); larger interiors take the tiled form.
    if (form == GenericStep::flat && interior > static_cast<long>(INT32_MAX)) {
      form = GenericStep::tiled_4cells;
      report.plan += ", flat form not taken (more than 2^31-1 interior cells)";
    }
  }
  if constexpr (!runs_on_host<ExecSpace> && rank >= 2) {
    constexpr bool right = std::is_same_v<Layout, Kokkos::LayoutRight>;
    constexpr int slow = right ? 0 : rank - 1;
    if (form == GenericStep::flat) {
      using Step = FlatStencilStep<decltype(eval), ConstView, Outputs, right, AllFields>;
      Kokkos::Array<int, 3> first{}, count{};
      int cells = 1;
      for (int a = 0; a < 3; ++a) {
        first[a] = lo[a];
        count[a] = hi[a] - lo[a];
        if (a < rank) cells *= count[a];
      }
      const auto issue = [&](const ExecSpace& on, int n) {
        const auto range = light(Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int>>(on, 0, cells));
        for (int s = 0; s < n; ++s, ++issued) {
          Kokkos::parallel_for(step_label, range,
                               Step{state_fields(issued), ring.level(0, 0, issued), outputs(issued), eval, first, count});
          issue_edges(on, issued);
        }
      };
      loop_note = run_steps(issue, sizeof(Step) <= kernel_argument_bytes);
    }
    if (form == GenericStep::tiled_4cells) {
      int groups_hi[3] = {hi[0], hi[1], hi[2]};
      groups_hi[slow] = lo[slow] + (hi[slow] - lo[slow] + kCoarseCells - 1) / kCoarseCells;
      using Step = CoarseStencilStep<decltype(eval), ConstView, Outputs, slow, AllFields>;
      const auto issue = [&](const ExecSpace& on, int n) {
        const auto groups = light(box_policy<ExecSpace, Layout, rank, StepBounds>(on, lo, groups_hi));
        for (int s = 0; s < n; ++s, ++issued) {
          Kokkos::parallel_for(step_label, groups,
                               Step{state_fields(issued), ring.level(0, 0, issued), outputs(issued), eval, lo[slow],
                                    hi[slow]});
          issue_edges(on, issued);
        }
      };
      loop_note = run_steps(issue, sizeof(Step) <= kernel_argument_bytes);
    }
  }
  if constexpr (runs_on_host<ExecSpace> && rank >= 2) {
    constexpr bool right = std::is_same_v<Layout, Kokkos::LayoutRight>;
    constexpr int slow = right ? 0 : rank - 1, fast = right ? rank - 1 : 0;
    using Step = RowStencilStep<decltype(eval), ConstView, Outputs, right, AllFields>;
    const int rows = (hi[slow] - lo[slow]) * (rank == 3 ? hi[1] - lo[1] : 1);
    const auto issue = [&](const ExecSpace& on, int n) {
      const Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int>> range(on, rank == 3 ? 0 : lo[slow],
                                                                         rank == 3 ? rows : hi[slow]);
      for (int s = 0; s < n; ++s, ++issued) {
        Kokkos::parallel_for(step_label, range,
                             Step{state_fields(issued), ring.level(0, 0, issued), outputs(issued), eval, lo[fast],
                                  hi[fast], lo[slow], lo[1], hi[1] - lo[1]});
        issue_edges(on, issued);
      }
    };
    loop_note = run_steps(issue, sizeof(Step) <= kernel_argument_bytes);
    report.plan += ", one vectorised row per work item";
  } else if (form == GenericStep::tiled) {
    using Step = StencilStep<decltype(eval), ConstView, Outputs, DirectReads, AllFields>;
    const auto issue = [&](const ExecSpace& on, int n) {
      const auto interior = light(box_policy<ExecSpace, Layout, rank, StepBounds>(on, lo, hi));
      for (int s = 0; s < n; ++s, ++issued) {
        Kokkos::parallel_for(step_label, interior,
                             Step{state_fields(issued), ring.level(0, 0, issued), outputs(issued), eval, DirectReads{}});
        issue_edges(on, issued);
      }
    };
    loop_note = run_steps(issue, sizeof(Step) <= kernel_argument_bytes);
  }
  report.plan += std::string(form == GenericStep::tiled_4cells ? ", 4 cells per work item"
                             : form == GenericStep::flat       ? ", flat range of cells"
                                                               : "") +
                 (slabs.count > 0 ? ", periodic/mirror edges in " + std::to_string(slabs.count) + " slab dispatches per step"
                                  : std::string()) +
                 loop_note;
  outcome.result_in_scratch = steps % 2 == 1;
  return outcome;
}

/// One field on (u, scratch): the ring of those two buffers; the outcome says
/// which of them holds step T.
template <class ExecSpace, class Stencil, class ViewType, class Fields = NoFields>
StencilOutcome run_generic(const std::string& label, const StencilPolicy<ExecSpace>& policy, const Stencil& stencil,
                          const ViewType& u, const ViewType& scratch, const Fields& fields = Fields{}) {
  return run_generic_ring(label, policy, stencil, StateRing<ViewType, 1, 2>{{u, scratch}}, fields);
}

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
