#ifndef EBISU_KOKKOS_IMPL_AXIS_MAP_HPP
#define EBISU_KOKKOS_IMPL_AXIS_MAP_HPP

// The axes the blocked backends work in, whatever the View's layout:
// 0 = slow (streamed or cut into runs), 1 = middle (3-D only), 2 = fast
// (contiguous). A stencil offset (D0, D1, D2) along View indices becomes
// (ds, dm, df) along these axes, at compile time.

#include <Kokkos_Macros.hpp>

namespace EbisuKokkos {
namespace Impl {

template <int Rank, bool Right>
struct AxisMap {
  static_assert(Rank == 2 || Rank == 3, "EbisuKokkos: the blocked backends take rank 2 and 3");
  static constexpr int rank = Rank;
  template <int D0, int D1, int D2>
  static constexpr int ds = Right ? D0 : (Rank == 2 ? D1 : D2);
  template <int D0, int D1, int D2>
  static constexpr int dm = Rank == 2 ? 0 : D1;
  template <int D0, int D1, int D2>
  static constexpr int df = Right ? (Rank == 2 ? D1 : D2) : D0;
  /// View index of kernel axis a (-1: none, the middle axis in 2-D).
  KOKKOS_INLINE_FUNCTION static constexpr int view_index(int a) {
    return a == 0 ? (Right ? 0 : Rank - 1) : a == 1 ? (Rank == 3 ? 1 : -1) : (Right ? Rank - 1 : 0);
  }
};

/// Extents of a View in kernel axis order (1 for the missing middle axis).
template <class Map, class ViewType>
void kernel_extents(const ViewType& v, long (&n)[3]) {
  for (int a = 0; a < 3; ++a) {
    const int i = Map::view_index(a);
    n[a] = i < 0 ? 1 : static_cast<long>(v.extent(i));
  }
}

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
