// 1-D segment tiling (impl/cuda/ebisu_1d.hpp) against the long-double host
// reference: domains from 2R + 1 cells to many segments (4096 cells each),
// one cell either side of a segment boundary, step counts around the depth
// (T = 1, the depth, one more, not a multiple), depth knobs from 1 to the
// deepest, both call forms, both layouts, float, radius 1 and 2, a functor;
// every mode (automatic, generic, forced) through check_stencil.
#include "category/cuda.hpp"
#include "support/run_case.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>

#include <cstdlib>

namespace ebisu_test {

inline std::vector<Case> segment_cases(int radius, int steps) {
  const bool quick = std::getenv("EBISU_TEST_QUICK") != nullptr;
  if (quick) return {{{2 * radius + 1, 1, 1}, steps}, {{4097, 1, 1}, steps}};
  return {{{2 * radius + 1, 1, 1}, steps}, {{30, 1, 1}, steps},   {{4095, 1, 1}, steps},
          {{4096, 1, 1}, steps},           {{4097, 1, 1}, steps}, {{20011, 1, 1}, steps}};
}

template <class Stencil>
void check_segments(const std::string& name, const Stencil& stencil) {
  const Update update = update_of(name, stencil);
  for (int steps : {1, 32, 33, 75}) {
    for (int depth : {0, 1, 5, 64}) {
      SCOPED_TRACE("steps " + std::to_string(steps) + ", depth knob " + std::to_string(depth));
      check_stencil<Kokkos::Cuda>(name, stencil, update, segment_cases(Stencil::radius, steps), depth);
    }
  }
}

TEST(cuda, segments_1d_presets) {
  check_segments("j1d3pt", EbisuKokkos::presets::j1d3pt());
  check_segments("j1d5pt", EbisuKokkos::presets::j1d5pt());
}

// The plan names segment tiling, and a forced device or in-place tiling says why it is not one.
TEST(cuda, segments_1d_report) {
  using V = TestView<double, 1, Kokkos::LayoutRight, Kokkos::Cuda>;
  V u = make_view<V>("u", {9000, 1, 1}), x = make_view<V>("x", {9000, 1, 1});
  for (const auto strategy : {EbisuKokkos::Strategy::device_tiling, EbisuKokkos::Strategy::in_place_tiling}) {
    EbisuKokkos::StencilPolicy<Kokkos::Cuda> policy(40);
    policy.set_backend(EbisuKokkos::Backend::ebisu).set_strategy(strategy);
    const auto report = EbisuKokkos::parallel_stencil("report", policy, EbisuKokkos::presets::j1d3pt(), u, x);
    EXPECT_EQ(report.backend, EbisuKokkos::Backend::ebisu);
    EXPECT_EQ(report.temporal_depth, 32);
    EXPECT_EQ(report.launches, 2);
    EXPECT_NE(report.plan.find("segment tiling"), std::string::npos) << report.plan;
    const std::string refusal = strategy == EbisuKokkos::Strategy::device_tiling ? "device tiling not possible"
                                                                                 : "in-place tiling not possible";
    EXPECT_NE(report.plan.find(refusal), std::string::npos) << report.plan;
  }
}

// Non-linear: the functor reads its neighbourhood through the segment accessor.
// (Extended lambdas may not be defined in a TEST body.)
void check_segments_functor() {
  auto f = EbisuKokkos::make_stencil<1, 2>(KOKKOS_LAMBDA(const EbisuKokkos::Neighbors<double, 1, 2>& nb) {
    const double m = nb(-2) > nb(1) ? nb(-2) : nb(1);
    return 0.5 * nb(0) + 0.3 * m + 0.1 * nb(-1) + 0.1 * nb(2);
  });
  const Update update = [](const std::function<long double(int, int, int)>& at) {
    const long double m = at(-2, 0, 0) > at(1, 0, 0) ? at(-2, 0, 0) : at(1, 0, 0);
    return 0.5L * at(0, 0, 0) + 0.3L * m + 0.1L * at(-1, 0, 0) + 0.1L * at(2, 0, 0);
  };
  for (int depth : {0, 3}) check_stencil<Kokkos::Cuda, false>("functor-1d", f, update, segment_cases(2, 41), depth);
}

TEST(cuda, segments_1d_functor) { check_segments_functor(); }

}  // namespace ebisu_test
