#ifndef EBISU_KOKKOS_STENCIL_HPP
#define EBISU_KOKKOS_STENCIL_HPP

// Stencil descriptions: what one Jacobi-style update computes at a cell.
//
// Two kinds, both with rank and radius fixed at compile time:
//  - LinearStencil<Rank, Radius, Shape>: sum of run-time coefficients times
//    the neighbours selected by a compile-time Shape (see shapes.hpp);
//  - FunctorStencil<Rank, Radius, F>: any device-callable F that receives a
//    Neighbors accessor and returns the new value (non-linear updates too).
//
// A stencil is bound to the View's scalar type by the backend (`bind<Scalar>()`)
// and evaluated through an accessor with `get<D0, D1, D2>()`, so the same
// description drives the generic and the CUDA backends.

#include <ebisu_kokkos/impl/offsets.hpp>
#include <ebisu_kokkos/shapes.hpp>

#include <Kokkos_Core.hpp>

#include <initializer_list>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace EbisuKokkos {

/// The (2r+1)^rank neighbourhood of a cell, handed to user stencil functors.
/// `nb(d0, d1, d2)` is the value at offset d0 along View index 0, d1 along
/// index 1, d2 along index 2 (trailing offsets default to 0); |d| <= Radius.
template <class Scalar, int Rank, int Radius = 1>
class Neighbors {
 public:
  using value_type = Scalar;
  using box = Impl::Box<Rank, Radius>;
  static constexpr int rank = Rank;
  static constexpr int radius = Radius;

  KOKKOS_FORCEINLINE_FUNCTION Scalar operator()(int d0, int d1 = 0, int d2 = 0) const {
    return m_values[box::index(d0, d1, d2)];
  }
  KOKKOS_FORCEINLINE_FUNCTION Scalar center() const { return m_values[box::size / 2]; }

  // Filled by the backends; public so that it stays an aggregate in device code.
  Scalar m_values[box::size];
};

template <int Rank, int Radius, class Shape>
class LinearStencil {
 public:
  using shape = Shape;
  using points = Impl::ShapePoints<Rank, Radius, Shape>;
  static constexpr int rank = Rank;
  static constexpr int radius = Radius;
  static constexpr int num_points = points::size;
  static constexpr bool is_linear = true;
  /// Floating-point operations per cell update as the EBISU paper counts them.
  static constexpr int flops_per_cell = 2 * num_points;

  /// Coefficients in the order of the shape's offsets: lexicographic in
  /// (d0, d1, d2), d0 slowest, each from -Radius to Radius.
  LinearStencil(std::initializer_list<double> coefficients) {
    if (static_cast<int>(coefficients.size()) != num_points) {
      throw std::invalid_argument("EbisuKokkos::LinearStencil: expected " + std::to_string(num_points) +
                                  " coefficients for this shape, got " + std::to_string(coefficients.size()));
    }
    int k = 0;
    for (double c : coefficients) m_coefficients[k++] = c;
  }
  explicit LinearStencil(const Kokkos::Array<double, num_points>& coefficients) : m_coefficients(coefficients) {}

  double coefficient(int k) const { return m_coefficients[k]; }
  /// Offset of point k along View index `axis`.
  static constexpr int offset(int k, int axis) { return points::offset(k, axis); }

  template <class Scalar>
  struct Evaluator {
    Kokkos::Array<Scalar, num_points> coefficients;

    template <class Accessor>
    KOKKOS_FORCEINLINE_FUNCTION Scalar operator()(const Accessor& at) const {
      return Impl::weighted_sum<points, Scalar>(coefficients, at, std::make_integer_sequence<int, num_points>{});
    }
  };

  template <class Scalar>
  Evaluator<Scalar> bind() const {
    Evaluator<Scalar> e;
    for (int k = 0; k < num_points; ++k) e.coefficients[k] = static_cast<Scalar>(m_coefficients[k]);
    return e;
  }

 private:
  Kokkos::Array<double, num_points> m_coefficients;
};

template <int Rank, int Radius, class F>
class FunctorStencil {
 public:
  using box = Impl::Box<Rank, Radius>;
  // A functor may read any offset of the box: plan for all of them.
  using points = Impl::ShapePoints<Rank, Radius, BoxShape>;
  static constexpr int rank = Rank;
  static constexpr int radius = Radius;
  static constexpr int num_points = box::size;
  static constexpr bool is_linear = false;
  static constexpr int flops_per_cell = 2 * num_points;

  explicit FunctorStencil(const F& f) : m_functor(f) {}

  template <class Scalar>
  struct Evaluator {
    F functor;

    template <class Accessor>
    KOKKOS_FORCEINLINE_FUNCTION Scalar operator()(const Accessor& at) const {
      Neighbors<Scalar, Rank, Radius> nb;
      Impl::gather_box<box>(nb.m_values, at, std::make_integer_sequence<int, box::size>{});
      return static_cast<Scalar>(functor(nb));
    }
  };

  template <class Scalar>
  Evaluator<Scalar> bind() const {
    static_assert(std::is_invocable_v<const F&, const Neighbors<Scalar, Rank, Radius>&>,
                  "EbisuKokkos: the stencil functor must be callable with "
                  "`const EbisuKokkos::Neighbors<Scalar, Rank, Radius>&`, Scalar being the View's value type");
    return Evaluator<Scalar>{m_functor};
  }

 private:
  F m_functor;
};

/// A linear stencil of the given shape; coefficients in the shape's offset order.
template <int Rank, int Radius, class Shape>
LinearStencil<Rank, Radius, Shape> linear_stencil(std::initializer_list<double> coefficients) {
  return LinearStencil<Rank, Radius, Shape>(coefficients);
}
template <int Rank, int Radius>
LinearStencil<Rank, Radius, StarShape> star_stencil(std::initializer_list<double> coefficients) {
  return LinearStencil<Rank, Radius, StarShape>(coefficients);
}
template <int Rank, int Radius>
LinearStencil<Rank, Radius, BoxShape> box_stencil(std::initializer_list<double> coefficients) {
  return LinearStencil<Rank, Radius, BoxShape>(coefficients);
}

/// A stencil given as a device-callable functor, e.g.
///   make_stencil<2, 1>(KOKKOS_LAMBDA(const EbisuKokkos::Neighbors<double, 2, 1>& nb) {
///     return 0.25 * (nb(-1, 0) + nb(1, 0) + nb(0, -1) + nb(0, 1)); });
template <int Rank, int Radius, class F>
FunctorStencil<Rank, Radius, F> make_stencil(const F& f) {
  return FunctorStencil<Rank, Radius, F>(f);
}

template <class T>
struct is_stencil : std::false_type {};
template <int Rank, int Radius, class Shape>
struct is_stencil<LinearStencil<Rank, Radius, Shape>> : std::true_type {};
template <int Rank, int Radius, class F>
struct is_stencil<FunctorStencil<Rank, Radius, F>> : std::true_type {};

}  // namespace EbisuKokkos

#endif
