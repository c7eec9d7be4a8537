#ifndef EBISU_KOKKOS_IMPL_HOST_EBISU_HOST_HPP
#define EBISU_KOKKOS_IMPL_HOST_EBISU_HOST_HPP

// Temporal blocking on host execution spaces (OpenMP, Threads, Serial): the
// EBISU idea of pipelined stages over a streamed axis, with a CPU core's L2 in
// the role of the SM's shared memory.
//
// A work item owns a tile of the (middle x fast) cross-section and a run of
// the slow axis. Its thread loads the tile widened by H = depth x radius
// cells on each side, one row (plane in 3-D) at a time, and pushes every row
// through `depth` stages: stage k computes row y - k R of step k from the last
// 2R+1 rows of step k-1, kept in a ring. Only the input and the last stage's
// owned cells touch memory: 16 / depth bytes per cell update instead of 16.
// The halo columns and the first rows of each run are computed redundantly
// (no synchronisation between work items). Rows are contiguous along the fast
// axis for either layout (an axis map), so the inner loop is a unit-stride
// loop the compiler vectorises; cells of the Dirichlet frame are copied from
// the previous stage, never computed.
// Plan (depth, tiles, runs): performance_model_host.

#include <ebisu_kokkos/impl/axis_map.hpp>
#include <ebisu_kokkos/impl/compat.hpp>
#include <ebisu_kokkos/impl/ebisu_backend_fwd.hpp>
#include <ebisu_kokkos/impl/generic_backend.hpp>
#include <ebisu_kokkos/impl/performance_model_host.hpp>
#include <ebisu_kokkos/impl/view_access.hpp>
#include <ebisu_kokkos/policy.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

// Tells the compiler the row loops carry no dependence (they read one ring
// and write another) so that it vectorises them.
#if defined(_OPENMP)
#define EBISU_KOKKOS_VECTOR_LOOP _Pragma("omp simd")
#elif defined(__GNUC__) && !defined(__clang__)
#define EBISU_KOKKOS_VECTOR_LOOP _Pragma("GCC ivdep")
#else
#define EBISU_KOKKOS_VECTOR_LOOP
#endif

namespace EbisuKokkos {
namespace Impl {
namespace Host {

// The 2R+1 rows of one step around the row being computed.
template <class Scalar, int R>
struct RowWindow {
  const Scalar* row[2 * R + 1];  // row[R + ds]: the plane at slow offset ds
};

// Neighbour reads of cell idx (m * pitch + f) of the current plane.
template <class Map, class Scalar, int R>
struct WindowAccessor {
  const RowWindow<Scalar, R>& w;
  long idx;
  long pitch;

  template <int D0, int D1, int D2>
  KOKKOS_FORCEINLINE_FUNCTION Scalar get() const {
    constexpr int ds = Map::template ds<D0, D1, D2>;
    constexpr int dm = Map::template dm<D0, D1, D2>;
    constexpr int df = Map::template df<D0, D1, D2>;
    static_assert(ds >= -R && ds <= R, "EbisuKokkos: offset beyond the stencil radius");
    return w.row[R + ds][idx + dm * pitch + df];
  }
};

struct Geometry {
  long n[3];
  long src_stride[2], dst_stride[2];  // slow and middle strides (fast: 1)
  int tile[3];
  int items_per_axis[3];
  int depth;      // steps of this launch (<= the plan's depth, which sized the rings)
  int max_depth;  // the plan's depth
};

template <class Map, int R, class Eval, class Scalar>
struct BlockedSteps {
  Eval eval;
  const Scalar* src;
  Scalar* dst;
  Geometry g;

  static constexpr int Q = 2 * R + 1;  // rows per ring
  static constexpr bool has_mid = Map::rank == 3;

  static long scratch_elements(const Geometry& g) {
    const int h = g.max_depth * R;
    const long wf = std::min<long>(g.n[2], g.tile[2] + 2L * h);
    const long wm = has_mid ? std::min<long>(g.n[1], g.tile[1] + 2L * h) : 1;
    return (static_cast<long>(g.max_depth) * Q + 1) * wf * wm;
  }

