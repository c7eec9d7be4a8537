#ifndef EBISU_KOKKOS_IMPL_BOUNDARY_HPP
#define EBISU_KOKKOS_IMPL_BOUNDARY_HPP

// Boundary rules as a map from an index beyond the domain to the cell that
// stands in for it (periodic: the other side; mirror: the reflection about the
// edge face). Every backend applies the same map where it reads beyond the
// edge (docs/design-fields-boundaries-state.md); the generic path runs the
// cells whose neighbourhood crosses a periodic or mirror side in thin edge
// slabs with a mapped accessor (MappedNeighborAccessor), so its interior kernel
// keeps no branch.

#include <ebisu_kokkos/impl/view_access.hpp>
#include <ebisu_kokkos/policy.hpp>

#include <string>

namespace EbisuKokkos {
namespace Impl {

/// The domain index that stands in for j along an axis of n cells: beyond a
/// periodic side the other side's cell, beyond a mirror side the reflection
/// about the edge face (cell -1 reads cell 0), applied until the index is
/// inside (a host or tile halo may reach further than one domain width).
/// Only meaningful beyond periodic or mirror sides. The one rule every backend
/// applies: BoundaryMap (generic and host paths) and AxisRules (the kernels).
KOKKOS_INLINE_FUNCTION int boundary_source(int j, int n, Boundary lo, Boundary hi) {
  while (j < 0 || j >= n) {
    if (j < 0) {
      j = lo == Boundary::periodic ? j + n : -1 - j;
    } else {
      j = hi == Boundary::periodic ? j - n : 2 * n - 1 - j;
    }
  }
  return j;
}

struct BoundaryMap {
  int n[3] = {1, 1, 1};
  Boundary side[3][2] = {{Boundary::fixed, Boundary::fixed},
                         {Boundary::fixed, Boundary::fixed},
                         {Boundary::fixed, Boundary::fixed}};

  /// The index that stands in for j along axis a (boundary_source).
  KOKKOS_FORCEINLINE_FUNCTION int source(int a, int j) const { return boundary_source(j, n[a], side[a][0], side[a][1]); }
};

/// One axis's rules as the tiled kernels see them: a tile may reach any
/// distance beyond the domain, and its cells there are computed like any other
/// cell from inputs loaded through source(). At a periodic side that is exact
/// for every stencil (the update is the same at every cell); at a mirror side
/// it is exact when the update commutes with the reflection (the kernels check
/// is_mirror_symmetric). The cells that keep their value are those of a fixed
/// frame, beyond it, and their mirror images across a mirror side of the same
/// axis (only reached when a tile's halo is about as wide as the domain).
struct AxisRules {
  static constexpr int kNoFrameLow = -(1 << 29);  // (spans below 2^31: frame() subtracts in 32 bits)
  static constexpr int kNoFrameHigh = 1 << 29;
  int n = 1;
  Boundary lo = Boundary::fixed, hi = Boundary::fixed;
  int frame_lo = 0, frame_span = 1;  // cells outside [frame_lo, frame_lo + frame_span) keep their value

  AxisRules() = default;
  AxisRules(int extent, Boundary low, Boundary high, int radius) : n(extent), lo(low), hi(high) {
    frame_lo = lo == Boundary::fixed ? radius
               : lo == Boundary::mirror && hi == Boundary::fixed ? -n + radius
                                                                 : kNoFrameLow;
    const int frame_hi = hi == Boundary::fixed ? n - radius
                         : hi == Boundary::mirror && lo == Boundary::fixed ? 2 * n - radius
                                                                           : kNoFrameHigh;
    frame_span = frame_hi > frame_lo ? frame_hi - frame_lo : 0;
  }

