#ifndef EBISU_KOKKOS_STENCIL_HPP
#define EBISU_KOKKOS_STENCIL_HPP

// Stencil descriptions: what one Jacobi-style update computes at a cell.
//
// Two kinds, both with rank and radius fixed at compile time:
//  - LinearStencil<Rank, Radius, Shape>: sum of run-time coefficients times
//    the neighbours selected by a compile-time Shape (see shapes.hpp);
//  - FunctorStencil<Rank, Radius, F>: any device-callable F that receives a
//    Neighbors accessor and returns the new value (non-linear updates too),
//    plus one argument per read-only field when the call passes fields(...)
//    (see fields.hpp): a Neighbors per field, a Scalar per centre_only field.
//    linear_stencil_with_coefficient_fields and with_source are such functors.
//
// A stencil is bound to the View's scalar type and the call's field kinds by
// the backend (`bind<Scalar, FieldKinds...>()`, no kinds without fields) and
// evaluated through an accessor with `get<D0, D1, D2>()` for the state and one
// per field, so the same description drives the generic and the CUDA backends.

#include <ebisu_kokkos/impl/fields.hpp>
#include <ebisu_kokkos/impl/offsets.hpp>
#include <ebisu_kokkos/shapes.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
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

namespace Impl {
// What a functor receives for a field of kind Kind: its neighbourhood, or its
// value at the output cell. StatePoints: the points of the stencil's shape,
// over which another state level (StateLevelField) is read; a read-only field
// is read over the whole box.
template <class Kind, class Scalar, int Rank, int Radius>
struct FieldParameter {
  using type = const Neighbors<Scalar, Rank, Radius>&;
  template <class StatePoints, class Accessor>
  KOKKOS_FORCEINLINE_FUNCTION static Neighbors<Scalar, Rank, Radius> read(const Accessor& at) {
    using box = Box<Rank, Radius>;
    Neighbors<Scalar, Rank, Radius> nb;
    if constexpr (std::is_same_v<Kind, StateLevelField>) {
      gather_shape<box, StatePoints>(nb.m_values, at, std::make_integer_sequence<int, box::size>{});
    } else {
      gather_box<box>(nb.m_values, at, std::make_integer_sequence<int, box::size>{});
    }
    return nb;
  }
};
template <class Scalar, int Rank, int Radius>
struct FieldParameter<CentreField, Scalar, Rank, Radius> {
  using type = Scalar;
  template <class StatePoints, class Accessor>
  KOKKOS_FORCEINLINE_FUNCTION static Scalar read(const Accessor& at) {
    return at.template get<0, 0, 0>();
  }
};
}  // namespace Impl

namespace Impl {
template <class T>
struct is_kokkos_array : std::false_type {};
template <class T, std::size_t N>
struct is_kokkos_array<Kokkos::Array<T, N>> : std::true_type {};

template <bool Callable, class F, class... Args>
struct FunctorResult {
  using type = void;
};
template <class F, class... Args>
struct FunctorResult<true, F, Args...> {
  using type = std::invoke_result_t<F, Args...>;
};

// A functor's result as the backends store it: several fields' new values as
// they are, one value converted to the View's scalar.
template <class Scalar, class Result>
KOKKOS_FORCEINLINE_FUNCTION auto new_values(const Result& r) {
  if constexpr (is_kokkos_array<Result>::value) {
    return r;
  } else {
    return static_cast<Scalar>(r);
  }
}
}  // namespace Impl

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

  /// Whether the update is unchanged by mirroring the neighbourhood along View
  /// index `axis` (every point's mirror image is a point with the same
  /// coefficient). The EBISU CUDA kernels take a mirror side only then.
  bool is_mirror_symmetric(int axis) const {
    for (int k = 0; k < num_points; ++k) {
      bool found = false;
      for (int j = 0; j < num_points && !found; ++j) {
        bool image = true;
        for (int a = 0; a < Rank; ++a) {
          const int want = a == axis ? -offset(k, a) : offset(k, a);
          image = image && offset(j, a) == want;
        }
        found = image && m_coefficients[j] == m_coefficients[k];
      }
      if (!found) return false;
    }
    return true;
  }

  template <class Scalar>
  struct Evaluator {
    Kokkos::Array<Scalar, num_points> coefficients;
    // The points, for the host blocked stage's hand-vectorised rows (impl/host/linear_rows.hpp).
    using linear_points = points;

    // (Field accessors only reach here when bind's static_assert has already failed.)
    template <class Accessor, class... FieldAccessors>
    KOKKOS_FORCEINLINE_FUNCTION Scalar operator()(const Accessor& at, const FieldAccessors&...) const {
      return Impl::weighted_sum<points, Scalar>(coefficients, at, std::make_integer_sequence<int, num_points>{});
    }
  };

  /// Field kinds: none (a linear stencil reads only the state; per-cell
  /// coefficients and sources are linear_stencil_with_coefficient_fields and with_source).
  template <class Scalar, class... FieldKinds>
  Evaluator<Scalar> bind() const {
    static_assert(sizeof...(FieldKinds) == 0,
                  "EbisuKokkos: a LinearStencil reads no fields; for per-cell coefficients use "
                  "linear_stencil_with_coefficient_fields<Rank, Radius, Shape>(), for a source term "
                  "with_source(stencil)");
    Evaluator<Scalar> e;
    for (int k = 0; k < num_points; ++k) e.coefficients[k] = static_cast<Scalar>(m_coefficients[k]);
    return e;
  }

 private:
  Kokkos::Array<double, num_points> m_coefficients;
};