  template <class Member>
  void operator()(const Member& member) const {
    const long bytes = scratch_elements(g) * static_cast<long>(sizeof(Scalar));
    Scalar* scratch = static_cast<Scalar*>(member.team_scratch(1).get_shmem(bytes));
    run_item(member.league_rank(), scratch);
  }

  void run_item(int item, Scalar* scratch) const {
    const int d = g.depth, h = d * R;
    const int i2 = item % g.items_per_axis[2];
    const int i1 = (item / g.items_per_axis[2]) % g.items_per_axis[1];
    const int i0 = item / (g.items_per_axis[2] * g.items_per_axis[1]);
    const long s0 = static_cast<long>(i0) * g.tile[0], s1 = std::min(g.n[0], s0 + g.tile[0]);
    const long m0 = static_cast<long>(i1) * g.tile[1], m1 = std::min(g.n[1], m0 + g.tile[1]);
    const long f0 = static_cast<long>(i2) * g.tile[2], f1 = std::min(g.n[2], f0 + g.tile[2]);
    // The loaded cross-section: the owned tile plus the halo, clipped to the domain.
    const int hm = has_mid ? h : 0;
    const long lm0 = std::max(0L, m0 - hm), lm1 = std::min(g.n[1], m1 + hm);
    const long lf0 = std::max(0L, f0 - h), lf1 = std::min(g.n[2], f1 + h);
    const long wm = lm1 - lm0, wf = lf1 - lf0, plane = wm * wf;
    constexpr int rm = has_mid ? R : 0;

    // Stage k's ring is ring(k) (k = 0: the input); the last stage writes `out`.
    auto ring = [&](int k) { return scratch + static_cast<long>(k) * Q * plane; };
    Scalar* out = scratch + static_cast<long>(d) * Q * plane;
    auto slot = [&](Scalar* r, long c) { return r + (c % Q) * plane; };
    std::fill(scratch, scratch + (static_cast<long>(d) * Q + 1) * plane, Scalar(0));

    const long ns = g.n[0];
    const long y0 = std::max(0L, s0 - h);
    for (long y = y0; y < s1 + h; ++y) {
      if (y < ns) {  // input row y into ring 0
        Scalar* to = slot(ring(0), y);
        for (long m = 0; m < wm; ++m)
          std::memcpy(to + m * wf, src + y * g.src_stride[0] + (lm0 + m) * g.src_stride[1] + lf0,
                      static_cast<std::size_t>(wf) * sizeof(Scalar));
      }
      for (int k = 1; k <= d; ++k) {
        const long c = y - static_cast<long>(k) * R;
        if (c < y0 || c >= ns) continue;
        Scalar* const prev = ring(k - 1);
        Scalar* const to = k < d ? slot(ring(k), c) : out;
        const Scalar* const same = slot(prev, c);
        if (c < R || c >= ns - R) {  // a frame row keeps its value
          std::memcpy(to, same, static_cast<std::size_t>(plane) * sizeof(Scalar));
        } else {
          RowWindow<Scalar, R> w;
          for (int ds = -R; ds <= R; ++ds) w.row[R + ds] = slot(prev, c + ds);
          for (long m = 0; m < wm; ++m) {
            Scalar* const t = to + m * wf;
            const Scalar* const s = same + m * wf;
            if (m < rm || m >= wm - rm) {  // frame (or halo edge) cells keep their value
              std::memcpy(t, s, static_cast<std::size_t>(wf) * sizeof(Scalar));
              continue;
            }
            for (int f = 0; f < R && f < wf; ++f) t[f] = s[f];
            for (long f = std::max<long>(R, wf - R); f < wf; ++f) t[f] = s[f];
            const long base = m * wf;
            const Eval& e = eval;
            EBISU_KOKKOS_VECTOR_LOOP
            for (long f = R; f < wf - R; ++f) t[f] = e(WindowAccessor<Map, Scalar, R>{w, base + f, wf});
          }
        }
        if (k == d && c >= s0 && c < s1) {  // owned cells of the last stage to memory
          for (long m = m0; m < m1; ++m)
            std::memcpy(dst + c * g.dst_stride[0] + m * g.dst_stride[1] + f0, out + (m - lm0) * wf + (f0 - lf0),
                        static_cast<std::size_t>(f1 - f0) * sizeof(Scalar));
        }
      }
    }
  }
};

// 1-D: a tile of the line widened by H = depth x radius cells, `depth` steps
// ping-ponged between two buffers in L2 (a row is one cell, so the streamed
// pipeline of rank 2 and 3 would not vectorise), then its owned cells stored.
template <class Scalar>
struct LineAccessor {
  const Scalar* p;
  long i;
  template <int D0, int D1, int D2>
  KOKKOS_FORCEINLINE_FUNCTION Scalar get() const {
    return p[i + D0];
  }
};

template <int R, class Eval, class Scalar>
struct BlockedSteps1D {
  Eval eval;
  const Scalar* src;
  Scalar* dst;
  Geometry g;  // n[0], tile[0], depth, max_depth

