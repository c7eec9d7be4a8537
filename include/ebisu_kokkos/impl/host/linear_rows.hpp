#ifndef EBISU_KOKKOS_IMPL_HOST_LINEAR_ROWS_HPP
#define EBISU_KOKKOS_IMPL_HOST_LINEAR_ROWS_HPP

// One row of a linear stencil on a CPU, vectorised by hand (GCC / Clang vector
// extensions): every row of the neighbourhood is loaded once per vector of
// cells, and its neighbours along the row are lanes shifted in from the
// vectors before and after it, carried from one vector to the next.
//
// Why: the compiler's vectorisation of the scalar cell loop loads every point
// on its own, 27 loads per vector for the 27-point box, 18 of them unaligned
// by a cell or two and so split over two cache lines, and keeps one base
// pointer per point, which GCC 12 reloads from the stack: the load ports were
// the bound. In a plane microbenchmark on one Xeon (Emerald Rapids) thread the
// carried rows ran 1.3-1.4 ns per cell against 2.4-3.0 for the compiler's loop;
// in the blocked stage on 16 threads j3d27pt / poisson / j2d25pt ran 10-25%
// faster (docs/perf-notes-host.md). Stencils that read most rows at one point
// (the stars) gain nothing and keep the compiler's loop (kLinearRowsPay).
//
// Only where the host compiler has vector extensions with
// __builtin_shufflevector (GCC 12+, Clang) and vectors of at least 32 bytes
// (AVX): nvcc's front end rejects the shuffle of a parameter pack, and 16-byte
// vectors (two doubles) were not measured. Elsewhere the callers keep their
// scalar loops; scripts/setup.sh builds with -march=native for this.

#include <ebisu_kokkos/impl/offsets.hpp>

#include <type_traits>
#include <utility>

#if !defined(__NVCC__) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__) && \
    !defined(__SYCL_DEVICE_ONLY__) && defined(__AVX__) &&                                  \
    (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12))
#define EBISU_KOKKOS_HOST_ROW_VECTORS 1
#else
#define EBISU_KOKKOS_HOST_ROW_VECTORS 0
#endif

namespace EbisuKokkos {
namespace Impl {
namespace Host {

/// Whether the evaluator is a linear stencil's weighted sum (its points and
/// coefficients are all a row needs).
template <class Eval, class = void>
struct IsLinearEvaluator : std::false_type {};
template <class Eval>
struct IsLinearEvaluator<Eval, std::void_t<typename Eval::linear_points>> : std::true_type {};

#if EBISU_KOKKOS_HOST_ROW_VECTORS

#if defined(__AVX512F__)
constexpr int kRowVectorBytes = 64;
#else
constexpr int kRowVectorBytes = 32;
#endif

template <class Scalar>
struct RowVector {
  typedef Scalar type __attribute__((vector_size(kRowVectorBytes)));
  static constexpr int lanes = kRowVectorBytes / static_cast<int>(sizeof(Scalar));
};

template <class V, class Scalar>
[[gnu::always_inline]] inline V load_lanes(const Scalar* p) {
  V v;
  __builtin_memcpy(&v, p, sizeof(V));
  return v;
}

// Lanes S .. S + W - 1 of the concatenation (lo, hi).
template <int S, class V, int... I>
[[gnu::always_inline]] inline V lanes_from(V lo, V hi, std::integer_sequence<int, I...>) {
  return __builtin_shufflevector(lo, hi, (S + I)...);
}

// The rows a linear stencil reads, in kernel axes: row q = (R + ds) (2R + 1) + (R + dm), and for
// each the reach along the row. Points are the stencil's (View index order), Map the kernel axes.
template <class Map, class Points, int R>
struct RowsOfPoints {
  static constexpr int side = 2 * R + 1;
  template <int K>
  static constexpr int row = (R + Map::template ds<Point<Points, K>::d0, Point<Points, K>::d1, Point<Points, K>::d2>) * side +
                             (R + Map::template dm<Point<Points, K>::d0, Point<Points, K>::d1, Point<Points, K>::d2>);
  template <int K>
  static constexpr int along = Map::template df<Point<Points, K>::d0, Point<Points, K>::d1, Point<Points, K>::d2>;

