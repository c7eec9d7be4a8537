#ifndef EBISU_BENCH_PLAIN_VARIANTS_HPP
#define EBISU_BENCH_PLAIN_VARIANTS_HPP

// "What users write today": one Kokkos dispatch per time step and a buffer
// swap, with the stencil's offsets and coefficients hard-wired (unrolled at
// compile time from the LinearStencil), independent of parallel_stencil.
//
//  - mdrange-default / mdrange-tile-FxN[xS]: MDRangePolicy over the interior,
//    iteration order matched to the layout, Kokkos' default tiles or a given
//    tile (F cells along the contiguous index, N along the next, S the slowest);
//  - mdrange-coarse4-tile-...: MDRange over the interior with 4 cells per
//    thread along the slowest index (thread coarsening: 4 independent loads in
//    flight per thread instead of 1, the usual fix for a memory-bound kernel
//    with too few bytes in flight);
//  - range-interior: flattened RangePolicy over the interior cells, index div/mod;
//  - range-branch: flattened RangePolicy over all cells, boundary cells copied;
//  - openmp-simd-loop (host spaces, OpenMP builds): the same loop in plain C++
//    with OpenMP, no Kokkos (openmp_loop_variant.hpp);
//  - graph-<base> (base = mdrange-tile-32x4[x1], mdrange-coarse4-tile-32x4[x1]):
//    the same step loop recorded once (untimed) as a Kokkos::Experimental::Graph
//    of G steps (G even: it ends in the buffer it starts from) and replayed
//    T / G times, the T mod G remaining steps as ordinary dispatches. What a
//    careful user does when the loop is launch-bound (small domains): on CUDA
//    a graph node costs ~0.5 us instead of ~3.4 us per launch.
//
// Interior-only variants rely on the scratch buffer's boundary frame holding
// the input (set once, untimed, as a user does it once per simulation).

#include "cli.hpp"
#include "graph_capture.hpp"
#include "openmp_loop_variant.hpp"
#include "variant.hpp"

#if !EBISU_BENCH_GRAPH_BY_STREAM_CAPTURE
#include <Kokkos_Graph.hpp>
#endif
#include <ebisu_kokkos/impl/offsets.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ebisu_bench {

struct FlatInterior {};
struct FlatBranch {};
struct Coarse {};
constexpr int kCoarseCells = 4;  // cells per thread along the slowest index

template <class Points, class Scalar, class View, int Rank, int Radius>
struct PlainStep {
  using InView = typename View::const_type;
  static constexpr bool left = std::is_same_v<typename View::array_layout, Kokkos::LayoutLeft>;
  static constexpr int np = Points::size;

  InView in;
  View out;
  Kokkos::Array<Scalar, np> c;
  Kokkos::Array<int, 3> ext;   // full extents in View index order (1 beyond the rank)
  Kokkos::Array<int, 3> inner; // interior extents

  template <int K>
  KOKKOS_FORCEINLINE_FUNCTION Scalar term(int i0, int i1, int i2) const {
    using P = EbisuKokkos::Impl::Point<Points, K>;
    if constexpr (Rank == 1) {
      return c[K] * in(i0 + P::d0);
    } else if constexpr (Rank == 2) {
      return c[K] * in(i0 + P::d0, i1 + P::d1);
    } else {
      return c[K] * in(i0 + P::d0, i1 + P::d1, i2 + P::d2);
    }
  }
  template <int... K>
  KOKKOS_FORCEINLINE_FUNCTION Scalar sum(int i0, int i1, int i2, std::integer_sequence<int, K...>) const {
    return (term<K>(i0, i1, i2) + ...);
  }
  KOKKOS_FORCEINLINE_FUNCTION Scalar stencil(int i0, int i1, int i2) const {
    return sum(i0, i1, i2, std::make_integer_sequence<int, np>{});
  }
  KOKKOS_FORCEINLINE_FUNCTION void store(int i0, int i1, int i2, Scalar v) const {
    if constexpr (Rank == 1) {
      out(i0) = v;
    } else if constexpr (Rank == 2) {
      out(i0, i1) = v;
    } else {
      out(i0, i1, i2) = v;
    }
  }
  KOKKOS_FORCEINLINE_FUNCTION Scalar load(int i0, int i1, int i2) const {
    if constexpr (Rank == 1) {
      return in(i0);
    } else if constexpr (Rank == 2) {
      return in(i0, i1);
    } else {
      return in(i0, i1, i2);
    }
  }
  // Linear index -> (i0, i1, i2), contiguous index fastest.
  KOKKOS_FORCEINLINE_FUNCTION void split(int idx, const Kokkos::Array<int, 3>& n, int& i0, int& i1, int& i2) const {
    i0 = i1 = i2 = 0;
    if constexpr (Rank == 1) {
      i0 = idx;
    } else if constexpr (Rank == 2) {
      if constexpr (left) {
        i0 = idx % n[0];
        i1 = idx / n[0];
      } else {
        i1 = idx % n[1];
        i0 = idx / n[1];
      }
    } else {
      if constexpr (left) {
        i0 = idx % n[0];
        const int t = idx / n[0];
        i1 = t % n[1];
        i2 = t / n[1];
      } else {
        i2 = idx % n[2];
        const int t = idx / n[2];
        i1 = t % n[1];
        i0 = t / n[1];
      }
    }
  }