/// Shape: the offsets the functor may read (BoxShape for user functors: any
/// offset of the box). with_source and linear_stencil_with_coefficient_fields
/// keep the linear stencil's shape, so that their kernels hold only the
/// neighbours it has (the functor's Neighbors is zero elsewhere).
template <int Rank, int Radius, class F, class Shape = BoxShape>
class FunctorStencil {
 public:
  using box = Impl::Box<Rank, Radius>;
  using points = Impl::ShapePoints<Rank, Radius, Shape>;
  static constexpr int rank = Rank;
  static constexpr int radius = Radius;
  static constexpr int num_points = points::size;
  static constexpr bool is_linear = false;
  static constexpr int flops_per_cell = 2 * num_points;

  explicit FunctorStencil(const F& f, unsigned mirror_symmetric_axes = 0u)
      : m_functor(f), m_mirror_symmetric_axes(mirror_symmetric_axes) {}

  /// The same stencil, declared unchanged by mirroring the neighbourhoods (of
  /// the state and of every field) along any axis, as isotropic diffusion and
  /// most physical updates are. It lets the EBISU CUDA kernels take mirror
  /// (zero-flux) sides: they compute the cells beyond such a side from the
  /// reflected field instead of refilling them each step, which gives the
  /// generic path's answer only for such updates. Not checked; an update that
  /// is not symmetric then gets wrong values next to a mirror side.
  FunctorStencil declare_mirror_symmetric() const { return FunctorStencil(m_functor, (1u << Rank) - 1u); }
  /// Whether the update is declared (or, for with_source, known) mirror symmetric along View index `axis`.
  bool is_mirror_symmetric(int axis) const { return ((m_mirror_symmetric_axes >> axis) & 1u) != 0; }
  /// The update functor (what the stencil was made from).
  const F& functor() const { return m_functor; }

  /// `at` reads the state, `fields` one accessor per field (FieldKinds order).
  template <class Scalar, class... FieldKinds>
  struct Evaluator {
    F functor;

    // The new value: a Scalar, or the Kokkos::Array of new values of a
    // stencil over several state fields (state.hpp; their other fields and
    // levels arrive as the first FieldKinds).
    template <class Accessor, class... FieldAccessors>
    KOKKOS_FORCEINLINE_FUNCTION auto operator()(const Accessor& at, const FieldAccessors&... fields) const {
      static_assert(sizeof...(FieldAccessors) == sizeof...(FieldKinds), "one accessor per field");
      if constexpr (callable) {
        Neighbors<Scalar, Rank, Radius> nb;
        Impl::gather_shape<box, points>(nb.m_values, at, std::make_integer_sequence<int, box::size>{});
        return Impl::new_values<Scalar>(
            functor(nb, Impl::FieldParameter<FieldKinds, Scalar, Rank, Radius>::template read<points>(fields)...));
      } else {
        return Scalar();  // not reached: bind's static_assert has failed
      }
    }
    static constexpr bool callable =
        std::is_invocable_v<const F&, const Neighbors<Scalar, Rank, Radius>&,
                            typename Impl::FieldParameter<FieldKinds, Scalar, Rank, Radius>::type...>;
    /// What the functor returns (void when it cannot be called so).
    using result_type =
        typename Impl::FunctorResult<callable, const F&, const Neighbors<Scalar, Rank, Radius>&,
                                     typename Impl::FieldParameter<FieldKinds, Scalar, Rank, Radius>::type...>::type;
  };