  template <int... K>
  static constexpr bool any_point(int q, int sign, std::integer_sequence<int, K...>) {
    return ((row<K> == q && (sign < 0 ? along<K> < 0 : sign > 0 ? along<K> > 0 : true)) || ...);
  }
  using all = std::make_integer_sequence<int, Points::size>;
  static constexpr bool used(int q) { return any_point(q, 0, all{}); }
  static constexpr int rows_used() {
    int n = 0;
    for (int q = 0; q < side * side; ++q) n += used(q) ? 1 : 0;
    return n;
  }
  static constexpr bool reads_before(int q) { return any_point(q, -1, all{}); }
  static constexpr bool reads_after(int q) { return any_point(q, 1, all{}); }
};

// One vector of cells starting at f: the state of every row (the vector at f, and the one before
// it where the row reads cells before f), the points summed into C independent chains.
template <class Map, class Points, int R, class Scalar>
struct LinearRowVectors {
  using V = typename RowVector<Scalar>::type;
  static constexpr int W = RowVector<Scalar>::lanes;
  static constexpr int NQ = (2 * R + 1) * (2 * R + 1);
  static constexpr int N = Points::size;
  // The chains and summation order of weighted_sum, so that a cell differs from the scalar loop
  // only where the compiler fuses multiply-adds differently (1-2 ulps with FMA units).
  static constexpr int C = weighted_sum_chains<N>;
  using Rows = RowsOfPoints<Map, Points, R>;
  static_assert(R <= W, "EbisuKokkos: the row vectors are narrower than the stencil radius");

  const Scalar* const* row;  // row[q]: cell 0 of row q
  V before[NQ], at[NQ];      // the vectors at f - W and f (rows that need them)
  V weight[N];

  // The neighbour of point K's row shifted by its offset along the row.
  template <int K>
  [[gnu::always_inline]] V shifted(const V (&after)[NQ]) const {
    constexpr int q = Rows::template row<K>;
    constexpr int d = Rows::template along<K>;
    if constexpr (d == 0) {
      return at[q];
    } else if constexpr (d < 0) {
      return lanes_from<W + d>(before[q], at[q], std::make_integer_sequence<int, W>{});
    } else {
      return lanes_from<d>(at[q], after[q], std::make_integer_sequence<int, W>{});
    }
  }
  template <int J, int... I>
  [[gnu::always_inline]] V chain(const V (&after)[NQ], std::integer_sequence<int, I...>) const {
    return ((weight[J + C * I] * shifted<J + C * I>(after)) + ...);
  }
  template <int... J>
  [[gnu::always_inline]] V sum(const V (&after)[NQ], std::integer_sequence<int, J...>) const {
    return (chain<J>(after, std::make_integer_sequence<int, (N - J + C - 1) / C>{}) + ...);
  }

