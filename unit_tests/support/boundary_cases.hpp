#ifndef EBISU_KOKKOS_TEST_BOUNDARY_CASES_HPP
#define EBISU_KOKKOS_TEST_BOUNDARY_CASES_HPP

// One boundary-rule case (periodic, mirror, fixed per axis and side) against an
// independent long-double reference that wraps with a modulo and mirrors with
// its own formula; shared by test_boundaries.hpp (every backend) and
// test_boundaries_blocked.hpp (the host blocked path forced).

#include "run_case.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>

#include <algorithm>
#include <array>
#include <cmath>

namespace ebisu_test {

using EbisuKokkos::Boundary;
using Rules = std::array<std::array<Boundary, 2>, 3>;

inline Rules all(Boundary b) { return {{{b, b}, {b, b}, {b, b}}}; }

inline std::string describe(const Rules& r) {
  std::string s;
  for (int a = 0; a < 3; ++a) s += std::string(a ? "," : "") + to_string(r[a][0]) + "/" + to_string(r[a][1]);
  return s;
}

inline Field reference_run_with(const Field& init, int rank, int radius, const Update& update, int steps,
                                const Rules& rules) {
  Field a = init, b = init;
  auto updated = [&](int axis, int i) {
    if (axis >= rank) return true;
    const int n = init.n[axis];
    return !((rules[axis][0] == Boundary::fixed && i < radius) || (rules[axis][1] == Boundary::fixed && i >= n - radius));
  };
  auto source = [&](int axis, int j) {
    const int n = init.n[axis];
    if (axis >= rank || (j >= 0 && j < n)) return j;
    const Boundary rule = rules[axis][j < 0 ? 0 : 1];
    if (rule == Boundary::periodic) return ((j % n) + n) % n;
    return j < 0 ? -j - 1 : 2 * n - j - 1;  // mirror about the edge face
  };
  for (int s = 0; s < steps; ++s) {
    for (int i0 = 0; i0 < init.n[0]; ++i0)
      for (int i1 = 0; i1 < init.n[1]; ++i1)
        for (int i2 = 0; i2 < init.n[2]; ++i2) {
          if (!updated(0, i0) || !updated(1, i1) || !updated(2, i2)) continue;
          auto nb = [&](int d0, int d1, int d2) {
            return a.at(source(0, i0 + d0), source(1, i1 + d1), source(2, i2 + d2));
          };
          b.at(i0, i1, i2) = update(nb);
        }
    std::swap(a, b);
  }
  return a;
}

// Tuning knobs of one case (0: the plan's choice).
struct CaseKnobs {
  int depth = 0, tile_width = 0, tile_height = 0;
};

template <class Space, class Scalar, class Layout, class Stencil>
EbisuKokkos::StencilReport run_boundary_case(const std::string& name, const Stencil& stencil, const Update& update,
                                             const Extents& n, int steps, const Rules& rules,
                                             EbisuKokkos::Backend backend, bool double_buffer,
                                             const CaseKnobs& knobs = {}) {
  if constexpr (left_out_of_compile_check<Space, Scalar>) {
    return {};
  } else {
    constexpr int rank = Stencil::rank;
    using V = TestView<Scalar, rank, Layout, Space>;
    SCOPED_TRACE(name + " " + describe({n, steps}, rank) + " rules " + describe(rules) +
                 (double_buffer ? " DoubleBuffer" : "") + (std::is_same_v<Scalar, float> ? " float" : " double") +
                 (std::is_same_v<Layout, Kokkos::LayoutLeft> ? " LayoutLeft" : " LayoutRight") + " knobs depth " +
                 std::to_string(knobs.depth) + " tile " + std::to_string(knobs.tile_height) + "x" +
                 std::to_string(knobs.tile_width) + " backend " + to_string(backend));
    const Field init = random_field(n, 31u + steps);
    const Field ref = reference_run_with(init, rank, Stencil::radius, update, steps, rules);
    V u = make_view<V>("u", n), x = make_view<V>("x", n);
    upload(u, init);
    poison(x);
    EbisuKokkos::StencilPolicy<Space> policy(steps);
    policy.set_backend(backend)
        .set_temporal_depth(knobs.depth)
        .set_tile_width(knobs.tile_width)
        .set_tile_height(knobs.tile_height);
    for (int a = 0; a < rank; ++a) {
      policy.set_boundary(a, EbisuKokkos::Side::low, rules[a][0]).set_boundary(a, EbisuKokkos::Side::high, rules[a][1]);
    }
    EbisuKokkos::StencilReport report;
    Field got;
    if (double_buffer) {
      EbisuKokkos::DoubleBuffer<V> buffers(u, x);
      report = EbisuKokkos::parallel_stencil(name, policy, stencil, buffers);
      got = download(buffers.current());
    } else {
      report = EbisuKokkos::parallel_stencil(name, policy, stencil, u, x);
      got = download(u);
    }
    if (steps == 0) {
      EXPECT_EQ(relative_error(got, init), 0.0) << report.plan;
    } else {
      EXPECT_LE(relative_error(got, ref), tolerance<Scalar>()) << report.plan;
    }
    return report;
  }
}

}  // namespace ebisu_test

#endif
