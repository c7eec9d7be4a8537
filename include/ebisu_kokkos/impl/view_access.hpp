#ifndef EBISU_KOKKOS_IMPL_VIEW_ACCESS_HPP
#define EBISU_KOKKOS_IMPL_VIEW_ACCESS_HPP

// Rank-generic helpers over Kokkos Views used by the generic backend and by
// the frame (boundary) copy: an accessor that reads a neighbour of a fixed
// cell, and an iteration policy over a box of cells that follows the layout.

#include <ebisu_kokkos/impl/compat.hpp>

#include <type_traits>

// Tells the compiler a host row loop carries no dependence (it reads one
// buffer and writes another) so that it vectorises it.
#if defined(_OPENMP)
#define EBISU_KOKKOS_VECTOR_LOOP _Pragma("omp simd")
#elif defined(__GNUC__) && !defined(__clang__)
#define EBISU_KOKKOS_VECTOR_LOOP _Pragma("GCC ivdep")
#else
#define EBISU_KOKKOS_VECTOR_LOOP
#endif
// The same promise where GCC's `omp simd` fails: a row loop storing several
// state fields' values (a Kokkos::Array from the functor) stayed scalar under
// it in GCC 12 ("no vectype"), and vectorised under ivdep (the generic step of
// Gray-Scott 3-D at 128^3 on 2 threads: 165 -> 79 ms).
#if defined(__GNUC__) && !defined(__clang__)
#define EBISU_KOKKOS_IVDEP_LOOP _Pragma("GCC ivdep")
#else
#define EBISU_KOKKOS_IVDEP_LOOP EBISU_KOKKOS_VECTOR_LOOP
#endif

namespace EbisuKokkos {
namespace Impl {

// Neighbour reads around cell (i0, i1, i2) of a View; offsets are template
// arguments so every index computation folds into the addressing.
template <class ViewType, int Rank = view_rank<ViewType>>
struct ViewNeighborAccessor;

template <class ViewType>
struct ViewNeighborAccessor<ViewType, 1> {
  const ViewType& v;
  int i0;
  template <int D0, int D1, int D2>
  KOKKOS_FORCEINLINE_FUNCTION typename ViewType::value_type get() const { return v(i0 + D0); }
};
template <class ViewType>
struct ViewNeighborAccessor<ViewType, 2> {
  const ViewType& v;
  int i0, i1;
  template <int D0, int D1, int D2>
  KOKKOS_FORCEINLINE_FUNCTION typename ViewType::value_type get() const { return v(i0 + D0, i1 + D1); }
};
template <class ViewType>
struct ViewNeighborAccessor<ViewType, 3> {
  const ViewType& v;
  int i0, i1, i2;
  template <int D0, int D1, int D2>
  KOKKOS_FORCEINLINE_FUNCTION typename ViewType::value_type get() const {
    return v(i0 + D0, i1 + D1, i2 + D2);
  }
};

template <class ExecSpace>
inline constexpr bool runs_on_host =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;

// A box [lo, hi) of cells, iterated fastest along the layout's contiguous index.
// GPU tiles are 32 cells along the contiguous index times 4 along the next one:
// Kokkos' default tiles are several times slower on current GPUs. Host tiles
// span the whole contiguous extent so the inner loop vectorizes.
constexpr int kGpuTileFast = 32, kGpuTileNext = 4;
constexpr int kGpuTileThreads = kGpuTileFast * kGpuTileNext;

template <class ExecSpace, class Layout, int Rank, class... Traits>
auto box_policy(const ExecSpace& space, const int (&lo)[3], const int (&hi)[3]) {
  static_assert(Rank >= 1 && Rank <= 3, "rank 1-3");
  if constexpr (Rank == 1) {
    return Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int>, Traits...>(space, lo[0], hi[0]);
  } else {
    constexpr bool right = std::is_same_v<Layout, Kokkos::LayoutRight>;
    constexpr auto order = right ? Kokkos::Iterate::Right : Kokkos::Iterate::Left;
    using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<Rank, order, order>, Kokkos::IndexType<int>, Traits...>;
    using Index = typename Policy::index_type;
    constexpr int fast = right ? Rank - 1 : 0;
    constexpr int next = right ? Rank - 2 : 1;
    typename Policy::point_type begin{}, end{}, tile{};
    for (int a = 0; a < Rank; ++a) {
      begin[a] = static_cast<Index>(lo[a]);
      end[a] = static_cast<Index>(hi[a]);
      tile[a] = 1;
    }
    if constexpr (runs_on_host<ExecSpace>) {
      tile[fast] = static_cast<Index>(hi[fast] - lo[fast] > 0 ? hi[fast] - lo[fast] : 1);
    } else {
      tile[fast] = kGpuTileFast;
      tile[next] = kGpuTileNext;
    }
    return Policy(space, begin, end, tile);
  }
}

template <class DstView, class SrcView, int Rank = view_rank<DstView>>
struct CopyCells;

template <class DstView, class SrcView>
struct CopyCells<DstView, SrcView, 1> {
  DstView dst;
  SrcView src;
  KOKKOS_INLINE_FUNCTION void operator()(int i0) const { dst(i0) = src(i0); }
};
template <class DstView, class SrcView>
struct CopyCells<DstView, SrcView, 2> {
  DstView dst;
  SrcView src;
  KOKKOS_INLINE_FUNCTION void operator()(int i0, int i1) const { dst(i0, i1) = src(i0, i1); }
};
template <class DstView, class SrcView>
struct CopyCells<DstView, SrcView, 3> {
  DstView dst;
  SrcView src;
  KOKKOS_INLINE_FUNCTION void operator()(int i0, int i1, int i2) const { dst(i0, i1, i2) = src(i0, i1, i2); }
};

// Copies the Dirichlet frame (cells within `radius` of any edge) from src to
// dst: one slab per side and axis, so no kernel visits an interior cell.
template <class ExecSpace, class DstView, class SrcView>
void copy_frame(const ExecSpace& space, const DstView& dst, const SrcView& src, int radius) {
  constexpr int rank = view_rank<DstView>;
  using Layout = typename DstView::array_layout;
  for (int axis = 0; axis < rank; ++axis) {
    const int n = static_cast<int>(dst.extent(axis));
    for (int side = 0; side < 2; ++side) {
      int lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
      for (int a = 0; a < rank; ++a) hi[a] = static_cast<int>(dst.extent(a));
      lo[axis] = side == 0 ? 0 : n - radius;
      hi[axis] = side == 0 ? radius : n;
      Kokkos::parallel_for("EbisuKokkos::copy_frame", box_policy<ExecSpace, Layout, rank>(space, lo, hi),
                           CopyCells<DstView, SrcView>{dst, src});
    }
  }
}

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