  // MDRangePolicy
  KOKKOS_FORCEINLINE_FUNCTION void operator()(int i0, int i1) const { store(i0, i1, 0, stencil(i0, i1, 0)); }
  KOKKOS_FORCEINLINE_FUNCTION void operator()(int i0, int i1, int i2) const {
    store(i0, i1, i2, stencil(i0, i1, i2));
  }
  // MDRange with kCoarseCells cells per thread along the slowest index (its
  // MDRange index counts groups of cells).
  KOKKOS_FORCEINLINE_FUNCTION void operator()(Coarse, int i0, int i1) const {
    constexpr int slow = left ? 1 : 0;
    int i[2] = {i0, i1};
    const int first = Radius + kCoarseCells * (i[slow] - Radius);
#pragma unroll
    for (int k = 0; k < kCoarseCells; ++k) {
      i[slow] = first + k;
      if (i[slow] < ext[slow] - Radius) store(i[0], i[1], 0, stencil(i[0], i[1], 0));
    }
  }
  KOKKOS_FORCEINLINE_FUNCTION void operator()(Coarse, int i0, int i1, int i2) const {
    constexpr int slow = left ? 2 : 0;
    int i[3] = {i0, i1, i2};
    const int first = Radius + kCoarseCells * (i[slow] - Radius);
#pragma unroll
    for (int k = 0; k < kCoarseCells; ++k) {
      i[slow] = first + k;
      if (i[slow] < ext[slow] - Radius) store(i[0], i[1], i[2], stencil(i[0], i[1], i[2]));
    }
  }
  // Flattened RangePolicy over the interior.
  KOKKOS_FORCEINLINE_FUNCTION void operator()(FlatInterior, int idx) const {
    int i0, i1, i2;
    split(idx, inner, i0, i1, i2);
    i0 += Radius;
    if constexpr (Rank >= 2) i1 += Radius;
    if constexpr (Rank >= 3) i2 += Radius;
    store(i0, i1, i2, stencil(i0, i1, i2));
  }
  // Flattened RangePolicy over every cell with a boundary branch.
  KOKKOS_FORCEINLINE_FUNCTION void operator()(FlatBranch, int idx) const {
    int i[3];
    split(idx, ext, i[0], i[1], i[2]);
    bool boundary = false;
    for (int a = 0; a < Rank; ++a) boundary = boundary || i[a] < Radius || i[a] >= ext[a] - Radius;
    store(i[0], i[1], i[2], boundary ? load(i[0], i[1], i[2]) : stencil(i[0], i[1], i[2]));
  }
};

/// Tile (fast, next, slow) -> MDRange tile in View index order for this layout.
template <int Rank, bool Left>
Kokkos::Array<int, 3> tile_in_index_order(const int (&t)[3]) {
  Kokkos::Array<int, 3> tile{{1, 1, 1}};
  for (int k = 0; k < Rank; ++k) tile[Left ? k : Rank - 1 - k] = t[k];
  return tile;
}

/// Steps per graph: `requested` (even) if given, else the largest even divisor
/// of T up to 64 when it is at least half of min(64, T), else the largest even
/// number up to min(64, T) (the rest of T runs as ordinary dispatches). 0 when T < 2.
inline int graph_block_steps(int steps, int requested) {
  const int cap = std::min(requested > 0 ? requested : 64, steps - steps % 2);
  if (cap < 2 || requested > 0) return cap < 2 ? 0 : cap;
  for (int d = cap; d >= 2 && 2 * d >= cap; d -= 2) {
    if (steps % d == 0) return d;
  }
  return cap;
}

