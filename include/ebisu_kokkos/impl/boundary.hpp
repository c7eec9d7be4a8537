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

struct BoundaryMap {
  int n[3] = {1, 1, 1};
  Boundary side[3][2] = {{Boundary::fixed, Boundary::fixed},
                         {Boundary::fixed, Boundary::fixed},
                         {Boundary::fixed, Boundary::fixed}};

  /// The index that stands in for j along axis a (|j| stays within one radius of the domain).
  KOKKOS_FORCEINLINE_FUNCTION int source(int a, int j) const {
    if (j < 0) return side[a][0] == Boundary::periodic ? j + n[a] : -1 - j;
    if (j >= n[a]) return side[a][1] == Boundary::periodic ? j - n[a] : 2 * n[a] - 1 - j;
    return j;
  }
  /// source() applied until the index is inside: any distance beyond a periodic side (the host
  /// blocked path's wrap-around halos may be wider than the domain), one radius beyond a mirror side.
  KOKKOS_INLINE_FUNCTION int resolve(int a, int j) const {
    while (j < 0 || j >= n[a]) j = source(a, j);
    return j;
  }
};

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