  static long scratch_elements(const Geometry& g) {
    return 2 * std::min<long>(g.n[0], g.tile[0] + 2L * g.max_depth * R);
  }

  template <class Member>
  void operator()(const Member& member) const {
    const long bytes = scratch_elements(g) * static_cast<long>(sizeof(Scalar));
    Scalar* a = static_cast<Scalar*>(member.team_scratch(1).get_shmem(bytes));
    Scalar* b = a + scratch_elements(g) / 2;
    const long n = g.n[0], h = static_cast<long>(g.depth) * R;
    const long s0 = static_cast<long>(member.league_rank()) * g.tile[0], s1 = std::min(n, s0 + g.tile[0]);
    const long l0 = std::max(0L, s0 - h), w = std::min(n, s1 + h) - l0;
    std::memcpy(a, src + l0, static_cast<std::size_t>(w) * sizeof(Scalar));
    for (int k = 0; k < g.depth; ++k) {
      // The outer R cells keep their value: the Dirichlet frame at a domain
      // edge, cells no owned cell depends on any more elsewhere.
      for (long i = 0; i < R && i < w; ++i) b[i] = a[i];
      for (long i = std::max<long>(R, w - R); i < w; ++i) b[i] = a[i];
      const Eval& e = eval;
      EBISU_KOKKOS_VECTOR_LOOP
      for (long i = R; i < w - R; ++i) b[i] = e(LineAccessor<Scalar>{a, i});
      std::swap(a, b);
    }
    std::memcpy(dst + s0, a + (s0 - l0), static_cast<std::size_t>(s1 - s0) * sizeof(Scalar));
  }
};

// What the blocked path needs to know of a View's rank: the kernel (pipelined
// for rank 2 and 3, ping-ponged tiles for rank 1), the extents in kernel axis
// order and the strides of the two buffers.
template <class ViewType, class Eval, int R, int Rank = view_rank<ViewType>>
struct RankTraits {
  static constexpr bool right = std::is_same_v<typename ViewType::array_layout, Kokkos::LayoutRight>;
  using Map = AxisMap<Rank, right>;
  using Steps = BlockedSteps<Map, R, Eval, typename ViewType::non_const_value_type>;
  static void extents(const ViewType& u, long (&n)[3]) { kernel_extents<Map>(u, n); }
  static void strides(Geometry& g, const ViewType& from, const ViewType& to) {
    for (int a = 0; a < 2; ++a) {
      const int v = Map::view_index(a);
      g.src_stride[a] = v < 0 ? 0 : static_cast<long>(from.stride(v));
      g.dst_stride[a] = v < 0 ? 0 : static_cast<long>(to.stride(v));
    }
  }
};
template <class ViewType, class Eval, int R>
struct RankTraits<ViewType, Eval, R, 1> {
  using Steps = BlockedSteps1D<R, Eval, typename ViewType::non_const_value_type>;
  static void extents(const ViewType& u, long (&n)[3]) {
    n[0] = static_cast<long>(u.extent(0));
    n[1] = n[2] = 1;
  }
  static void strides(Geometry&, const ViewType&, const ViewType&) {}  // contiguous
};

/// The blocked host path for one (execution space, stencil, View type).
template <class ExecSpace, class Stencil, class ViewType>
struct HostBlocking {
  using Scalar = typename ViewType::non_const_value_type;
  using Eval = decltype(std::declval<const Stencil&>().template bind<Scalar>());
  using Traits = RankTraits<ViewType, Eval, Stencil::radius>;
  using Steps = typename Traits::Steps;

