#ifndef EBISU_KOKKOS_PRESETS_HPP
#define EBISU_KOKKOS_PRESETS_HPP

// The benchmark stencils of the EBISU paper (Table 2) plus 1-D 3- and 5-point.
//
// Default coefficients are distinct, positive and sum to one: iterating keeps
// values bounded (a convex combination), and a wrong offset or a transposed
// index changes the answer. Pass your own coefficients for physics.

#include <ebisu_kokkos/stencil.hpp>

#include <string>

namespace EbisuKokkos {
namespace presets {

/// Distinct weights w_k = 1 + 0.37 * ((11 k) mod N), normalised to sum 1
/// (11 is coprime with every point count used here, so all w_k differ).
template <int N>
Kokkos::Array<double, N> distinct_weights() {
  Kokkos::Array<double, N> w;
  double sum = 0;
  for (int k = 0; k < N; ++k) sum += (w[k] = 1.0 + 0.37 * ((11 * k) % N));
  for (int k = 0; k < N; ++k) w[k] /= sum;
  return w;
}

template <int Rank, int Radius, class Shape>
LinearStencil<Rank, Radius, Shape> with_distinct_weights() {
  using S = LinearStencil<Rank, Radius, Shape>;
  return S(distinct_weights<S::num_points>());
}

// clang-format off
inline auto j1d3pt()     { return with_distinct_weights<1, 1, StarShape>(); }
inline auto j1d5pt()     { return with_distinct_weights<1, 2, StarShape>(); }
inline auto j2d5pt()     { return with_distinct_weights<2, 1, StarShape>(); }
inline auto j2d9pt()     { return with_distinct_weights<2, 2, StarShape>(); }
inline auto j2d9pt_gol() { return with_distinct_weights<2, 1, BoxShape>(); }
inline auto j2d25pt()    { return with_distinct_weights<2, 2, BoxShape>(); }
inline auto j3d7pt()     { return with_distinct_weights<3, 1, StarShape>(); }
inline auto j3d13pt()    { return with_distinct_weights<3, 2, StarShape>(); }
inline auto j3d17pt()    { return with_distinct_weights<3, 1, Corner17Shape>(); }
inline auto j3d27pt()    { return with_distinct_weights<3, 1, BoxShape>(); }
inline auto poisson()    { return with_distinct_weights<3, 1, NoCornerShape>(); }
// clang-format on

/// Calls f(name, stencil) for each preset of the given rank (0: all), in suite order.
template <class F>
void for_each_preset(int rank, F&& f) {
  if (rank == 0 || rank == 1) {
    f(std::string("j1d3pt"), j1d3pt());
    f(std::string("j1d5pt"), j1d5pt());
  }
  if (rank == 0 || rank == 2) {
    f(std::string("j2d5pt"), j2d5pt());
    f(std::string("j2d9pt"), j2d9pt());
    f(std::string("j2d9pt-gol"), j2d9pt_gol());
    f(std::string("j2d25pt"), j2d25pt());
  }
  if (rank == 0 || rank == 3) {
    f(std::string("j3d7pt"), j3d7pt());
    f(std::string("j3d13pt"), j3d13pt());
    f(std::string("j3d17pt"), j3d17pt());
    f(std::string("j3d27pt"), j3d27pt());
    f(std::string("poisson"), poisson());
  }
}

}  // namespace presets
}  // namespace EbisuKokkos

#endif
