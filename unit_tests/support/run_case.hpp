#ifndef EBISU_KOKKOS_TEST_RUN_CASE_HPP
#define EBISU_KOKKOS_TEST_RUN_CASE_HPP

// Runs one stencil through parallel_stencil for a list of domain sizes and
// step counts, on every backend the execution space offers, in double and
// float and both layouts, and compares each result with the host reference.

#include "view_io.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <vector>

namespace ebisu_test {

struct Case {
  Extents n;
  int steps;
};

inline std::string describe(const Case& c, int rank) {
  std::ostringstream s;
  s << "extents (" << c.n[0];
  if (rank >= 2) s << ", " << c.n[1];
  if (rank >= 3) s << ", " << c.n[2];
  s << "), steps " << c.steps;
  return s.str();
}

// Tiny domains, odd sizes, domains smaller than any tile, domains wider than
// one 256-wide tile, and step counts that are not multiples of any blocking depth.
inline std::vector<Case> all_standard_cases(int rank, int radius) {
  const int m = 2 * radius + 1;  // the smallest legal extent
  if (rank == 1) return {{{m, 1, 1}, 0}, {{m, 1, 1}, 7}, {{17, 1, 1}, 1}, {{17, 1, 1}, 64}, {{1000, 1, 1}, 13}};
  if (rank == 2)
    return {{{m, m, 1}, 0},      {{m, m, 1}, 1},       {{m, m + 1, 1}, 7},   {{6, 7, 1}, 64},
            {{17, 23, 1}, 7},    {{40, 7, 1}, 13},     {{7, 300, 1}, 13},    {{300, 7, 1}, 13},
            {{129, 257, 1}, 1},  {{129, 257, 1}, 13},  {{33, 520, 1}, 29}};
  return {{{m, m, m}, 0},      {{m, m, m}, 1},        {{m, m, m + 1}, 7},  {{11, 13, 9}, 64},
          {{7, 9, 40}, 13},    {{33, 17, 31}, 7},     {{20, 30, 70}, 13}};
}

// EBISU_TEST_QUICK=1 keeps the small ones (for compute-sanitizer runs).
inline std::vector<Case> standard_cases(int rank, int radius) {
  auto all = all_standard_cases(rank, radius);
  if (std::getenv("EBISU_TEST_QUICK") == nullptr) return all;
  std::vector<Case> quick;
  for (const auto& c : all)
    if (static_cast<long>(c.n[0]) * c.n[1] * c.n[2] <= 4096) quick.push_back(c);
  return quick;
}

// A backend and, for Backend::ebisu, the strategy forced.
struct Mode {
  EbisuKokkos::Backend backend;
  EbisuKokkos::Strategy strategy = EbisuKokkos::Strategy::automatic;
  std::string name() const {
    return std::string(EbisuKokkos::to_string(backend)) +
           (backend == EbisuKokkos::Backend::ebisu ? std::string("/") + EbisuKokkos::to_string(strategy) : "");
  }
};

// Every mode the execution space offers: where the EBISU kernels exist, each
// of their strategies forced, so no strategy hides behind the model's choice.
// (Host spaces have one blocked path, not strategies.)
// (1-D on GPUs has one kernel, segment tiling, which reports Strategy::sm_tiling.)
template <class Space>
std::vector<Mode> modes_to_test(bool ebisu_available, int rank) {
  using EbisuKokkos::Backend;
  using EbisuKokkos::Strategy;
  std::vector<Mode> m{{Backend::automatic}, {Backend::generic}};
  if (ebisu_available && EbisuKokkos::Impl::runs_on_host<Space>) m.push_back({Backend::ebisu});
  if (ebisu_available && !EbisuKokkos::Impl::runs_on_host<Space>) {
    m.push_back({Backend::ebisu, Strategy::sm_tiling});
    if (rank > 1) m.push_back({Backend::ebisu, Strategy::device_tiling});
    if (rank == 3) m.push_back({Backend::ebisu, Strategy::in_place_tiling});
  }
  return m;
}

// CI's CUDA compile check (EbisuKokkos_ENABLE_COMPILE_CHECK_ONLY) builds the Cuda tests but
// cannot run them. There a float case compiles the same templates as its double twin (and the
// benchmark compiles the kernels for float), so the case runners leave float bodies out of such
// builds: about a third of the Cuda tests' compile time.
template <class Space, class Scalar>
inline constexpr bool left_out_of_compile_check =
#if defined(EBISU_KOKKOS_COMPILE_CHECK_ONLY)
    !EbisuKokkos::Impl::runs_on_host<Space> && std::is_same_v<Scalar, float>;
#else
    false;
#endif

// One precision and layout, every case and backend.
template <class Space, class Scalar, class Layout, class Stencil>
void run_cases(const std::string& name, const Stencil& stencil, const std::vector<Case>& cases,
               const std::vector<Field>& inits, const std::vector<Field>& refs, int depth_knob = 0) {
  if constexpr (left_out_of_compile_check<Space, Scalar>) {
    return;
  } else {
    constexpr int rank = Stencil::rank;
    using V = TestView<Scalar, rank, Layout, Space>;
    constexpr bool ebisu = EbisuKokkos::ebisu_available<Space, Stencil, V>;
    for (const Mode& mode : modes_to_test<Space>(ebisu, rank)) {
      const EbisuKokkos::Backend backend = mode.backend;
      for (size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE(name + ", " + describe(cases[i], rank) + ", backend " + mode.name() + ", " +
                     (std::is_same_v<Scalar, float> ? "float" : "double") + ", " +
                     (std::is_same_v<Layout, Kokkos::LayoutLeft> ? "LayoutLeft" : "LayoutRight") +
                     ", depth knob " + std::to_string(depth_knob));
        V u = make_view<V>("u", cases[i].n);
        V s = make_view<V>("scratch", cases[i].n);
        upload(u, inits[i]);
        poison(s);
        EbisuKokkos::StencilPolicy<Space> policy(Space(), cases[i].steps);
        policy.set_backend(backend).set_temporal_depth(depth_knob).set_strategy(mode.strategy);
        const auto report = EbisuKokkos::parallel_stencil(name, policy, stencil, u, s);
        Kokkos::fence();
        const Field got = download(u);
        if (cases[i].steps == 0) {
          // The inputs are exactly representable in float, so T = 0 must return them bit for bit.
          EXPECT_EQ(relative_error(got, inits[i]), 0.0);
        } else {
          EXPECT_LE(relative_error(got, refs[i]), tolerance<Scalar>());
        }
        // The DoubleBuffer form computes the same field and leaves it where the
        // last launch wrote it: no copy back. Owing none, its plan may split the
        // steps otherwise (or, under automatic, take another path): the same
        // launches give the same bits, other launches the reference's answer.
        upload(u, inits[i]);
        poison(s);
        EbisuKokkos::DoubleBuffer<V> buffers(u, s);
        const auto swap_report = EbisuKokkos::parallel_stencil(name, policy, stencil, buffers);
        Kokkos::fence();
        const bool same_launches = swap_report.backend == report.backend && swap_report.strategy == report.strategy &&
                                   swap_report.launches == report.launches &&
                                   swap_report.temporal_depth == report.temporal_depth;
        if (same_launches) {
          EXPECT_EQ(relative_error(download(buffers.current()), got), 0.0) << swap_report.plan;
        } else if (cases[i].steps > 0) {
          EXPECT_LE(relative_error(download(buffers.current()), refs[i]), tolerance<Scalar>()) << swap_report.plan;
        }
        // Launch by launch the result alternates between the buffers; the
        // persistent kernels' one launch instead ends in whichever buffer their
        // last halo exchange left free, so only the value and the swap are checked there.
        if (swap_report.strategy != EbisuKokkos::Strategy::device_tiling &&
            swap_report.strategy != EbisuKokkos::Strategy::in_place_tiling) {
          EXPECT_EQ(buffers.current().data() == s.data(), swap_report.launches % 2 == 1)
              << "launches " << swap_report.launches;
        }
        EXPECT_EQ(buffers.alternate().data() == s.data() ? u.data() : s.data(), buffers.current().data());
        if (backend == EbisuKokkos::Backend::generic) EXPECT_EQ(report.backend, EbisuKokkos::Backend::generic);
        // Forced ebisu must run the kernels; automatic may pick either (the model
        // routes a problem to generic where it predicts that to be faster).
        if (backend == EbisuKokkos::Backend::ebisu) EXPECT_EQ(report.backend, EbisuKokkos::Backend::ebisu);
        // Every test domain fits on chip: a forced strategy must be the one that ran.
        if (backend == EbisuKokkos::Backend::ebisu && mode.strategy != EbisuKokkos::Strategy::automatic &&
            cases[i].steps > 0) {
          EXPECT_EQ(report.strategy, mode.strategy) << report.plan;
          EXPECT_EQ(swap_report.strategy, mode.strategy) << swap_report.plan;
        }
        if (!ebisu) EXPECT_EQ(report.backend, EbisuKokkos::Backend::generic);
      }
    }
  }
}

// The reference for every case once, then all precisions, layouts and backends.
// Functors written for one scalar type pass WithFloat = false.
template <class Space, bool WithFloat = true, class Stencil>
void check_stencil(const std::string& name, const Stencil& stencil, const Update& update,
                   const std::vector<Case>& cases, int depth_knob = 0) {
  std::vector<Field> inits, refs;
  for (size_t i = 0; i < cases.size(); ++i) {
    inits.push_back(random_field(cases[i].n, 1234u + static_cast<unsigned>(i)));
    refs.push_back(reference_run(inits.back(), Stencil::rank, Stencil::radius, update, cases[i].steps));
  }
  run_cases<Space, double, Kokkos::LayoutRight>(name, stencil, cases, inits, refs, depth_knob);
  run_cases<Space, double, Kokkos::LayoutLeft>(name, stencil, cases, inits, refs, depth_knob);
  if constexpr (WithFloat) {
    run_cases<Space, float, Kokkos::LayoutRight>(name, stencil, cases, inits, refs, depth_knob);
    run_cases<Space, float, Kokkos::LayoutLeft>(name, stencil, cases, inits, refs, depth_knob);
  }
}

template <class Stencil>
Update update_of(const std::string& preset_name, const Stencil& stencil) {
  const auto offsets = preset_offsets(preset_name);
  std::vector<long double> coefficients;
  for (int k = 0; k < Stencil::num_points; ++k) coefficients.push_back(stencil.coefficient(k));
  return linear_update(offsets, coefficients);
}

}  // namespace ebisu_test

#endif
