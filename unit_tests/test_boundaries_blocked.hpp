// Periodic and mirror sides on the EBISU backend forced (Backend::ebisu),
// where it takes them (EbisuBackend::takes_boundary_rules: the host blocked
// path on Serial and OpenMP; skipped elsewhere), against the long-double
// reference of support/boundary_cases.hpp: ranks 1-3, radius 1 and 2, both
// layouts, both call forms, T = 0, 1 and not a multiple of the depth, odd and
// 2 x radius + 1 extents, domains smaller than a tile and domains cut into
// many tiles and runs (tile and depth knobs, halos wider than a tile or than
// the domain), asymmetric functors (a reflected field does not stay reflected
// under them), and the conservation of a periodic average.
#include "support/boundary_cases.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>

#include <algorithm>
#include <cmath>

namespace ebisu_test {

// True where Backend::ebisu is the host blocked path and runs periodic and
// mirror sides for this stencil and View type. (The CUDA kernels take mirror
// sides only for mirror-symmetric stencils: unit_tests/cuda/test_boundary_kernels.cpp.)
template <class Space, class Stencil, class Scalar, class Layout>
constexpr bool ebisu_takes_rules() {
  using V = TestView<Scalar, Stencil::rank, Layout, Space>;
  using B = EbisuKokkos::Impl::EbisuBackend<Space, Stencil, V>;
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
  return host && B::available && EbisuKokkos::Impl::backend_takes_boundary_rules<B>::value;
}

// One forced case; also checks that the EBISU backend ran it and that the plan names the rules.
template <class Space, class Scalar, class Layout, class Stencil>
void forced_case(const std::string& name, const Stencil& stencil, const Update& update, const Extents& n, int steps,
                 const Rules& rules, bool double_buffer, const CaseKnobs& knobs = {}) {
  const EbisuKokkos::StencilReport report = run_boundary_case<Space, Scalar, Layout>(
      name, stencil, update, n, steps, rules, EbisuKokkos::Backend::ebisu, double_buffer, knobs);
  EXPECT_EQ(report.backend, EbisuKokkos::Backend::ebisu) << report.plan;
  bool periodic = false, mirror = false;
  for (int a = 0; a < Stencil::rank; ++a)
    for (Boundary b : rules[a]) (b == Boundary::periodic ? periodic : mirror) |= b != Boundary::fixed;
  if (periodic) EXPECT_NE(report.plan.find("periodic axis"), std::string::npos) << report.plan;
  if (mirror) EXPECT_NE(report.plan.find("mirror axis"), std::string::npos) << report.plan;
  if (steps > 0 && knobs.depth > 0) {
    EXPECT_EQ(report.launches, (steps + report.temporal_depth - 1) / report.temporal_depth) << report.plan;
  }
}

// Every rule set, extent class and call form for one stencil. WithFloat: also
// float Views (the presets; the functors are written for one scalar).
template <class Space, class Scalar, bool WithFloat, class Stencil>
void check_blocked(const std::string& name, const Stencil& stencil, const Update& update) {
  if constexpr (!ebisu_takes_rules<Space, Stencil, Scalar, Kokkos::LayoutRight>()) {
    GTEST_SKIP() << "not the host blocked path (or it takes fixed frames only here)";
  } else {
    constexpr int rank = Stencil::rank, r = Stencil::radius;
    using Right = Kokkos::LayoutRight;
    using Left = Kokkos::LayoutLeft;
    const Boundary P = Boundary::periodic, M = Boundary::mirror, F = Boundary::fixed;
    const std::vector<Rules> rule_sets = {all(P), all(M), {{{P, P}, {M, F}, {F, M}}}, {{{M, F}, {P, P}, {P, P}}},
                                          {{{F, M}, {M, M}, {M, F}}}};
    const Extents tiny{2 * r + 1, rank >= 2 ? 2 * r + 1 : 1, rank >= 3 ? 2 * r + 1 : 1};
    const Extents odd{rank == 1 ? 37 : 13, rank >= 2 ? 10 : 1, rank >= 3 ? 7 : 1};
    // Many tiles across and, on the slow axis, several runs (the runs follow the thread count).
    const Extents many{rank == 1 ? 61 : rank == 2 ? 150 : 40, rank == 2 ? 23 : rank == 3 ? 11 : 1, rank == 3 ? 13 : 1};
    const CaseKnobs narrow{3, rank == 3 ? 4 : 8, rank == 3 ? 3 : 0};
    const CaseKnobs thin{5, 2, rank == 3 ? 2 : 0};  // halos wider than a tile
    for (const Rules& rules : rule_sets) {
      for (int steps : {0, 1, 7}) forced_case<Space, Scalar, Right>(name, stencil, update, tiny, steps, rules, false);
      forced_case<Space, Scalar, Left>(name, stencil, update, tiny, 9, rules, true, {4});  // halo wider than the domain
      for (int steps : {1, 7}) forced_case<Space, Scalar, Right>(name, stencil, update, odd, steps, rules, false);
      forced_case<Space, Scalar, Left>(name, stencil, update, odd, 11, rules, true, {4});
      forced_case<Space, Scalar, Right>(name, stencil, update, odd, 5, rules, true, {2});
      forced_case<Space, Scalar, Right>(name, stencil, update, many, 11, rules, false, narrow);
      forced_case<Space, Scalar, Left>(name, stencil, update, many, 9, rules, true, narrow);
      forced_case<Space, Scalar, Left>(name, stencil, update, odd, 6, rules, false, thin);
      if constexpr (rank == 3) {  // one tile across, several runs along the streamed axis
        forced_case<Space, Scalar, Right>(name, stencil, update, {100, 7, 9}, 10, rules, false, {3, 64, 64});
        forced_case<Space, Scalar, Left>(name, stencil, update, {9, 7, 100}, 7, rules, true, {3, 64, 64});
      }
      if constexpr (WithFloat) {
        forced_case<Space, float, Left>(name, stencil, update, odd, 5, rules, false);
        forced_case<Space, float, Right>(name, stencil, update, many, 7, rules, true, narrow);
      }
    }
  }
}

template <class Space, class Stencil>
void check_blocked_preset(const std::string& name, const Stencil& stencil) {
  check_blocked<Space, double, true>(name, stencil, update_of(name, stencil));
}

// Extended device lambdas cannot live in a gtest body (a private member function).
template <class Space>
void run_blocked_1d() {
  check_blocked_preset<Space>("j1d3pt", EbisuKokkos::presets::j1d3pt());
  check_blocked_preset<Space>("j1d5pt", EbisuKokkos::presets::j1d5pt());
  const auto functor = EbisuKokkos::make_stencil<1, 2>(KOKKOS_LAMBDA(const EbisuKokkos::Neighbors<double, 1, 2>& nb) {
    return 0.6 * nb(0) + 0.4 * nb(-2) * nb(1);
  });
  check_blocked<Space, double, false>("functor-1d", functor, [](const Reader& nb) {
    return 0.6L * nb(0, 0, 0) + 0.4L * nb(-2, 0, 0) * nb(1, 0, 0);
  });
}

TEST(TEST_CATEGORY, boundaries_blocked_1d) { run_blocked_1d<TEST_EXECSPACE>(); }

TEST(TEST_CATEGORY, boundaries_blocked_2d) {
  check_blocked_preset<TEST_EXECSPACE>("j2d5pt", EbisuKokkos::presets::j2d5pt());
  check_blocked_preset<TEST_EXECSPACE>("j2d25pt", EbisuKokkos::presets::j2d25pt());
}

// Extended device lambdas cannot live in a gtest body (a private member function).
template <class Space>
void run_blocked_2d_functors() {
  const auto r1 = EbisuKokkos::make_stencil<2, 1>(KOKKOS_LAMBDA(const EbisuKokkos::Neighbors<double, 2, 1>& nb) {
    return 0.5 * nb(0, 0) + 0.3 * nb(-1, 1) * nb(1, 0) + 0.2 * (nb(0, -1) > nb(1, 1) ? nb(0, -1) : nb(1, 1));
  });
  check_blocked<Space, double, false>("functor-2d-r1", r1, [](const Reader& nb) {
    return 0.5L * nb(0, 0, 0) + 0.3L * nb(-1, 1, 0) * nb(1, 0, 0) + 0.2L * std::max(nb(0, -1, 0), nb(1, 1, 0));
  });
  const auto r2 = EbisuKokkos::make_stencil<2, 2>(KOKKOS_LAMBDA(const EbisuKokkos::Neighbors<float, 2, 2>& nb) {
    return 0.5f * nb(0, 0) + 0.3f * nb(-2, 1) + 0.2f * nb(1, 2);
  });
  check_blocked<Space, float, false>("functor-2d-r2", r2, [](const Reader& nb) {
    return 0.5L * nb(0, 0, 0) + 0.3L * nb(-2, 1, 0) + 0.2L * nb(1, 2, 0);
  });
}

TEST(TEST_CATEGORY, boundaries_blocked_2d_functors) { run_blocked_2d_functors<TEST_EXECSPACE>(); }

TEST(TEST_CATEGORY, boundaries_blocked_3d) {
  check_blocked_preset<TEST_EXECSPACE>("j3d7pt", EbisuKokkos::presets::j3d7pt());
  check_blocked_preset<TEST_EXECSPACE>("j3d13pt", EbisuKokkos::presets::j3d13pt());
}

// Extended device lambdas cannot live in a gtest body (a private member function).
template <class Space>
void run_blocked_3d_functors() {
  const auto r1 = EbisuKokkos::make_stencil<3, 1>(KOKKOS_LAMBDA(const EbisuKokkos::Neighbors<double, 3, 1>& nb) {
    const double m = nb(-1, 0, 1) < nb(1, -1, 0) ? nb(-1, 0, 1) : nb(1, -1, 0);
    return 0.35 * nb(0, 0, 0) + 0.25 * m + 0.2 * nb(0, 1, -1) * nb(1, 1, 1) + 0.2 * nb(0, 0, 1);
  });
  check_blocked<Space, double, false>("functor-3d-r1", r1, [](const Reader& nb) {
    return 0.35L * nb(0, 0, 0) + 0.25L * std::min(nb(-1, 0, 1), nb(1, -1, 0)) + 0.2L * nb(0, 1, -1) * nb(1, 1, 1) +
           0.2L * nb(0, 0, 1);
  });
  const auto r2 = EbisuKokkos::make_stencil<3, 2>(KOKKOS_LAMBDA(const EbisuKokkos::Neighbors<double, 3, 2>& nb) {
    return 0.4 * nb(0, 0, 0) + 0.25 * nb(-2, 1, 0) + 0.2 * nb(1, -2, 2) + 0.15 * nb(0, 2, -1);
  });
  check_blocked<Space, double, false>("functor-3d-r2", r2, [](const Reader& nb) {
    return 0.4L * nb(0, 0, 0) + 0.25L * nb(-2, 1, 0) + 0.2L * nb(1, -2, 2) + 0.15L * nb(0, 2, -1);
  });
}

TEST(TEST_CATEGORY, boundaries_blocked_3d_functors) { run_blocked_3d_functors<TEST_EXECSPACE>(); }

// Weights summing to 1 on a fully periodic domain move the total around without
// losing any, also across the seams of wrap-around tiles and runs.
template <class Space, int Rank, class Stencil>
void check_blocked_conservation(const Stencil& stencil, const Extents& n, const CaseKnobs& knobs) {
  using V = TestView<double, Rank, Kokkos::LayoutRight, Space>;
  if constexpr (!ebisu_takes_rules<Space, Stencil, double, Kokkos::LayoutRight>()) {
    GTEST_SKIP() << "not the host blocked path (or it takes fixed frames only here)";
  } else {
    SCOPED_TRACE("rank " + std::to_string(Rank));
    const Field init = random_field(n, 3u);
    V u = make_view<V>("u", n), x = make_view<V>("x", n);
    upload(u, init);
    EbisuKokkos::StencilPolicy<Space> policy(200);
    policy.set_backend(EbisuKokkos::Backend::ebisu)
        .set_temporal_depth(knobs.depth)
        .set_tile_width(knobs.tile_width)
        .set_tile_height(knobs.tile_height);
    for (int a = 0; a < Rank; ++a) policy.set_boundary(a, Boundary::periodic);
    const auto report = EbisuKokkos::parallel_stencil("conserve", policy, stencil, u, x);
    EXPECT_EQ(report.backend, EbisuKokkos::Backend::ebisu) << report.plan;
    const Field got = download(u);
    long double before = 0, after = 0, spread = 0;
    for (size_t k = 0; k < init.v.size(); ++k) {
      before += init.v[k];
      after += got.v[k];
      spread += std::fabs(static_cast<double>(got.v[k] - init.v[k]));
    }
    EXPECT_NEAR(static_cast<double>(after), static_cast<double>(before), 1e-11 * static_cast<double>(before))
        << report.plan;
    EXPECT_GT(static_cast<double>(spread), 1.0) << report.plan;  // it did diffuse
  }
}

TEST(TEST_CATEGORY, boundaries_blocked_periodic_average_conserves_the_total) {
  check_blocked_conservation<TEST_EXECSPACE, 1>(EbisuKokkos::star_stencil<1, 1>({0.25, 0.5, 0.25}), {53, 1, 1},
                                                {6, 8, 0});
  check_blocked_conservation<TEST_EXECSPACE, 2>(EbisuKokkos::star_stencil<2, 1>({0.1, 0.2, 0.4, 0.2, 0.1}),
                                                {24, 17, 1}, {0, 8, 0});
  check_blocked_conservation<TEST_EXECSPACE, 2>(EbisuKokkos::star_stencil<2, 1>({0.1, 0.2, 0.4, 0.2, 0.1}),
                                                {90, 17, 1}, {3, 5, 0});
  check_blocked_conservation<TEST_EXECSPACE, 3>(
      EbisuKokkos::star_stencil<3, 1>({0.1, 0.15, 0.1, 0.3, 0.1, 0.15, 0.1}), {30, 9, 11}, {4, 4, 3});
}

}  // namespace ebisu_test
