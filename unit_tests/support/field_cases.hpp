#ifndef EBISU_KOKKOS_TEST_FIELD_CASES_HPP
#define EBISU_KOKKOS_TEST_FIELD_CASES_HPP

// Read-only-field stencils under test (functor structs, one definition for
// float and double), the same updates again in long double for the
// independent reference (support/reference.hpp: reference_run_with_fields),
// field makers and the fields(...) argument builder; shared by
// test_fields.hpp (every backend) and cuda/test_field_kernels.cpp.

#include "run_case.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>

#include <array>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ebisu_test {
namespace field_tests {

using EbisuKokkos::Backend;
using EbisuKokkos::Neighbors;

// ---- Stencils under test: functor structs, one definition for float and double.

// Offset (d0, d1, d2) = s * d along index a.
struct AxisOffset {
  int d[3];
  KOKKOS_INLINE_FUNCTION AxisOffset(int a, int s) : d{a == 0 ? s : 0, a == 1 ? s : 0, a == 2 ? s : 0} {}
};

// u' = u + dt div(k grad u), the face conductivity the mean of the two cells:
// k is a full-footprint field.
template <int Rank>
struct VariableHeat {
  double dt;
  template <class S>
  KOKKOS_INLINE_FUNCTION S operator()(const Neighbors<S, Rank, 1>& u, const Neighbors<S, Rank, 1>& k) const {
    S flux = 0;
    for (int a = 0; a < Rank; ++a) {
      for (int s = -1; s <= 1; s += 2) {
        const AxisOffset o(a, s);
        flux += S(0.5) * (k(0, 0, 0) + k(o.d[0], o.d[1], o.d[2])) * (u(o.d[0], o.d[1], o.d[2]) - u(0, 0, 0));
      }
    }
    return u(0, 0, 0) + S(dt) * flux;
  }
};

// Per-offset weight of the star point s * d along index a (dyadic, so exact in
// float): makes the update asymmetric, so a transposed or mirrored offset shows.
KOKKOS_INLINE_FUNCTION double star_weight(int a, int d, int s) { return 1.0 + 0.5 * a + 0.25 * (d - 1) + (s > 0 ? 0.125 : 0.0); }

// u' = sum_p w_p g(p) u(p) / sum_p w_p g(p) over the star of radius R: the
// field g is read at every neighbour, up to R cells away.
template <int Rank, int Radius>
struct FieldWeightedAverage {
  template <class S>
  KOKKOS_INLINE_FUNCTION S operator()(const Neighbors<S, Rank, Radius>& u, const Neighbors<S, Rank, Radius>& g) const {
    S num = g(0, 0, 0) * u(0, 0, 0), den = g(0, 0, 0);
    for (int a = 0; a < Rank; ++a) {
      for (int d = 1; d <= Radius; ++d) {
        for (int s = -1; s <= 1; s += 2) {
          const AxisOffset o(a, s * d);
          const S w = S(star_weight(a, d, s)) * g(o.d[0], o.d[1], o.d[2]);
          num += w * u(o.d[0], o.d[1], o.d[2]);
          den += w;
        }
      }
    }
    return num / den;
  }
};

// u' = u/2 + sum_p w_p u(p) / (8 Rank Radius) + f (3/2 - u) / 4: f is a
// source read at the centre only.
template <int Rank, int Radius>
struct ReactionWithSource {
  template <class S>
  KOKKOS_INLINE_FUNCTION S operator()(const Neighbors<S, Rank, Radius>& u, S f) const {
    S sum = S(0.5) * u(0, 0, 0);
    for (int a = 0; a < Rank; ++a) {
      for (int d = 1; d <= Radius; ++d) {
        for (int s = -1; s <= 1; s += 2) {
          const AxisOffset o(a, s * d);
          sum += S(star_weight(a, d, s) / (8.0 * Rank * Radius)) * u(o.d[0], o.d[1], o.d[2]);
        }
      }
    }
    return sum + S(0.25) * f * (S(1.5) - u(0, 0, 0));
  }
};

// ---- The same updates for the reference, written again in long double.

inline std::array<int, 3> axis_offset(int a, int s) { return {a == 0 ? s : 0, a == 1 ? s : 0, a == 2 ? s : 0}; }

inline FieldsUpdate variable_heat_update(int rank, long double dt) {
  return [rank, dt](const Reader& u, const std::vector<Reader>& f) {
    const Reader& k = f.at(0);
    long double flux = 0;
    for (int a = 0; a < rank; ++a)
      for (int s : {-1, 1}) {
        const auto o = axis_offset(a, s);
        flux += 0.5L * (k(0, 0, 0) + k(o[0], o[1], o[2])) * (u(o[0], o[1], o[2]) - u(0, 0, 0));
      }
    return u(0, 0, 0) + dt * flux;
  };
}

inline long double reference_star_weight(int a, int d, int s) {
  return 1.0L + 0.5L * a + 0.25L * (d - 1) + (s > 0 ? 0.125L : 0.0L);
}

inline FieldsUpdate weighted_average_update(int rank, int radius) {
  return [rank, radius](const Reader& u, const std::vector<Reader>& f) {
    const Reader& g = f.at(0);
    long double num = g(0, 0, 0) * u(0, 0, 0), den = g(0, 0, 0);
    for (int a = 0; a < rank; ++a)
      for (int d = 1; d <= radius; ++d)
        for (int s : {-1, 1}) {
          const auto o = axis_offset(a, s * d);
          const long double w = reference_star_weight(a, d, s) * g(o[0], o[1], o[2]);
          num += w * u(o[0], o[1], o[2]);
          den += w;
        }
    return num / den;
  };
}

inline FieldsUpdate reaction_update(int rank, int radius) {
  return [rank, radius](const Reader& u, const std::vector<Reader>& f) {
    long double sum = 0.5L * u(0, 0, 0);
    for (int a = 0; a < rank; ++a)
      for (int d = 1; d <= radius; ++d)
        for (int s : {-1, 1}) {
          const auto o = axis_offset(a, s * d);
          sum += reference_star_weight(a, d, s) / (8.0L * rank * radius) * u(o[0], o[1], o[2]);
        }
    return sum + 0.25L * f.at(0)(0, 0, 0) * (1.5L - u(0, 0, 0));
  };
}

// sum_k c_k(x) u(x + o_k): coefficient k from field k at the centre.
inline FieldsUpdate coefficient_fields_update(const std::vector<Offset>& offsets) {
  return [offsets](const Reader& u, const std::vector<Reader>& c) {
    long double sum = 0;
    for (size_t k = 0; k < offsets.size(); ++k) sum += c.at(k)(0, 0, 0) * u(offsets[k][0], offsets[k][1], offsets[k][2]);
    return sum;
  };
}

// Linear preset plus the source field at the centre.
inline FieldsUpdate linear_plus_source_update(const Update& linear) {
  return [linear](const Reader& u, const std::vector<Reader>& f) { return linear(u) + f.at(0)(0, 0, 0); };
}

// ---- Field values: random, exactly representable in float (scaled by powers of two).

using FieldMaker = std::function<std::vector<Field>(const Extents&)>;

inline Field scaled(Field f, long double factor) {
  for (auto& x : f.v) x *= factor;
  return f;
}

inline FieldMaker random_fields(int count, long double factor) {
  return [count, factor](const Extents& n) {
    std::vector<Field> fs;
    for (int k = 0; k < count; ++k) fs.push_back(scaled(random_field(n, 500u + 17u * k), factor));
    return fs;
  };
}

// ---- The runner.

template <bool... Centre>
struct Kinds {};
template <std::size_t... I>
Kinds<((void)I, true)...> all_centre_kinds(std::index_sequence<I...>);
template <std::size_t N>
using AllCentre = decltype(all_centre_kinds(std::make_index_sequence<N>{}));

template <bool Centre, class W>
auto as_field(const W& w) {
  if constexpr (Centre) {
    return EbisuKokkos::centre_only(w);
  } else {
    return w;
  }
}
template <bool... Centre, class Views, std::size_t... I>
auto fields_argument(const Views& views, std::index_sequence<I...>) {
  return EbisuKokkos::fields(as_field<Centre>(views[I])...);
}

inline std::string describe_edges(const Edges& e) {
  const char* name[] = {"fixed", "periodic", "mirror"};
  std::string s;
  for (int a = 0; a < 3; ++a)
    s += std::string(a ? "," : "") + name[static_cast<int>(e[a][0])] + "/" + name[static_cast<int>(e[a][1])];
  return s;
}

inline EbisuKokkos::Boundary to_boundary(Edge e) {
  return e == Edge::periodic ? EbisuKokkos::Boundary::periodic
         : e == Edge::mirror ? EbisuKokkos::Boundary::mirror
                             : EbisuKokkos::Boundary::fixed;
}

}  // namespace field_tests
}  // namespace ebisu_test

#endif