  static PlanHost plan(const StencilPolicy<ExecSpace>& policy, const ViewType& u, bool forced) {
    long n[3];
    Traits::extents(u, n);
    const HostMachine machine = host_machine(policy.space().concurrency());
    return choose_plan_host(machine, stencil_model<Stencil>(static_cast<int>(sizeof(Scalar))), n, policy.steps(),
                            policy.knobs(), forced);
  }

  static StencilOutcome run(const std::string& label, const StencilPolicy<ExecSpace>& policy, const Stencil& stencil,
                            const ViewType& u, const ViewType& scratch, const PlanHost& p) {
    StencilOutcome outcome;
    StencilReport& report = outcome.report;
    report.backend = Backend::ebisu;
    report.temporal_depth = p.depth;
    report.plan = p.describe();
    const int steps = policy.steps();
    if (steps == 0) return outcome;

    Geometry g{};
    Traits::extents(u, g.n);
    for (int a = 0; a < 3; ++a) {
      g.tile[a] = p.tile[a];
      g.items_per_axis[a] = p.items_per_axis[a];
    }
    g.max_depth = p.depth;
    const long bytes = Steps::scratch_elements(g) * static_cast<long>(sizeof(Scalar));
    using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>>;
    const Policy items = Policy(policy.space(), p.items, 1).set_scratch_size(1, Kokkos::PerTeam(bytes));
    const std::string step_label = "EbisuKokkos::host_blocking::" + label;
    ViewType from = u, to = scratch;
    for (int done = 0; done < steps;) {
      g.depth = std::min(p.depth, steps - done);
      Traits::strides(g, from, to);
      Kokkos::parallel_for(step_label, items, Steps{stencil.template bind<Scalar>(), from.data(), to.data(), g});
      ++report.launches;
      done += g.depth;
      std::swap(from, to);
    }
    outcome.result_in_scratch = from.data() != u.data();
    return outcome;
  }
};

}  // namespace Host

template <class ExecSpace, class Stencil, class ViewType>
inline constexpr bool host_blocking_supports =
    runs_on_host<ExecSpace> && view_rank<ViewType> >= 1 && view_rank<ViewType> <= 3 &&
    is_accessible_from<ExecSpace, typename ViewType::memory_space> &&
    (std::is_same_v<typename ViewType::array_layout, Kokkos::LayoutLeft> ||
     std::is_same_v<typename ViewType::array_layout, Kokkos::LayoutRight>);

// Host execution spaces: Backend::ebisu runs the blocked path; automatic runs
// it where the plan expects it to pay and the generic path otherwise.
template <class ExecSpace, class Stencil, class ViewType>
struct EbisuBackend<ExecSpace, Stencil, ViewType,
                    std::enable_if_t<host_blocking_supports<ExecSpace, Stencil, ViewType>>> {
  static constexpr bool available = true;
  static StencilOutcome run(const std::string& label, const StencilPolicy<ExecSpace>& policy, const Stencil& stencil,
                            const ViewType& u, const ViewType& scratch) {
    using Blocking = Host::HostBlocking<ExecSpace, Stencil, ViewType>;
    const bool forced = policy.backend() == Backend::ebisu;
    const PlanHost plan = Blocking::plan(policy, u, forced);
    if (!plan.blocked) {
      StencilOutcome generic = run_generic(label, policy, stencil, u, scratch);
      generic.report.plan = "generic (" + plan.describe() + ")";
      return generic;
    }
    return Blocking::run(label, policy, stencil, u, scratch, plan);
  }
};

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