#if !EBISU_BENCH_GRAPH_BY_STREAM_CAPTURE
// Kokkos 4.x can instantiate a graph before its first submit (3.4 does it in
// the first submit, which is the untimed warm-up run here).
template <class G, class = void>
struct HasInstantiate : std::false_type {};
template <class G>
struct HasInstantiate<G, std::void_t<decltype(std::declval<G&>().instantiate())>> : std::true_type {};

/// A Kokkos::Experimental::Graph of `g` Jacobi steps on (u, scratch), the first
/// reading u (g even: the last writes u). Public Kokkos API only.
template <class Space, class Step, class View, class Policy>
std::shared_ptr<Kokkos::Experimental::Graph<Space>> build_step_graph(const std::string& label, const Policy& policy,
                                                                     const Step& proto, const View& u,
                                                                     const View& scratch, int g) {
  auto graph = std::make_shared<Kokkos::Experimental::Graph<Space>>(
      Kokkos::Experimental::create_graph(Space(), [&](const auto& root) {
        Kokkos::Experimental::GraphNodeRef<Space> node = root;  // type-erased: one chain of g nodes
        View a = u, b = scratch;
        for (int s = 0; s < g; ++s) {
          Step f = proto;
          f.in = a;
          f.out = b;
          node = node.then_parallel_for(label, policy, f);
          std::swap(a, b);
        }
      }));
  if constexpr (HasInstantiate<Kokkos::Experimental::Graph<Space>>::value) graph->instantiate();
  return graph;
}
#endif

