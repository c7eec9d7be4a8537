// The in-place tiling strategy (3-D, one persistent cooperative launch, each
// cell in a thread's registers, halos through L2 with one grid barrier per
// step). The preset and split-domain suites force it on every 3-D case they
// run (run_case.hpp); here: the kernels of 16 and 32 cells per thread and of
// pairs of 16-cell columns (domains that need them), functor stencils, both
// layouts through the axis map, two concurrent calls on two streams, and the
// fallbacks with their reasons.
#include "category/cuda.hpp"
#include "support/concurrent_streams.hpp"
#include "support/run_case.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>


#include <cstdlib>

namespace ebisu_test {

using EbisuKokkos::Backend;
using EbisuKokkos::Strategy;

// Runs `stencil` forced in-place tiling on n for `steps`, against the
// long-double reference; returns the report.
template <class Scalar, class Layout, class Stencil>
EbisuKokkos::StencilReport check_in_place(const Stencil& stencil, const Update& update, const Extents& n, int steps,
                                          unsigned seed) {
  using V = TestView<Scalar, 3, Layout, Kokkos::Cuda>;
  const Field init = random_field(n, seed);
  const Field ref = reference_run(init, 3, Stencil::radius, update, steps);
  V u = make_view<V>("u", n), s = make_view<V>("scratch", n);
  upload(u, init);
  poison(s);
  EbisuKokkos::StencilPolicy<Kokkos::Cuda> policy(steps);
  policy.set_backend(Backend::ebisu).set_strategy(Strategy::in_place_tiling);
  const auto report = EbisuKokkos::parallel_stencil("in-place", policy, stencil, u, s);
  Kokkos::fence();
  EXPECT_EQ(report.strategy, Strategy::in_place_tiling) << report.plan;
  EXPECT_LE(relative_error(download(u), ref), tolerance<Scalar>()) << report.plan;
  return report;
}

// 96 x 70 x 100: 24 x 5 x 4 blocks of 4 cells per thread would be too many to
// be resident, so the 16-cell kernel runs (6 x 5 x 4 blocks, short last tiles
// along every axis). 136 x 80 x 96: too many blocks of 16 cells too, so a
// star runs pairs of 16-cell columns (9 x 3 x 3 blocks of 16 x 32 x 32) and
// a box-like stencil the 32-cell kernel. Odd step counts (the result in
// scratch) and even ones.
TEST(cuda, in_place_tiling_kernels_of_16_and_32_cells) {
  namespace p = EbisuKokkos::presets;
  const bool quick = std::getenv("EBISU_TEST_QUICK") != nullptr;
  {
    const auto r = check_in_place<double, Kokkos::LayoutRight>(p::j3d7pt(), update_of("j3d7pt", p::j3d7pt()),
                                                                {96, 70, 100}, 7, 11u);
    EXPECT_NE(r.plan.find("of 1 x 16 cells"), std::string::npos) << r.plan;
  }
  if (!quick) {
    const auto r = check_in_place<double, Kokkos::LayoutLeft>(p::poisson(), update_of("poisson", p::poisson()),
                                                               {100, 70, 96}, 6, 12u);
    EXPECT_NE(r.plan.find("of 1 x 16 cells"), std::string::npos) << r.plan;
  }
  {
    const auto r = check_in_place<double, Kokkos::LayoutRight>(p::j3d13pt(), update_of("j3d13pt", p::j3d13pt()),
                                                                {136, 80, 96}, quick ? 3 : 5, 13u);
    EXPECT_NE(r.plan.find("of 2 x 16 cells"), std::string::npos) << r.plan;
  }
  if (!quick) {
    const auto r = check_in_place<float, Kokkos::LayoutRight>(p::j3d27pt(), update_of("j3d27pt", p::j3d27pt()),
                                                               {136, 80, 96}, 4, 14u);
    EXPECT_NE(r.plan.find("of 1 x 32 cells"), std::string::npos) << r.plan;
  }
}

// Pairs of columns: thread (warp, lane) updates rows 2 warp and 2 warp + 1,
// each reading the other from registers. Short last tiles along every axis
// (a pair whose second row is beyond the tile reads that row's halo from the
// shared tile), both layouts, fp32, T = 1 (no exchange) and odd and even T.
TEST(cuda, in_place_tiling_pairs_of_columns) {
  namespace p = EbisuKokkos::presets;
  for (int steps : {1, 6, 7}) {
    SCOPED_TRACE("steps " + std::to_string(steps));
    // LayoutLeft: kernel axes (100, 90, 120) -> 7 x 3 x 4 blocks of 16 x 32 x 32.
    auto r = check_in_place<double, Kokkos::LayoutLeft>(p::j3d7pt(), update_of("j3d7pt", p::j3d7pt()),
                                                         {120, 90, 100}, steps, 31u);
    EXPECT_NE(r.plan.find("of 2 x 16 cells"), std::string::npos) << r.plan;
    // 110 x 65 x 100 (fp32): 7 x 3 x 4 blocks; the middle axis ends on a lone row.
    r = check_in_place<float, Kokkos::LayoutRight>(p::j3d7pt(), update_of("j3d7pt", p::j3d7pt()), {110, 65, 100},
                                                   steps, 32u);
    EXPECT_NE(r.plan.find("of 2 x 16 cells"), std::string::npos) << r.plan;
  }
}

// A star functor (make_stencil with StarShape): its kernels include the pairs.
// (A free function: nvcc takes no extended lambda in a test body.)
void check_star_functor_in_pairs() {
  auto f = EbisuKokkos::make_stencil<3, 1, EbisuKokkos::StarShape>(
      KOKKOS_LAMBDA(const EbisuKokkos::Neighbors<double, 3, 1>& nb) {
        const double m = nb(0, -1, 0) > nb(0, 1, 0) ? nb(0, -1, 0) : nb(0, 1, 0);
        return 0.4 * nb(0, 0, 0) + 0.3 * m + 0.1 * nb(-1, 0, 0) + 0.1 * nb(0, 0, 1) + 0.1 * nb(1, 0, 0);
      });
  const Update update = [](const std::function<long double(int, int, int)>& at) {
    const long double m = at(0, -1, 0) > at(0, 1, 0) ? at(0, -1, 0) : at(0, 1, 0);
    return 0.4L * at(0, 0, 0) + 0.3L * m + 0.1L * at(-1, 0, 0) + 0.1L * at(0, 0, 1) + 0.1L * at(1, 0, 0);
  };
  for (int steps : {2, 5}) {
    const auto r = check_in_place<double, Kokkos::LayoutRight>(f, update, {130, 90, 100}, steps, 33u);
    EXPECT_NE(r.plan.find("of 2 x 16 cells"), std::string::npos) << r.plan;
  }
}

TEST(cuda, in_place_tiling_star_functor_in_pairs) { check_star_functor_in_pairs(); }

// Tiny and odd: one block, a domain narrower than a tile along every axis,
// and T = 1 (no exchange at all).
TEST(cuda, in_place_tiling_tiny_domains) {
  namespace p = EbisuKokkos::presets;
  for (int steps : {1, 2, 5}) {
    SCOPED_TRACE("steps " + std::to_string(steps));
    check_in_place<double, Kokkos::LayoutRight>(p::j3d7pt(), update_of("j3d7pt", p::j3d7pt()), {3, 3, 3}, steps, 21u);
    check_in_place<double, Kokkos::LayoutLeft>(p::j3d7pt(), update_of("j3d7pt", p::j3d7pt()), {5, 17, 33}, steps,
                                               22u);
    check_in_place<double, Kokkos::LayoutRight>(p::j3d13pt(), update_of("j3d13pt", p::j3d13pt()), {5, 6, 7}, steps,
                                                23u);
  }
}

// A non-linear functor reads its neighbourhood through the column accessor:
// the slow-axis offsets from registers, the rest from the shared tile.
void check_in_place_functor() {
  auto f = EbisuKokkos::make_stencil<3, 1>(KOKKOS_LAMBDA(const EbisuKokkos::Neighbors<double, 3, 1>& nb) {
    const double m = nb(-1, 0, 0) > nb(0, 1, 0) ? nb(-1, 0, 0) : nb(0, 1, 0);
    return 0.4 * nb(0, 0, 0) + 0.3 * m + 0.1 * nb(1, -1, 0) + 0.1 * nb(0, 0, 1) + 0.1 * nb(1, 0, -1);
  });
  const Update update = [](const std::function<long double(int, int, int)>& at) {
    const long double m = at(-1, 0, 0) > at(0, 1, 0) ? at(-1, 0, 0) : at(0, 1, 0);
    return 0.4L * at(0, 0, 0) + 0.3L * m + 0.1L * at(1, -1, 0) + 0.1L * at(0, 0, 1) + 0.1L * at(1, 0, -1);
  };
  const std::vector<Case> cases{{{45, 37, 61}, 9}, {{24, 90, 33}, 8}, {{96, 40, 70}, 5}};
  check_stencil<Kokkos::Cuda, false>("functor-3d", f, update, cases);
}

TEST(cuda, in_place_tiling_functor) { check_in_place_functor(); }

TEST(cuda, in_place_tiling_concurrent_streams) {
  using V = TestView<double, 3, Kokkos::LayoutRight, Kokkos::Cuda>;
  const auto stencil = EbisuKokkos::presets::poisson();
  const Extents n[2] = {{40, 33, 70}, {64, 20, 32}};
  const int steps[2] = {13, 20};
  check_concurrent_streams<V>(stencil, update_of("poisson", stencil), n, steps, Strategy::in_place_tiling);
}

TEST(cuda, in_place_tiling_that_cannot_run_falls_back) {
  namespace p = EbisuKokkos::presets;
  // 256^3 doubles need 2048 blocks of 32 x 16 x 32 cells: not resident at once.
  {
    using V = TestView<double, 3, Kokkos::LayoutRight, Kokkos::Cuda>;
    V u = make_view<V>("u", {256, 256, 256}), x = make_view<V>("x", {256, 256, 256});
    Kokkos::deep_copy(u, 1.0);
    EbisuKokkos::StencilPolicy<Kokkos::Cuda> policy(2);
    policy.set_backend(Backend::ebisu).set_strategy(Strategy::in_place_tiling);
    const auto report = EbisuKokkos::parallel_stencil("too-big", policy, p::j3d7pt(), u, x);
    Kokkos::fence();
    EXPECT_EQ(report.strategy, Strategy::sm_tiling) << report.plan;
    EXPECT_NE(report.plan.find("in-place tiling not possible"), std::string::npos) << report.plan;
    EXPECT_NE(report.plan.find("can be resident"), std::string::npos) << report.plan;
    // The weights of j3d7pt sum to s: a constant field scales by s per step.
    double sum = 0;
    for (int k = 0; k < 7; ++k) sum += p::j3d7pt().coefficient(k);
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u);
    EXPECT_NEAR(h(128, 128, 128), sum * sum, 1e-12);
  }
  // 2-D: SM tiling runs instead, saying why.
  {
    using V = TestView<double, 2, Kokkos::LayoutRight, Kokkos::Cuda>;
    const Extents n{64, 80, 1};
    const Field init = random_field(n, 31u);
    const Field ref = reference_run(init, 2, 1, update_of("j2d5pt", p::j2d5pt()), 3);
    V u = make_view<V>("u", n), x = make_view<V>("x", n);
    upload(u, init);
    EbisuKokkos::StencilPolicy<Kokkos::Cuda> policy(3);
    policy.set_backend(Backend::ebisu).set_strategy(Strategy::in_place_tiling);
    const auto report = EbisuKokkos::parallel_stencil("2-d", policy, p::j2d5pt(), u, x);
    Kokkos::fence();
    EXPECT_NE(report.strategy, Strategy::in_place_tiling);
    EXPECT_NE(report.plan.find("3-D only"), std::string::npos) << report.plan;
    EXPECT_LE(relative_error(download(u), ref), tolerance<double>()) << report.plan;
  }
}

}  // namespace ebisu_test
