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
//  - range-branch: flattened RangePolicy over all cells, boundary cells copied.
//
// Interior-only variants rely on the scratch buffer's boundary frame holding
// the input (set once, untimed, as a user does it once per simulation).

#include "variant.hpp"

#include <ebisu_kokkos/impl/offsets.hpp>

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

/// The plain-Kokkos variants for a stencil on (u, scratch); `input` is the saved input.
template <class Scalar, class Stencil, class View>
std::vector<Variant> make_plain_variants(const Stencil& stencil, const View& input, const View& u,
                                         const View& scratch, int steps) {
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
      add(name, {text_param("policy", "MDRangePolicy"), text_param("iterate", iterate),
                 text_param("tile_fast_next_slow", b.shape)},
          step_loop("ebisu_bench::mdrange", Policy(Space(), b.begin, b.end, b.tile)));
    }
    using CoarsePolicy =
        Kokkos::MDRangePolicy<Space, Coarse, Kokkos::Rank<rank, order, order>, Kokkos::IndexType<int>>;
    const std::vector<std::vector<int>> coarse_tiles =
        rank == 2 ? std::vector<std::vector<int>>{{32, 4}, {64, 2}, {128, 1}}
                  : std::vector<std::vector<int>>{{32, 4, 1}, {64, 2, 1}};
    for (const auto& t : coarse_tiles) {
      const Box b = make_box(t, true);
      add("mdrange-coarse4-tile-" + b.shape,
          {text_param("policy", "MDRangePolicy"), text_param("iterate", iterate),
           text_param("tile_fast_next_slow", b.shape), number_param("cells_per_thread_slowest_index", kCoarseCells)},
          step_loop("ebisu_bench::mdrange_coarse", CoarsePolicy(Space(), b.begin, b.end, b.tile)));
    }
  }

  {
    const Kokkos::RangePolicy<Space, FlatInterior, Kokkos::IndexType<int>> policy(0, static_cast<int>(interior));
    add("range-interior", {text_param("policy", "RangePolicy"), text_param("indexing", "interior cells, div/mod")},
        step_loop("ebisu_bench::range_interior", policy));
  }
  {
    const Kokkos::RangePolicy<Space, FlatBranch, Kokkos::IndexType<int>> policy(0, static_cast<int>(cells));
    add("range-branch", {text_param("policy", "RangePolicy"), text_param("indexing", "all cells, div/mod, boundary branch")},
        step_loop("ebisu_bench::range_branch", policy));
  }
  return variants;
}

}  // namespace ebisu_bench

#endif