  /// FieldKinds: Impl::NeighbourhoodField or Impl::CentreField per field of the call (none without fields).
  template <class Scalar, class... FieldKinds>
  Evaluator<Scalar, FieldKinds...> bind() const {
    static_assert(sizeof...(FieldKinds) > 0 || Evaluator<Scalar>::callable,
                  "EbisuKokkos: the stencil functor must be callable with "
                  "`const EbisuKokkos::Neighbors<Scalar, Rank, Radius>&`, Scalar being the View's value type "
                  "(a functor that takes read-only fields needs them passed: parallel_stencil(..., fields(...)))");
    static_assert(sizeof...(FieldKinds) == 0 || Evaluator<Scalar, FieldKinds...>::callable,
                  "EbisuKokkos: the stencil functor does not match the fields passed to parallel_stencil. With "
                  "fields(f1, f2, ...) it must take `const Neighbors<Scalar, Rank, Radius>&` for the state and then, "
                  "for each field in order, `const Neighbors<Scalar, Rank, Radius>&` for a field passed as a View "
                  "or `Scalar` for a field passed as centre_only(View); Scalar is the View's value type");
    return Evaluator<Scalar, FieldKinds...>{m_functor};
  }

 private:
  F m_functor;
  unsigned m_mirror_symmetric_axes = 0u;
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
/// The same with the footprint of the state declared: the functor reads the
/// state only at the offsets of Shape (e.g. StarShape for a 7-point update in
/// 3-D), which lets the kernels keep less of the neighbourhood on chip (the 3-D
/// kernels then queue no off-column planes of other z). The functor sees the
/// state's offsets outside the shape as zero (every field and time level of a
/// State). Read-only fields may still be read anywhere within the radius.
///   make_stencil<3, 1, EbisuKokkos::StarShape>(f)
template <int Rank, int Radius, class Shape, class F>
FunctorStencil<Rank, Radius, F, Shape> make_stencil(const F& f) {
  return FunctorStencil<Rank, Radius, F, Shape>(f);
}

namespace Impl {
// sum_k c[k] * u(offset of point k), unrolled; c[k] already in Scalar.
template <class Points, class Scalar, class Coefficients, int Rank, int Radius, int... K>
KOKKOS_FORCEINLINE_FUNCTION Scalar neighbourhood_weighted_sum(const Coefficients& c,
                                                              const Neighbors<Scalar, Rank, Radius>& u,
                                                              std::integer_sequence<int, K...>) {
  return ((Scalar(c[K]) * u(Point<Points, K>::d0, Point<Points, K>::d1, Point<Points, K>::d2)) + ...);
}

// a + sum_k c[k] * u(offset of point k), accumulated onto a in point order.
template <class Points, class Scalar, class Coefficients, int Rank, int Radius, int... K>
KOKKOS_FORCEINLINE_FUNCTION Scalar add_weighted_sum(Scalar a, const Coefficients& c, const Neighbors<Scalar, Rank, Radius>& u,
                                                    std::integer_sequence<int, K...>) {
  ((a += Scalar(c[K]) * u(Point<Points, K>::d0, Point<Points, K>::d1, Point<Points, K>::d2)), ...);
  return a;
}

// u'(x) = sum_k c_k(x) u(x + o_k), c_k read from the k-th (centre_only) field.
template <int Rank, int Radius, class Shape>
struct CoefficientFieldsUpdate {
  using points = ShapePoints<Rank, Radius, Shape>;
  template <class Scalar, class... C>
  KOKKOS_FORCEINLINE_FUNCTION std::enable_if_t<sizeof...(C) == points::size && (std::is_same_v<C, Scalar> && ...), Scalar>
  operator()(const Neighbors<Scalar, Rank, Radius>& u, C... c) const {
    const Scalar coefficients[points::size] = {c...};
    return neighbourhood_weighted_sum<points, Scalar>(coefficients, u, std::make_integer_sequence<int, points::size>{});
  }
};

// u'(x) = sum_k c_k u(x + o_k) + f(x), f the one (centre_only) field.
template <int Rank, int Radius, class Shape>
struct LinearPlusSourceUpdate {
  using points = ShapePoints<Rank, Radius, Shape>;
  Kokkos::Array<double, points::size> coefficients;
  // Where f enters the sum is a measured choice (H200, fp64, docs/perf-notes-2d.md v12): the 2-D
  // kernels hold f in registers, and a sum started from f takes one fused multiply-add per point and
  // no add (j2d5pt-source 8352^2 711 -> 787 GCells/s); the 3-D kernel loads f from shared memory
  // per fused step, and a chain that starts with that load ran 5% slower (j3d7pt-source 220 -> 211),
  // so there (and in 1-D) f is added last.
  template <class Scalar>
  KOKKOS_FORCEINLINE_FUNCTION Scalar operator()(const Neighbors<Scalar, Rank, Radius>& u, Scalar f) const {
    if constexpr (Rank == 2) {
      return add_weighted_sum<points>(f, coefficients, u, std::make_integer_sequence<int, points::size>{});
    } else {
      return neighbourhood_weighted_sum<points, Scalar>(coefficients, u, std::make_integer_sequence<int, points::size>{}) +
             f;
    }
  }
};
}  // namespace Impl

/// A linear stencil whose coefficients vary from cell to cell: point k's
/// coefficient at cell x is the value at x of the k-th field, passed as
/// centre_only, one field per point of the shape in the shape's offset order
/// (lexicographic in (d0, d1, d2), as for linear_stencil). A functor stencil
/// underneath, so it runs wherever fields do. Example, a 2-D 5-point star
/// with coefficient Views c0 .. c4 for the offsets (-1,0) (0,-1) (0,0) (0,1) (1,0):
///   auto s = EbisuKokkos::linear_stencil_with_coefficient_fields<2, 1, EbisuKokkos::StarShape>();
///   using EbisuKokkos::centre_only;
///   EbisuKokkos::parallel_stencil("var", policy, s, u, scratch,
///       EbisuKokkos::fields(centre_only(c0), centre_only(c1), centre_only(c2), centre_only(c3), centre_only(c4)));
template <int Rank, int Radius, class Shape>
FunctorStencil<Rank, Radius, Impl::CoefficientFieldsUpdate<Rank, Radius, Shape>, Shape>
linear_stencil_with_coefficient_fields() {
  return FunctorStencil<Rank, Radius, Impl::CoefficientFieldsUpdate<Rank, Radius, Shape>, Shape>(
      Impl::CoefficientFieldsUpdate<Rank, Radius, Shape>{});
}

/// A linear stencil plus a source term, u' = L u + f: the call passes f as its
/// one field, read at the output cell, e.g.
///   auto s = EbisuKokkos::with_source(EbisuKokkos::star_stencil<2, 1>({w, w, c, w, w}));
///   EbisuKokkos::parallel_stencil("heat+f", policy, s, u, scratch,
///                                 EbisuKokkos::fields(EbisuKokkos::centre_only(f)));
template <int Rank, int Radius, class Shape>
FunctorStencil<Rank, Radius, Impl::LinearPlusSourceUpdate<Rank, Radius, Shape>, Shape> with_source(
    const LinearStencil<Rank, Radius, Shape>& linear) {
  Impl::LinearPlusSourceUpdate<Rank, Radius, Shape> update;
  for (int k = 0; k < LinearStencil<Rank, Radius, Shape>::num_points; ++k) update.coefficients[k] = linear.coefficient(k);
  unsigned symmetric_axes = 0u;  // the source is read at the cell itself
  for (int a = 0; a < Rank; ++a) symmetric_axes |= linear.is_mirror_symmetric(a) ? 1u << a : 0u;
  return FunctorStencil<Rank, Radius, Impl::LinearPlusSourceUpdate<Rank, Radius, Shape>, Shape>(update, symmetric_axes);
}

namespace Impl {
/// What a backend needs to run a stencil in the source-response form
/// (SourceForm): whether it is a linear stencil plus a source (with_source),
/// and that linear stencil.
template <class Stencil>
struct LinearPlusSource : std::false_type {};
template <int Rank, int Radius, class Shape>
struct LinearPlusSource<FunctorStencil<Rank, Radius, LinearPlusSourceUpdate<Rank, Radius, Shape>, Shape>>
    : std::true_type {
  using linear_type = LinearStencil<Rank, Radius, Shape>;
  static linear_type linear_part(
      const FunctorStencil<Rank, Radius, LinearPlusSourceUpdate<Rank, Radius, Shape>, Shape>& stencil) {
    return linear_type(stencil.functor().coefficients);
  }
};
/// The stencil the source-free kernels of the response form run: a with_source stencil's linear part
/// (any other stencil: itself).
template <class Stencil, bool = LinearPlusSource<Stencil>::value>
struct LinearPartOf {
  using type = Stencil;
};
template <class Stencil>
struct LinearPartOf<Stencil, true> {
  using type = typename LinearPlusSource<Stencil>::linear_type;
};
}  // namespace Impl

template <class T>
struct is_stencil : std::false_type {};
template <int Rank, int Radius, class Shape>
struct is_stencil<LinearStencil<Rank, Radius, Shape>> : std::true_type {};
template <int Rank, int Radius, class F, class Shape>
struct is_stencil<FunctorStencil<Rank, Radius, F, Shape>> : std::true_type {};

}  // namespace EbisuKokkos

#endif
