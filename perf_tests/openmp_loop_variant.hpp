#ifndef EBISU_BENCH_OPENMP_LOOP_VARIANT_HPP
#define EBISU_BENCH_OPENMP_LOOP_VARIANT_HPP

// The plain-C++ reference on the host: the step loop a performance-minded
// programmer writes without Kokkos. `#pragma omp parallel for` over the slow
// index (slow x middle in 3-D, collapsed), `#pragma omp simd` over the
// contiguous index, raw pointers, the stencil's offsets as linear element
// offsets and its weights unrolled at compile time; buffers swapped after each
// step. Interior only: the scratch buffer's frame holds the input (as for the
// other interior-only variants). Built only where the bench is compiled with
// OpenMP; used for host execution spaces.

#include <Kokkos_Core.hpp>
#include <ebisu_kokkos/impl/offsets.hpp>

#include <array>
#include <functional>
#include <type_traits>
#include <utility>

namespace ebisu_bench {

#if defined(_OPENMP)
template <class Points, class Scalar, int Rank, int Radius>
struct OpenMPLoop {
  static constexpr int np = Points::size;
  std::array<Scalar, np> c;
  std::array<long, np> offset;  // linear element offsets of the points
  long n[3];                    // slow, middle, fast extents (middle 1 below rank 3)
  long stride[2];               // element strides of the slow and middle axes

  template <int... K>
  static Scalar apply(const Scalar* p, const std::array<Scalar, np>& c, const std::array<long, np>& o,
                      std::integer_sequence<int, K...>) {
    return ((c[K] * p[o[K]]) + ...);
  }

  void step(const Scalar* in, Scalar* out) const {
    constexpr int rm = Rank == 3 ? Radius : 0;
    const long n0 = n[0], n1 = n[1], n2 = n[2], s0 = stride[0], s1 = stride[1];
    const std::array<Scalar, np> cc = c;
    const std::array<long, np> oo = offset;
#pragma omp parallel for collapse(2) schedule(static)
    for (long i = Radius; i < n0 - Radius; ++i) {
      for (long j = rm; j < n1 - rm; ++j) {
        const Scalar* row_in = in + i * s0 + j * s1;
        Scalar* row_out = out + i * s0 + j * s1;
#pragma omp simd
        for (long k = Radius; k < n2 - Radius; ++k) {
          row_out[k] = apply(row_in + k, cc, oo, std::make_integer_sequence<int, np>{});
        }
      }
    }
  }
};

/// The run function of the variant over (u, scratch), T steps; the result ends
/// where the Kokkos step loops leave it (u for even T).
template <class Points, class Scalar, int Rank, int Radius, class View, class Coefficients>
std::function<void()> openmp_loop(const View& u, const View& scratch, const Coefficients& coefficients, int steps) {
  constexpr bool left = std::is_same_v<typename View::array_layout, Kokkos::LayoutLeft>;
  // View index of the slow, middle and fast axes (-1: none).
  const int slow = left ? Rank - 1 : 0, fast = left ? 0 : Rank - 1, mid = Rank == 3 ? 1 : -1;
  OpenMPLoop<Points, Scalar, Rank, Radius> loop;
  loop.n[0] = static_cast<long>(u.extent(slow));
  loop.n[1] = mid < 0 ? 1 : static_cast<long>(u.extent(mid));
  loop.n[2] = Rank == 1 ? 1 : static_cast<long>(u.extent(fast));
  loop.stride[0] = static_cast<long>(u.stride(slow));
  loop.stride[1] = mid < 0 ? 0 : static_cast<long>(u.stride(mid));
  long view_stride[3] = {0, 0, 0};
  for (int a = 0; a < Rank; ++a) view_stride[a] = static_cast<long>(u.stride(a));
  for (int k = 0; k < Points::size; ++k) {
    loop.c[k] = static_cast<Scalar>(coefficients[k]);
    long o = 0;
    for (int a = 0; a < Rank; ++a) o += Points::offset(k, a) * view_stride[a];
    loop.offset[k] = o;
  }
  if (Rank == 1) {  // one row: the slow axis is the contiguous one
    loop.n[2] = loop.n[0];
    loop.n[0] = 1 + 2 * Radius;
    loop.stride[0] = 0;
  }
  return [=]() {
    const Scalar* a = u.data();
    Scalar* b = scratch.data();
    Scalar* next_out = u.data();
    for (int s = 0; s < steps; ++s) {
      loop.step(a, b);
      a = b;
      std::swap(b, next_out);
    }
  };
}
#endif

}  // namespace ebisu_bench

#endif