  // The vectors of row Q for the cells at f, loaded afresh. Lanes W - R .. W - 1 of `before` hold
  // cells f - R .. f - 1; `after` holds cells f + W .. (whole: `whole_after`, which reads W cells
  // beyond the vector) or only its lanes 0 .. R - 1 (cells f + W .. f + W + R - 1); so nothing
  // outside [f - R, f + W + R) is read unless `whole_after`.
  template <int Q>
  [[gnu::always_inline]] void fresh(long f, V (&after)[NQ], bool whole_after) {
    if constexpr (Rows::used(Q)) {
      constexpr auto lanes = std::make_integer_sequence<int, W>{};
      at[Q] = load_lanes<V>(row[Q] + f);
      if constexpr (Rows::reads_before(Q)) {
        const V p = load_lanes<V>(row[Q] + f - R);
        before[Q] = lanes_from<R>(p, p, lanes);
      }
      if constexpr (Rows::reads_after(Q)) {
        if (whole_after) {
          after[Q] = load_lanes<V>(row[Q] + f + W);
        } else {
          const V p = load_lanes<V>(row[Q] + f + R);
          after[Q] = lanes_from<W - R>(p, p, lanes);
        }
      }
    }
  }
  // From the vector at f - W to the one at f: what was loaded is carried, one load per row
  // (`whole_after` as in fresh; the carried `after` must have been whole).
  template <int Q>
  [[gnu::always_inline]] void advance(long f, V (&after)[NQ], bool whole_after) {
    if constexpr (Rows::used(Q)) {
      if constexpr (Rows::reads_before(Q)) before[Q] = at[Q];
      if constexpr (Rows::reads_after(Q)) {
        at[Q] = after[Q];
        if (whole_after) {
          after[Q] = load_lanes<V>(row[Q] + f + W);
        } else {
          const V p = load_lanes<V>(row[Q] + f + R);
          after[Q] = lanes_from<W - R>(p, p, std::make_integer_sequence<int, W>{});
        }
      } else {
        at[Q] = load_lanes<V>(row[Q] + f);
      }
    }
  }
  template <int... Q>
  [[gnu::always_inline]] void fresh_all(long f, V (&after)[NQ], bool whole_after, std::integer_sequence<int, Q...>) {
    (fresh<Q>(f, after, whole_after), ...);
  }
  template <int... Q>
  [[gnu::always_inline]] void advance_all(long f, V (&after)[NQ], bool whole_after, std::integer_sequence<int, Q...>) {
    (advance<Q>(f, after, whole_after), ...);
  }
  [[gnu::always_inline]] void emit(Scalar* out, long f, const V (&after)[NQ]) const {
    const V value = sum(after, std::make_integer_sequence<int, C>{});
    __builtin_memcpy(out + f, &value, sizeof(V));
  }
};

/// Whether the carried rows pay: stencils with at least two points per row they read (the boxes,
/// poisson). A star reads most rows at one point, which the compiler's loop loads once as well;
/// on one Xeon thread j3d7pt's generic step was no faster (within that machine's noise, up to 20%
/// slower) with them.
template <class Map, class Points, int R>
inline constexpr bool kLinearRowsPay = Points::size >= 2 * RowsOfPoints<Map, Points, R>::rows_used();

template <class Map, int R, class Eval, bool = IsLinearEvaluator<Eval>::value>
struct CarriedRowsPay : std::false_type {};
template <class Map, int R, class Eval>
struct CarriedRowsPay<Map, R, Eval, true> : std::bool_constant<kLinearRowsPay<Map, typename Eval::linear_points, R>> {};

/// out[f] = sum_k coef[k] * (point k of cell f) for f in [f0, f1), rows[R + ds][R + dm] being
/// cell 0 of the row at (ds, dm) in kernel axes. Every row must be readable over [f0 - R, f1 + R).
/// Rows shorter than a vector are left to `scalar_cells(f0, f1)`. `out` must not alias the rows:
/// the last vector may overlap the one before it and write its cells again.
template <class Map, class Points, int R, class Scalar, class Coefficients, class ScalarCells>
[[gnu::always_inline]] inline void linear_row(const Coefficients& coef, const Scalar* const (&rows)[2 * R + 1][2 * R + 1],
                                              Scalar* out, long f0, long f1, ScalarCells&& scalar_cells) {
  using Vectors = LinearRowVectors<Map, Points, R, Scalar>;
  using V = typename Vectors::V;
  constexpr int W = Vectors::W;
  if (f1 - f0 < W) {
    scalar_cells(f0, f1);
    return;
  }
  Vectors v;
  v.row = &rows[0][0];
  for (int k = 0; k < Vectors::N; ++k) v.weight[k] = V{} + static_cast<Scalar>(coef[k]);
  constexpr auto all = std::make_integer_sequence<int, Vectors::NQ>{};
  V after[Vectors::NQ];
  // Short rows: a vector at f0 and one ending at f1, each with its own loads.
  if (f0 + 2 * W - R > f1) {
    v.fresh_all(f0, after, false, all);
    v.emit(out, f0, after);
    if (f0 + W < f1) {
      v.fresh_all(f1 - W, after, false, all);
      v.emit(out, f1 - W, after);
    }
    return;
  }
  // Streamed while the whole next vector lies within the row's reach (f + 2W <= f1 + R), then at
  // most one more carried vector, then one ending at f1 (it overlaps the one before).
  v.fresh_all(f0, after, true, all);
  v.emit(out, f0, after);
  long f = f0 + W;
  for (; f + 2 * W - R <= f1; f += W) {
    v.advance_all(f, after, true, all);
    v.emit(out, f, after);
  }
  if (f + W <= f1) {
    v.advance_all(f, after, false, all);
    v.emit(out, f, after);
    f += W;
  }
  if (f < f1) {
    v.fresh_all(f1 - W, after, false, all);
    v.emit(out, f1 - W, after);
  }
}

#endif  // EBISU_KOKKOS_HOST_ROW_VECTORS

}  // namespace Host
}  // namespace Impl
}  // namespace EbisuKokkos

#endif