  /// One subtraction and one unsigned compare, as the fixed-frame test always was.
  KOKKOS_FORCEINLINE_FUNCTION bool frame(int x) const {
    return static_cast<unsigned>(x - frame_lo) >= static_cast<unsigned>(frame_span);
  }
  /// Whether every side is fixed (the kernels then load without the rule).
  KOKKOS_FORCEINLINE_FUNCTION bool all_fixed() const { return lo == Boundary::fixed && hi == Boundary::fixed; }
  /// Whether no cell of [a, b) keeps its value.
  KOKKOS_FORCEINLINE_FUNCTION bool frame_free(int a, int b) const { return a >= frame_lo && b <= frame_lo + frame_span; }
  /// Whether some cell keeps its value (a fixed side, or a mirror side's image of one).
  KOKKOS_FORCEINLINE_FUNCTION bool has_frame() const { return lo == Boundary::fixed || hi == Boundary::fixed; }
  /// Whether cell x has a value to load: inside, or beyond a periodic or mirror side.
  KOKKOS_FORCEINLINE_FUNCTION bool loadable(int x) const {
    return x < 0 ? lo != Boundary::fixed : (x < n || hi != Boundary::fixed);
  }
  /// The domain cell whose value stands at a loadable x (any distance away).
  KOKKOS_INLINE_FUNCTION int source(int x) const { return boundary_source(x, n, lo, hi); }
};

/// The cells that stand in for the first kOverhang cells beyond each side of
/// an axis a tiled kernel streams along, resolved on the host (any number of
/// wraps). In a kernel's row loop the rule's own loop made nvcc reload the
/// loop's constants every row: the periodic poisson SM-tiling kernel executed
/// 17% more instructions than the fixed-frame one (H200, 2026-11-28).
struct StreamedAxis {
  static constexpr int kOverhang = 32;  // >= depth x radius of every streaming kernel
  int n = 1;
  int beyond[2 * kOverhang] = {};  // cells -kOverhang .. -1, then n .. n + kOverhang - 1

