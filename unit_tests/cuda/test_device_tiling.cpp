// The device-tiling strategy (one persistent cooperative launch, the domain on
// chip, halos exchanged through L2 every `depth` steps) on domains split over
// many blocks: exchanges at several depths, step counts that are not multiples
// of the depth, two concurrent calls on two streams, and the fallback of a
// forced device tiling on a domain that does not fit on chip.
#include "category/cuda.hpp"
#include "support/concurrent_streams.hpp"
#include "support/run_case.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>


#include <cstdlib>

namespace ebisu_test {

// Domains that the plan splits over dozens of blocks (so every block has
// neighbours on every side) yet small enough for the long-double reference.
// EBISU_TEST_QUICK=1 (compute-sanitizer runs): smaller, still split over many blocks.
inline std::vector<Case> split_cases(int rank, int steps) {
  const bool quick = std::getenv("EBISU_TEST_QUICK") != nullptr;
  if (rank == 2) {
    if (quick) return {{{61, 97, 1}, steps}};
    return {{{301, 517, 1}, steps}, {{1000, 67, 1}, steps}};
  }
  if (quick) return {{{20, 17, 31}, steps}};
  return {{{45, 37, 61}, steps}, {{24, 90, 33}, steps}};
}

template <class Stencil>
void check_depths(const std::string& name, const Stencil& stencil, const Update& update) {
  // Radius 2 in 3-D: a depth-7 halo (14 cells a side) around the small tiles
  // of these domains would not fit two tile copies in shared memory.
  const bool wide_halo = Stencil::rank == 3 && Stencil::radius == 2;
  for (int depth : {1, 3, wide_halo ? 2 : 7}) {
    SCOPED_TRACE("depth knob " + std::to_string(depth));
    check_stencil<Kokkos::Cuda>(name, stencil, update, split_cases(Stencil::rank, 23), depth);
  }
}

TEST(cuda, device_tiling_split_domains_2d) {
  namespace p = EbisuKokkos::presets;
  check_depths("j2d5pt", p::j2d5pt(), update_of("j2d5pt", p::j2d5pt()));
  check_depths("j2d9pt", p::j2d9pt(), update_of("j2d9pt", p::j2d9pt()));
  check_depths("j2d25pt", p::j2d25pt(), update_of("j2d25pt", p::j2d25pt()));
}

TEST(cuda, device_tiling_split_domains_3d) {
  namespace p = EbisuKokkos::presets;
  check_depths("j3d7pt", p::j3d7pt(), update_of("j3d7pt", p::j3d7pt()));
  check_depths("j3d13pt", p::j3d13pt(), update_of("j3d13pt", p::j3d13pt()));
  check_depths("poisson", p::poisson(), update_of("poisson", p::poisson()));
}

// Big tiles and a deep halo: more halo cells per thread than the kernel keeps
// in registers (8), so exchanges also take the computed path for the rest;
// 29 steps, not a multiple of the depth.
TEST(cuda, device_tiling_halo_beyond_register_cache) {
  namespace p = EbisuKokkos::presets;
  const bool quick = std::getenv("EBISU_TEST_QUICK") != nullptr;
  const std::vector<Case> cases{{{quick ? 700 : 1000, quick ? 700 : 1000, 1}, quick ? 13 : 29}};
  check_stencil<Kokkos::Cuda>("j2d5pt", p::j2d5pt(), update_of("j2d5pt", p::j2d5pt()), cases, 12);
}

// Non-linear: the functor sees the whole neighbourhood through the tile accessor.
// (Extended lambdas may not be defined in a TEST body.)
void check_split_functor() {
  auto f = EbisuKokkos::make_stencil<2, 1>(KOKKOS_LAMBDA(const EbisuKokkos::Neighbors<double, 2, 1>& nb) {
    const double m = nb(-1, 0) > nb(0, 1) ? nb(-1, 0) : nb(0, 1);
    return 0.5 * nb(0, 0) + 0.3 * m + 0.1 * nb(1, -1) + 0.1 * nb(1, 1);
  });
  const Update update = [](const std::function<long double(int, int, int)>& at) {
    const long double m = at(-1, 0, 0) > at(0, 1, 0) ? at(-1, 0, 0) : at(0, 1, 0);
    return 0.5L * at(0, 0, 0) + 0.3L * m + 0.1L * at(1, -1, 0) + 0.1L * at(1, 1, 0);
  };
  for (int depth : {1, 4}) check_stencil<Kokkos::Cuda, false>("functor-2d", f, update, split_cases(2, 17), depth);
}

TEST(cuda, device_tiling_split_domains_functor) { check_split_functor(); }

TEST(cuda, device_tiling_concurrent_streams) {
  using V = TestView<double, 2, Kokkos::LayoutLeft, Kokkos::Cuda>;
  const auto stencil = EbisuKokkos::presets::j2d5pt();
  const Extents n[2] = {{257, 301, 1}, {512, 128, 1}};
  const int steps[2] = {41, 60};
  check_concurrent_streams<V>(stencil, update_of("j2d5pt", stencil), n, steps, EbisuKokkos::Strategy::device_tiling);
}

TEST(cuda, device_tiling_that_cannot_fit_falls_back) {
  // 3000^2 doubles (72 MB) cannot stay in ~30 MB of shared memory.
  using V = TestView<double, 2, Kokkos::LayoutLeft, Kokkos::Cuda>;
  const auto stencil = EbisuKokkos::presets::j2d5pt();
  const Extents n{3000, 3000, 1};
  V u = make_view<V>("u", n), x = make_view<V>("x", n);
  Kokkos::deep_copy(u, 1.0);
  EbisuKokkos::StencilPolicy<Kokkos::Cuda> policy(4);
  policy.set_backend(EbisuKokkos::Backend::ebisu).set_strategy(EbisuKokkos::Strategy::device_tiling);
  const auto report = EbisuKokkos::parallel_stencil("too-big", policy, stencil, u, x);
  Kokkos::fence();
  EXPECT_EQ(report.strategy, EbisuKokkos::Strategy::sm_tiling);
  EXPECT_NE(report.plan.find("device tiling not possible"), std::string::npos) << report.plan;
  // A constant field stays constant under weights that sum to s: check one value.
  double sum = 0;
  for (int k = 0; k < 5; ++k) sum += stencil.coefficient(k);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u);
  EXPECT_NEAR(h(1500, 1500), sum * sum * sum * sum, 1e-12);
}

}  // namespace ebisu_test