/// The plain-Kokkos variants for a stencil on (u, scratch); `input` is the saved
/// input. Only those selected by --plain-variants are built.
template <class Scalar, class Stencil, class View>
std::vector<Variant> make_plain_variants(const Stencil& stencil, const View& input, const View& u,
                                         const View& scratch, int steps, const Options& options) {
  using Space = Kokkos::DefaultExecutionSpace;
  constexpr int rank = static_cast<int>(View::rank);
  constexpr int radius = Stencil::radius;
  constexpr bool left = std::is_same_v<typename View::array_layout, Kokkos::LayoutLeft>;
  constexpr bool on_host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Space::memory_space>::accessible;
  using Step = PlainStep<typename Stencil::points, Scalar, View, rank, radius>;

  Step proto;
  for (int k = 0; k < Stencil::num_points; ++k) proto.c[k] = static_cast<Scalar>(stencil.coefficient(k));
  long long interior = 1, cells = 1;
  for (int a = 0; a < 3; ++a) {
    proto.ext[a] = a < rank ? static_cast<int>(u.extent(a)) : 1;
    proto.inner[a] = a < rank ? proto.ext[a] - 2 * radius : 1;
    interior *= proto.inner[a];
    cells *= proto.ext[a];
  }

  // Every rep starts from the saved input in u, and scratch's frame = the input's.
  auto reset = [=]() {
    Kokkos::deep_copy(u, input);
    Kokkos::deep_copy(scratch, input);
  };
  auto output = [=]() -> const void* { return steps % 2 == 0 ? u.data() : scratch.data(); };
  const std::string layout_name = left ? "LayoutLeft" : "LayoutRight";
  const std::string iterate = left ? "Iterate::Left" : "Iterate::Right";

  std::vector<Variant> variants;
  auto add = [&](const std::string& name, std::vector<Param> params, std::function<void()> run) {
    if (!plain_variant_selected(options, name)) return;
    params.insert(params.begin(), text_param("layout", layout_name));
    variants.push_back(Variant{name, "plain-kokkos", params, reset, run, output, {}});
  };
  // What a user writes: one dispatch per step, then swap the buffers.
  auto step_loop = [=](const std::string& label, const auto& policy) {
    return [=]() {
      View a = u, b = scratch;
      for (int s = 0; s < steps; ++s) {
        Step f = proto;
        f.in = a;
        f.out = b;
        Kokkos::parallel_for(label, policy, f);
        std::swap(a, b);
      }
    };
  };
  // The same loop as a graph of G steps replayed T / G times, then T mod G
  // ordinary dispatches (from u again, G being even). Built here, untimed.
  const int graph_steps = graph_block_steps(steps, options.graph_steps);
  auto add_graph = [&](const std::string& base, std::vector<Param> params, const std::string& label,
                       const auto& make_policy) {
    const std::string name = "graph-" + base;
    if (graph_steps < 2 || !plain_variant_selected(options, name)) return;
    const int replays = steps / graph_steps, rest = steps % graph_steps;
    params.push_back(number_param("graph_steps", graph_steps));
    params.push_back(number_param("graph_replays", replays));
    params.push_back(number_param("ordinary_dispatches_after_graphs", rest));
    std::function<void()> run;
    try {
      Kokkos::fence();
      const auto t0 = std::chrono::steady_clock::now();
#if EBISU_BENCH_GRAPH_BY_STREAM_CAPTURE
      // Kokkos' Graph does not compile here: the same loop on a Kokkos::Cuda
      // instance of its own stream, recorded by CUDA stream capture. The
      // light-weight hint makes Kokkos pass the functor as a kernel argument
      // (captured by value) instead of through its one constant-memory or
      // global-memory staging buffer (which a replay would read as it is then).
      if constexpr (!std::is_same_v<Space, Kokkos::Cuda>) {
        throw std::runtime_error("no graph for this execution space in this build");
      } else {
        const Kokkos::Cuda exec = make_capture_space();
        const auto policy =
            Kokkos::Experimental::require(make_policy(exec), Kokkos::Experimental::WorkItemProperty::HintLightWeight);
        auto dispatch = [=](int n) {
          View a = u, b = scratch;
          for (int s = 0; s < n; ++s) {
            Step f = proto;
            f.in = a;
            f.out = b;
            Kokkos::parallel_for(label, policy, f);
            std::swap(a, b);
          }
        };
        dispatch(1);  // outside the capture: the kernel's one-time set-up calls (cache config, lock arrays)
        exec.fence();
        auto graph = std::make_shared<CapturedGraph>(exec, [&]() { dispatch(graph_steps); });
        if (graph->kernel_nodes() != graph_steps || graph->nodes() != graph_steps) {
          throw std::runtime_error("the captured graph has " + std::to_string(graph->nodes()) + " nodes (" +
                                   std::to_string(graph->kernel_nodes()) + " kernels), expected " +
                                   std::to_string(graph_steps) + " kernels");
        }
        params.push_back(text_param("graph", "CUDA graph captured from a Kokkos::Cuda instance's stream "
                                             "(Kokkos 3.4's Graph does not compile with CUDA 13); "
                                             "WorkItemProperty::HintLightWeight"));
        run = [=]() {
          for (int r = 0; r < replays; ++r) graph->launch();
          dispatch(rest);  // on the same stream, after the replays
        };
      }
#else
      const auto policy = make_policy(Space());
      auto graph = build_step_graph<Space>(label, policy, proto, u, scratch, graph_steps);
      params.push_back(text_param("graph", "Kokkos::Experimental::Graph, one chain of then_parallel_for nodes"));
      run = [=]() {
        for (int r = 0; r < replays; ++r) graph->submit();
        View a = u, b = scratch;
        for (int s = 0; s < rest; ++s) {
          Step f = proto;
          f.in = a;
          f.out = b;
          Kokkos::parallel_for(label, policy, f);
          std::swap(a, b);
        }
      };
#endif
      Kokkos::fence();
      params.push_back(number_param(
          "graph_build_s_untimed", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()));
    } catch (const std::exception& ex) {
      const std::string why = std::string("building the graph failed: ") + ex.what();
      run = [why]() { throw std::runtime_error(why); };
    }
    add(name, params, run);
  };

  if constexpr (rank >= 2) {
    constexpr auto order = left ? Kokkos::Iterate::Left : Kokkos::Iterate::Right;
    using Policy = Kokkos::MDRangePolicy<Space, Kokkos::Rank<rank, order, order>, Kokkos::IndexType<int>>;
    std::vector<std::vector<int>> tiles;  // (fast, next, slow); empty = Kokkos default
    tiles.push_back({});
    if constexpr (rank == 2) {
      tiles.insert(tiles.end(), {{32, 4}, {64, 4}, {32, 8}, {128, 2}, {256, 1}});
    } else {
      tiles.insert(tiles.end(), {{32, 4, 1}, {32, 8, 1}, {64, 4, 1}, {32, 2, 2}});
    }
    if (on_host) tiles.push_back({proto.inner[left ? 0 : rank - 1], 1, 1});  // whole rows: the inner loop vectorizes
    // Interior box; `coarse`: the slowest index counts groups of kCoarseCells.
    struct Box {
      typename Policy::point_type begin{}, end{};
      typename Policy::tile_type tile{};
      std::string shape = "default";
    };
    auto make_box = [&](const std::vector<int>& t, bool coarse) {
      Box b;
      for (int a = 0; a < rank; ++a) {
        b.begin[a] = radius;
        b.end[a] = proto.ext[a] - radius;
        b.tile[a] = 0;
      }
      if (coarse) {
        const int slow = left ? rank - 1 : 0;
        b.end[slow] = radius + (proto.inner[slow] + kCoarseCells - 1) / kCoarseCells;
      }
      if (!t.empty()) {
        const int fns[3] = {t[0], t.size() > 1 ? t[1] : 1, t.size() > 2 ? t[2] : 1};
        const auto idx_tile = tile_in_index_order<rank, left>(fns);
        for (int a = 0; a < rank; ++a) b.tile[a] = idx_tile[a];
        b.shape = std::to_string(fns[0]);
        for (int a = 1; a < rank; ++a) b.shape += "x" + std::to_string(fns[a]);
      }
      return b;
    };
    for (const auto& t : tiles) {
      const Box b = make_box(t, false);
      std::string name = t.empty() ? "mdrange-default" : "mdrange-tile-" + b.shape;
      if (on_host && &t == &tiles.back()) name = "mdrange-tile-row";
      const Policy policy(Space(), b.begin, b.end, b.tile);
      const std::vector<Param> params{text_param("policy", "MDRangePolicy"), text_param("iterate", iterate),
                                      text_param("tile_fast_next_slow", b.shape)};
      add(name, params, step_loop("ebisu_bench::mdrange", policy));
      if (name == (rank == 2 ? "mdrange-tile-32x4" : "mdrange-tile-32x4x1")) {
        add_graph(name, params, "ebisu_bench::mdrange_graph",
                  [=](const auto& space) { return Policy(space, b.begin, b.end, b.tile); });
      }
    }
    using CoarsePolicy =
        Kokkos::MDRangePolicy<Space, Coarse, Kokkos::Rank<rank, order, order>, Kokkos::IndexType<int>>;
    const std::vector<std::vector<int>> coarse_tiles =
        rank == 2 ? std::vector<std::vector<int>>{{32, 4}, {64, 2}, {128, 1}}
                  : std::vector<std::vector<int>>{{32, 4, 1}, {64, 2, 1}};
    for (const auto& t : coarse_tiles) {
      const Box b = make_box(t, true);
      const CoarsePolicy policy(Space(), b.begin, b.end, b.tile);
      const std::string name = "mdrange-coarse4-tile-" + b.shape;
      const std::vector<Param> params{text_param("policy", "MDRangePolicy"), text_param("iterate", iterate),
                                      text_param("tile_fast_next_slow", b.shape),
                                      number_param("cells_per_thread_slowest_index", kCoarseCells)};
      add(name, params, step_loop("ebisu_bench::mdrange_coarse", policy));
      if (b.shape == (rank == 2 ? "32x4" : "32x4x1")) {
        add_graph(name, params, "ebisu_bench::mdrange_coarse_graph",
                  [=](const auto& space) { return CoarsePolicy(space, b.begin, b.end, b.tile); });
      }
    }
  }

  // (The range variants number the cells in 32 bits, as a user's flat loop
  // would: not above 2^31 - 1 cells.)
  if (cells <= static_cast<long long>(INT32_MAX)) {
    const Kokkos::RangePolicy<Space, FlatInterior, Kokkos::IndexType<int>> policy(0, static_cast<int>(interior));
    add("range-interior", {text_param("policy", "RangePolicy"), text_param("indexing", "interior cells, div/mod")},
        step_loop("ebisu_bench::range_interior", policy));
  }
  if (cells <= static_cast<long long>(INT32_MAX)) {
    const Kokkos::RangePolicy<Space, FlatBranch, Kokkos::IndexType<int>> policy(0, static_cast<int>(cells));
    add("range-branch", {text_param("policy", "RangePolicy"), text_param("indexing", "all cells, div/mod, boundary branch")},
        step_loop("ebisu_bench::range_branch", policy));
  }
#if defined(_OPENMP)
  // The plain-C++ reference (no Kokkos) on host spaces.
  if constexpr (std::is_same_v<typename View::memory_space, Kokkos::HostSpace>) {
    add("openmp-simd-loop",
        {text_param("policy", "none: #pragma omp parallel for + #pragma omp simd, raw pointers"),
         text_param("indexing", "interior cells, contiguous index innermost")},
        openmp_loop<typename Stencil::points, Scalar, rank, radius>(u, scratch, proto.c, steps));
  }
#endif
  return variants;
}

}  // namespace ebisu_bench

#endif