  StreamedAxis() = default;
  explicit StreamedAxis(const AxisRules& rules) : n(rules.n) {
    for (int k = 0; k < kOverhang; ++k) {
      const int below = k - kOverhang, above = n + k;
      beyond[k] = rules.loadable(below) ? rules.source(below) : 0;
      beyond[kOverhang + k] = rules.loadable(above) ? rules.source(above) : 0;
    }
  }
  /// The cell whose value stands at x, for -kOverhang <= x < n + kOverhang:
  /// selects and one indexed load, no branch. A branch in a row loop splits the
  /// row's basic block, and nvcc packed the row's live predicates into a
  /// register around it: the periodic depth-8 j2d5pt kernel ran 10% more
  /// instructions per row than the fixed-frame one (H200, 2026-11-30).
  KOKKOS_FORCEINLINE_FUNCTION int source(int x) const {
    const bool low = x < 0, high = x >= n;
    const int k = low ? x + kOverhang : high ? x - n + kOverhang : 0;
    const int stand_in = beyond[k];
    return low || high ? stand_in : x;
  }
};

/// AxisRules of View index `index` of u (radius: the frame's width).
template <class ViewType>
AxisRules axis_rules(const ViewType& u, const BoundaryRules& rules, int index, int radius) {
  return AxisRules(static_cast<int>(u.extent(index)), rules.side[index][0], rules.side[index][1], radius);
}

/// Whether any side is a mirror.
inline bool has_mirror_side(const BoundaryRules& rules) {
  for (const auto& axis : rules.side)
    for (Boundary b : axis)
      if (b == Boundary::mirror) return true;
  return false;
}

/// The rules in a plan's words ("periodic axis 0, mirror axis 1 low"); empty when every side is fixed.
inline std::string describe_boundaries(const BoundaryRules& rules, int rank) {
  std::string s;
  auto add = [&](const std::string& what) { s += (s.empty() ? "" : ", ") + what; };
  for (int a = 0; a < rank; ++a) {
    const Boundary lo = rules.side[a][0], hi = rules.side[a][1];
    const std::string axis = " axis " + std::to_string(a);
    if (lo == hi) {
      if (lo != Boundary::fixed) add(to_string(lo) + axis);
      continue;
    }
    if (lo != Boundary::fixed) add(to_string(lo) + axis + " low");
    if (hi != Boundary::fixed) add(to_string(hi) + axis + " high");
  }
  return s;
}

template <class ViewType>
BoundaryMap boundary_map(const ViewType& u, const BoundaryRules& rules) {
  BoundaryMap m;
  for (int a = 0; a < view_rank<ViewType>; ++a) {
    m.n[a] = static_cast<int>(u.extent(a));
    m.side[a][0] = rules.side[a][0];
    m.side[a][1] = rules.side[a][1];
  }
  return m;
}

template <class ViewType, int Rank = view_rank<ViewType>>
struct MappedNeighborAccessor;

template <class ViewType>
struct MappedNeighborAccessor<ViewType, 1> {
  const ViewType& v;
  const BoundaryMap& map;
  int i0;
  template <int D0, int D1, int D2>
  KOKKOS_FORCEINLINE_FUNCTION typename ViewType::value_type get() const { return v(map.source(0, i0 + D0)); }
};
template <class ViewType>
struct MappedNeighborAccessor<ViewType, 2> {
  const ViewType& v;
  const BoundaryMap& map;
  int i0, i1;
  template <int D0, int D1, int D2>
  KOKKOS_FORCEINLINE_FUNCTION typename ViewType::value_type get() const {
    return v(map.source(0, i0 + D0), map.source(1, i1 + D1));
  }
};
template <class ViewType>
struct MappedNeighborAccessor<ViewType, 3> {
  const ViewType& v;
  const BoundaryMap& map;
  int i0, i1, i2;
  template <int D0, int D1, int D2>
  KOKKOS_FORCEINLINE_FUNCTION typename ViewType::value_type get() const {
    return v(map.source(0, i0 + D0), map.source(1, i1 + D1), map.source(2, i2 + D2));
  }
};

/// The cells a step updates that lie within `radius` of a periodic or mirror
/// side, as at most 2 x rank disjoint boxes [lo, hi): slab (a, side) takes
/// the edge part of axis a, the safe range [r, n - r) of the axes before it and
/// the whole updated range of the axes after it.
struct EdgeSlabs {
  int count = 0;
  int lo[6][3], hi[6][3];
};

template <int Rank>
EdgeSlabs edge_slabs(const BoundaryMap& m, int radius) {
  EdgeSlabs s;
  int upd_lo[3] = {0, 0, 0}, upd_hi[3] = {1, 1, 1}, safe_lo[3] = {0, 0, 0}, safe_hi[3] = {1, 1, 1};
  for (int a = 0; a < Rank; ++a) {
    upd_lo[a] = m.side[a][0] == Boundary::fixed ? radius : 0;
    upd_hi[a] = m.side[a][1] == Boundary::fixed ? m.n[a] - radius : m.n[a];
    safe_lo[a] = radius;
    safe_hi[a] = m.n[a] - radius;
  }
  for (int a = 0; a < Rank; ++a) {
    for (int side = 0; side < 2; ++side) {
      if (m.side[a][side] == Boundary::fixed) continue;
      int* lo = s.lo[s.count];
      int* hi = s.hi[s.count];
      for (int b = 0; b < 3; ++b) {
        lo[b] = b < a ? safe_lo[b] : upd_lo[b];
        hi[b] = b < a ? safe_hi[b] : upd_hi[b];
      }
      lo[a] = side == 0 ? 0 : m.n[a] - radius;
      hi[a] = side == 0 ? radius : m.n[a];
      bool empty = false;
      for (int b = 0; b < 3; ++b) empty = empty || lo[b] >= hi[b];
      if (!empty) ++s.count;
    }
  }
  return s;
}

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
