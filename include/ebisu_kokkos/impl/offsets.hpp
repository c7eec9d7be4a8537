#ifndef EBISU_KOKKOS_IMPL_OFFSETS_HPP
#define EBISU_KOKKOS_IMPL_OFFSETS_HPP

// Compile-time enumeration of the offsets of a stencil shape.
//
// Points are numbered in lexicographic order of (d0, d1, d2), d0 slowest, each
// running from -r to r; that order is also the order of a linear stencil's
// coefficients. Everything here is a constant expression so that backends
// unroll the stencil with offsets known to the compiler.

#include <Kokkos_Macros.hpp>

#include <type_traits>
#include <utility>

namespace EbisuKokkos {
namespace Impl {

KOKKOS_INLINE_FUNCTION constexpr int int_pow(int base, int exp) { return exp <= 0 ? 1 : base * int_pow(base, exp - 1); }

template <int Rank, int Radius>
struct Box {
  static_assert(Rank >= 1 && Rank <= 3, "EbisuKokkos: stencils have rank 1, 2 or 3");
  static_assert(Radius >= 1 && Radius <= 4, "EbisuKokkos: stencil radius must be between 1 and 4");
  static constexpr int width = 2 * Radius + 1;
  static constexpr int size = int_pow(width, Rank);

  // Offset along View index `axis` of box point `b`.
  KOKKOS_INLINE_FUNCTION static constexpr int offset(int b, int axis) {
    return axis < Rank ? (b / int_pow(width, Rank - 1 - axis)) % width - Radius : 0;
  }
  KOKKOS_INLINE_FUNCTION static constexpr int index(int d0, int d1, int d2) {
    return Rank == 1   ? d0 + Radius
           : Rank == 2 ? (d0 + Radius) * width + (d1 + Radius)
                       : ((d0 + Radius) * width + (d1 + Radius)) * width + (d2 + Radius);
  }
};

template <int Rank, int Radius, class Shape>
struct ShapePoints {
  using box = Box<Rank, Radius>;

  static constexpr bool box_point_in_shape(int b) {
    return Shape::contains(box::offset(b, 0), box::offset(b, 1), box::offset(b, 2));
  }
  static constexpr int count_before(int b) {
    int n = 0;
    for (int i = 0; i < b; ++i) n += box_point_in_shape(i) ? 1 : 0;
    return n;
  }
  static constexpr int size = count_before(box::size);

  // Box index of the k-th point of the shape.
  static constexpr int box_index(int k) {
    for (int b = 0, n = 0; b < box::size; ++b) {
      if (box_point_in_shape(b)) {
        if (n == k) return b;
        ++n;
      }
    }
    return -1;
  }
  static constexpr int offset(int k, int axis) { return box::offset(box_index(k), axis); }

  // Largest |offset| along each axis actually used (a shape may not reach the radius on every axis).
  static constexpr int reach(int axis) {
    int r = 0;
    for (int k = 0; k < size; ++k) {
      const int d = offset(k, axis) < 0 ? -offset(k, axis) : offset(k, axis);
      r = d > r ? d : r;
    }
    return r;
  }
  static_assert(size > 0, "EbisuKokkos: a stencil shape must contain at least one offset");
};

// The k-th point as compile-time constants, for unrolled code.
template <class Points, int K>
struct Point {
  static constexpr int d0 = Points::offset(K, 0);
  static constexpr int d1 = Points::offset(K, 1);
  static constexpr int d2 = Points::offset(K, 2);
};

// Chain j of a weighted sum: points j, j + C, j + 2C, ... as one fused multiply-add chain.
template <class Points, class Scalar, int C, int J, class Coefficients, class Accessor, int... I>
KOKKOS_FORCEINLINE_FUNCTION Scalar weighted_chain(const Coefficients& coef, const Accessor& at,
                                                  std::integer_sequence<int, I...>) {
  return ((Scalar(coef[J + C * I]) * at.template get<Point<Points, J + C * I>::d0, Point<Points, J + C * I>::d1,
                                                     Point<Points, J + C * I>::d2>()) +
          ...);
}

template <class Points, class Scalar, int C, class Coefficients, class Accessor, int... J>
KOKKOS_FORCEINLINE_FUNCTION Scalar weighted_chains(const Coefficients& coef, const Accessor& at,
                                                   std::integer_sequence<int, J...>) {
  return (weighted_chain<Points, Scalar, C, J>(coef, at, std::make_integer_sequence<int, (Points::size - J + C - 1) / C>{}) +
          ...);
}

// Independent chains of a weighted sum on CPUs. As one chain, every vector iteration of the
// 27-point box was a dependency chain of 27 FMAs (~108 cycles); split into four, the generic and
// blocked host paths ran 1.3-1.4x faster on one Xeon thread (docs/perf-notes-host.md). GPUs hide
// the latency with other warps, and more accumulators would cost registers in kernels that sit at
// their cap, so device code keeps one chain.
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__SYCL_DEVICE_ONLY__)
template <int N>
inline constexpr int weighted_sum_chains = 1;
#else
template <int N>
inline constexpr int weighted_sum_chains = N >= 16 ? 4 : N >= 8 ? 2 : 1;
#endif

// sum_k coef[k] * at.get<offsets of k>(), unrolled at compile time.
// `at` is a backend accessor with `template <int D0, int D1, int D2> value_type get() const`.
template <class Points, class Scalar, class Coefficients, class Accessor, int... K>
KOKKOS_FORCEINLINE_FUNCTION Scalar weighted_sum(const Coefficients& coef, const Accessor& at,
                                                std::integer_sequence<int, K...>) {
  constexpr int chains = weighted_sum_chains<sizeof...(K)>;
  if constexpr (chains == 1) {
    return ((Scalar(coef[K]) *
             at.template get<Point<Points, K>::d0, Point<Points, K>::d1, Point<Points, K>::d2>()) +
            ...);
  } else {
    return weighted_chains<Points, Scalar, chains>(coef, at, std::make_integer_sequence<int, chains>{});
  }
}

// Copies every box value into a dense array (for user functors), unrolled.
template <class Box, class Values, class Accessor, int... B>
KOKKOS_FORCEINLINE_FUNCTION void gather_box(Values& values, const Accessor& at,
                                            std::integer_sequence<int, B...>) {
  ((values[B] = at.template get<Box::offset(B, 0), Box::offset(B, 1), Box::offset(B, 2)>()), ...);
}

// Whether box point B belongs to the shape (a constant for device code).
template <class Points, int B>
struct BoxPointInShape {
  static constexpr bool value = Points::box_point_in_shape(B);
};

template <class Box, class Points, int B, class Values, class Accessor>
KOKKOS_FORCEINLINE_FUNCTION void gather_point(Values& values, const Accessor& at) {
  if constexpr (BoxPointInShape<Points, B>::value) {
    values[B] = at.template get<Box::offset(B, 0), Box::offset(B, 1), Box::offset(B, 2)>();
  } else {
    values[B] = std::remove_reference_t<decltype(values[B])>(0);
  }
}

// gather_box for a functor of a narrower shape: the shape's points are read,
// the rest of the box is zero, so the kernels need on chip only the
// neighbours the shape has (with_source of a star: the star's row queue).
template <class Box, class Points, class Values, class Accessor, int... B>
KOKKOS_FORCEINLINE_FUNCTION void gather_shape(Values& values, const Accessor& at, std::integer_sequence<int, B...>) {
  (gather_point<Box, Points, B>(values, at), ...);
}

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
