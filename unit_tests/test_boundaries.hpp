// Boundary rules (periodic, mirror, fixed per axis and side) against an
// independent long-double reference that wraps with a modulo and mirrors with
// its own formula: every rank, radius 1 and 2, both layouts, both call forms,
// step counts 0, 1 and odd, tiny extents (2 x radius + 1), a functor, the
// conservation of a periodic diffusion, and the bad input. The host blocked
// path forced with the same rules: test_boundaries_blocked.hpp.
#include "support/boundary_cases.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>

#include <algorithm>
#include <cmath>

namespace ebisu_test {

template <class Space, class Stencil>
void check_boundaries(const std::string& name, const Stencil& stencil) {
  constexpr int rank = Stencil::rank, r = Stencil::radius;
  const Update update = update_of(name, stencil);
  const Boundary P = Boundary::periodic, M = Boundary::mirror, F = Boundary::fixed;
  const std::vector<Rules> rule_sets = {all(P), all(M), {{{P, P}, {M, F}, {F, M}}}, {{{M, F}, {P, P}, {P, P}}}};
  const Extents tiny{2 * r + 1, rank >= 2 ? 2 * r + 1 : 1, rank >= 3 ? 2 * r + 1 : 1};
  const Extents odd{rank == 1 ? 37 : 13, rank >= 2 ? 10 : 1, rank >= 3 ? 7 : 1};
  for (const Rules& rules : rule_sets) {
    for (const auto& n : {tiny, odd}) {
      for (int steps : {0, 1, 7}) {
        run_boundary_case<Space, double, Kokkos::LayoutRight>(name, stencil, update, n, steps, rules,
                                                             EbisuKokkos::Backend::automatic, false);
      }
      run_boundary_case<Space, double, Kokkos::LayoutLeft>(name, stencil, update, n, 6, rules,
                                                          EbisuKokkos::Backend::generic, true);
      run_boundary_case<Space, float, Kokkos::LayoutLeft>(name, stencil, update, n, 5, rules,
                                                         EbisuKokkos::Backend::automatic, true);
    }
  }
}

TEST(TEST_CATEGORY, boundaries_1d) {
  check_boundaries<TEST_EXECSPACE>("j1d3pt", EbisuKokkos::presets::j1d3pt());
  check_boundaries<TEST_EXECSPACE>("j1d5pt", EbisuKokkos::presets::j1d5pt());
}

TEST(TEST_CATEGORY, boundaries_2d) {
  check_boundaries<TEST_EXECSPACE>("j2d5pt", EbisuKokkos::presets::j2d5pt());
  check_boundaries<TEST_EXECSPACE>("j2d25pt", EbisuKokkos::presets::j2d25pt());
}

TEST(TEST_CATEGORY, boundaries_3d) {
  check_boundaries<TEST_EXECSPACE>("j3d7pt", EbisuKokkos::presets::j3d7pt());
  check_boundaries<TEST_EXECSPACE>("j3d13pt", EbisuKokkos::presets::j3d13pt());
}

// A functor stencil on a periodic 2-D domain (reads through the mapped accessor at the edges).
template <class Space>
void run_periodic_functor() {
  const auto stencil = EbisuKokkos::make_stencil<2, 1>(KOKKOS_LAMBDA(const EbisuKokkos::Neighbors<double, 2, 1>& nb) {
    return 0.5 * nb(0, 0) + 0.3 * nb(-1, 1) * nb(1, 0) + 0.2 * (nb(0, -1) > nb(1, 1) ? nb(0, -1) : nb(1, 1));
  });
  const Update update = [](const std::function<long double(int, int, int)>& nb) {
    return 0.5L * nb(0, 0, 0) + 0.3L * nb(-1, 1, 0) * nb(1, 0, 0) + 0.2L * std::max(nb(0, -1, 0), nb(1, 1, 0));
  };
  run_boundary_case<Space, double, Kokkos::LayoutRight>("functor", stencil, update, {9, 11, 1}, 9, all(Boundary::periodic),
                                                        EbisuKokkos::Backend::automatic, false);
}
TEST(TEST_CATEGORY, boundaries_functor_periodic) { run_periodic_functor<TEST_EXECSPACE>(); }

TEST(TEST_CATEGORY, boundaries_periodic_diffusion_conserves_the_total) {
  // Weights summing to 1 on a fully periodic domain move heat around without losing any.
  using V = TestView<double, 2, Kokkos::LayoutRight, TEST_EXECSPACE>;
  const auto stencil = EbisuKokkos::star_stencil<2, 1>({0.1, 0.2, 0.4, 0.2, 0.1});
  const Extents n{24, 17, 1};
  const Field init = random_field(n, 3u);
  V u = make_view<V>("u", n), x = make_view<V>("x", n);
  upload(u, init);
  EbisuKokkos::StencilPolicy<TEST_EXECSPACE> policy(200);
  policy.set_boundary(0, Boundary::periodic).set_boundary(1, Boundary::periodic);
  EbisuKokkos::parallel_stencil("conserve", policy, stencil, u, x);
  const Field got = download(u);
  long double before = 0, after = 0, spread = 0;
  for (size_t k = 0; k < init.v.size(); ++k) {
    before += init.v[k];
    after += got.v[k];
    spread += std::fabs(static_cast<double>(got.v[k] - init.v[k]));
  }
  EXPECT_NEAR(static_cast<double>(after), static_cast<double>(before), 1e-11 * static_cast<double>(before));
  EXPECT_GT(static_cast<double>(spread), 1.0);  // it did diffuse
}

TEST(TEST_CATEGORY, boundaries_bad_input) {
  using V = TestView<double, 2, Kokkos::LayoutRight, TEST_EXECSPACE>;
  const auto stencil = EbisuKokkos::presets::j2d5pt();
  const Extents n{8, 9, 1};
  const Field init = random_field(n, 4u);
  V u = make_view<V>("u", n), x = make_view<V>("x", n);
  upload(u, init);
  auto expect_rejected = [&](EbisuKokkos::StencilPolicy<TEST_EXECSPACE> policy, const std::string& words) {
    try {
      EbisuKokkos::parallel_stencil("bad", policy, stencil, u, x);
      ADD_FAILURE() << "accepted: " << words;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
    EXPECT_EQ(relative_error(download(u), init), 0.0);  // the caller's data untouched
  };
  EbisuKokkos::StencilPolicy<TEST_EXECSPACE> one_sided(3);
  one_sided.set_boundary(1, EbisuKokkos::Side::low, Boundary::periodic);
  expect_rejected(one_sided, "periodic on one side only");
  EbisuKokkos::StencilPolicy<TEST_EXECSPACE> beyond_rank(3);
  beyond_rank.set_boundary(2, Boundary::mirror);
  expect_rejected(beyond_rank, "index 2 of a rank-2 View");
  using Ebisu = EbisuKokkos::Impl::EbisuBackend<TEST_EXECSPACE, decltype(stencil), V>;
  if constexpr (Ebisu::available && !EbisuKokkos::Impl::backend_takes_boundary_rules<Ebisu>::value) {
    // Only where the EBISU kernels take fixed frames only.
    EbisuKokkos::StencilPolicy<TEST_EXECSPACE> forced(3);
    forced.set_backend(EbisuKokkos::Backend::ebisu).set_boundary(0, Boundary::periodic);
    expect_rejected(forced, "take fixed frames only");
  }
  EbisuKokkos::StencilPolicy<TEST_EXECSPACE> p(1);
  EXPECT_THROW(p.set_boundary(3, Boundary::mirror), std::invalid_argument);
}

}  // namespace ebisu_test
