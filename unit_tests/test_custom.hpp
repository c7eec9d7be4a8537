// User-defined stencils: run-time coefficients, custom shapes, functors
// (non-linear, radius 2, 3-D), and the tuning knobs.
#include "support/run_case.hpp"

#include <algorithm>

namespace ebisu_test {

// An asymmetric shape: a wrong axis or sign in the library changes the answer.
struct KnightShape {
  static constexpr bool contains(int d0, int d1, int) {
    return (d0 == 0 && d1 == 0) || (d0 == -2 && d1 == 1) || (d0 == 1 && d1 == 2) || (d0 == 2 && d1 == -1);
  }
};

inline std::vector<long double> random_coefficients(int n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(0.05, 1.0);
  std::vector<long double> c(n);
  long double sum = 0;
  for (auto& x : c) sum += (x = dist(gen));
  for (auto& x : c) x /= sum;
  return c;
}

template <class Stencil>
Stencil stencil_with(const std::vector<long double>& c) {
  Kokkos::Array<double, Stencil::num_points> a;
  for (int k = 0; k < Stencil::num_points; ++k) a[k] = static_cast<double>(c[k]);
  return Stencil(a);
}

// Non-linear 2-D update, radius 1 (game-of-life style: products and max).
template <class Space>
void run_nonlinear_2d() {
  const auto stencil = EbisuKokkos::make_stencil<2, 1>(KOKKOS_LAMBDA(const EbisuKokkos::Neighbors<double, 2, 1>& nb) {
    return 0.4 * nb(0, 0) + 0.3 * nb(-1, 1) * nb(1, 0) + 0.3 * (nb(0, -1) > nb(1, 1) ? nb(0, -1) : nb(1, 1));
  });
  const Update update = [](const std::function<long double(int, int, int)>& nb) {
    return 0.4L * nb(0, 0, 0) + 0.3L * nb(-1, 1, 0) * nb(1, 0, 0) + 0.3L * std::max(nb(0, -1, 0), nb(1, 1, 0));
  };
  // The functor is written for double; float Views would need a float functor.
  check_stencil<Space, false>("nonlinear-2d", stencil, update, standard_cases(2, 1));
}

template <class Space>
void run_functor_radius2_2d() {
  const auto stencil = EbisuKokkos::make_stencil<2, 2>(KOKKOS_LAMBDA(const EbisuKokkos::Neighbors<float, 2, 2>& nb) {
    return 0.5f * nb(0, 0) + 0.3f * nb(-2, 1) + 0.2f * nb(1, 2);
  });
  const Update update = [](const std::function<long double(int, int, int)>& nb) {
    return 0.5L * nb(0, 0, 0) + 0.3L * nb(-2, 1, 0) + 0.2L * nb(1, 2, 0);
  };
  std::vector<Field> inits, refs;
  const auto cases = standard_cases(2, 2);
  for (size_t i = 0; i < cases.size(); ++i) {
    inits.push_back(random_field(cases[i].n, 77u + static_cast<unsigned>(i)));
    refs.push_back(reference_run(inits.back(), 2, 2, update, cases[i].steps));
  }
  run_cases<Space, float, Kokkos::LayoutRight>("functor-r2-2d", stencil, cases, inits, refs);
  run_cases<Space, float, Kokkos::LayoutLeft>("functor-r2-2d", stencil, cases, inits, refs);
}

template <class Space>
void run_nonlinear_3d() {
  const auto stencil = EbisuKokkos::make_stencil<3, 1>(KOKKOS_LAMBDA(const EbisuKokkos::Neighbors<double, 3, 1>& nb) {
    const double m = nb(-1, 0, 1) < nb(1, -1, 0) ? nb(-1, 0, 1) : nb(1, -1, 0);
    return 0.35 * nb(0, 0, 0) + 0.25 * m + 0.2 * nb(0, 1, -1) * nb(1, 1, 1) + 0.2 * nb(0, 0, 1);
  });
  const Update update = [](const std::function<long double(int, int, int)>& nb) {
    return 0.35L * nb(0, 0, 0) + 0.25L * std::min(nb(-1, 0, 1), nb(1, -1, 0)) + 0.2L * nb(0, 1, -1) * nb(1, 1, 1) +
           0.2L * nb(0, 0, 1);
  };
  check_stencil<Space, false>("nonlinear-3d", stencil, update, standard_cases(3, 1));
}

// A functor declared star-shaped (make_stencil<Rank, Radius, Shape>): the
// backends keep only the star's neighbours, and a read outside the shape (here
// (1, 1, 0)) sees zero on every one of them.
template <class Space>
void run_star_declared_functor_3d() {
  const auto stencil = EbisuKokkos::make_stencil<3, 1, EbisuKokkos::StarShape>(
      KOKKOS_LAMBDA(const EbisuKokkos::Neighbors<double, 3, 1>& nb) {
        return 0.4 * nb(0, 0, 0) + 0.1 * (nb(-1, 0, 0) + nb(1, 0, 0) + nb(0, -1, 0) + nb(0, 1, 0)) +
               0.2 * nb(0, 0, -1) * nb(0, 0, 1) + 0.5 * nb(1, 1, 0);
      });
  static_assert(decltype(stencil)::num_points == 7, "the declared star");
  const Update update = [](const std::function<long double(int, int, int)>& nb) {
    return 0.4L * nb(0, 0, 0) + 0.1L * (nb(-1, 0, 0) + nb(1, 0, 0) + nb(0, -1, 0) + nb(0, 1, 0)) +
           0.2L * nb(0, 0, -1) * nb(0, 0, 1);
  };
  check_stencil<Space, false>("star-declared-3d", stencil, update, standard_cases(3, 1));
}

template <class Space>
void run_functor_1d() {
  const auto stencil = EbisuKokkos::make_stencil<1, 2>(KOKKOS_LAMBDA(const EbisuKokkos::Neighbors<double, 1, 2>& nb) {
    return 0.6 * nb(0) + 0.4 * nb(-2) * nb(1);
  });
  const Update update = [](const std::function<long double(int, int, int)>& nb) {
    return 0.6L * nb(0, 0, 0) + 0.4L * nb(-2, 0, 0) * nb(1, 0, 0);
  };
  check_stencil<Space, false>("functor-1d", stencil, update, standard_cases(1, 2));
}

}  // namespace ebisu_test

TEST(TEST_CATEGORY, custom_coefficients_star_radius2_2d) {
  using S = EbisuKokkos::LinearStencil<2, 2, EbisuKokkos::StarShape>;
  const auto c = ebisu_test::random_coefficients(S::num_points, 5);
  const auto stencil = ebisu_test::stencil_with<S>(c);
  ebisu_test::check_stencil<TEST_EXECSPACE>("star-r2-random", stencil,
                                            ebisu_test::linear_update(ebisu_test::preset_offsets("j2d9pt"), c),
                                            ebisu_test::standard_cases(2, 2));
}

TEST(TEST_CATEGORY, custom_coefficients_box_3d) {
  using S = EbisuKokkos::LinearStencil<3, 1, EbisuKokkos::BoxShape>;
  const auto c = ebisu_test::random_coefficients(S::num_points, 6);
  ebisu_test::check_stencil<TEST_EXECSPACE>("box-3d-random", ebisu_test::stencil_with<S>(c),
                                            ebisu_test::linear_update(ebisu_test::box_offsets(3, 1), c),
                                            ebisu_test::standard_cases(3, 1));
}

TEST(TEST_CATEGORY, custom_shape_asymmetric_2d) {
  using S = EbisuKokkos::LinearStencil<2, 2, ebisu_test::KnightShape>;
  static_assert(S::num_points == 4);
  // Lexicographic order: (-2, 1), (0, 0), (1, 2), (2, -1).
  const std::vector<ebisu_test::Offset> offsets{{-2, 1, 0}, {0, 0, 0}, {1, 2, 0}, {2, -1, 0}};
  const std::vector<long double> c{0.1L, 0.45L, 0.2L, 0.25L};
  ebisu_test::check_stencil<TEST_EXECSPACE>("knight", ebisu_test::stencil_with<S>(c),
                                            ebisu_test::linear_update(offsets, c), ebisu_test::standard_cases(2, 2));
}

// Block-size knobs (threads, tile width) on 2-D stencils of radius 1 and 2:
// whatever block the backend runs (the CUDA radius-1 kernels have a compiled
// one and say so in the plan), the result is the reference's.
TEST(TEST_CATEGORY, block_size_knobs_do_not_change_results) {
  using V = ebisu_test::TestView<double, 2, Kokkos::LayoutLeft, TEST_EXECSPACE>;
  const ebisu_test::Extents n{300, 41, 1};
  const int steps = 13;
  const ebisu_test::Field init = ebisu_test::random_field(n, 99u);
  auto run = [&](const std::string& name, const auto& stencil, int threads, int tile_width) {
    using Stencil = std::decay_t<decltype(stencil)>;
    SCOPED_TRACE(name + ", threads " + std::to_string(threads) + ", tile width " + std::to_string(tile_width));
    const auto ref = ebisu_test::reference_run(init, 2, Stencil::radius, ebisu_test::update_of(name, stencil), steps);
    V u = ebisu_test::make_view<V>("u", n);
    V s = ebisu_test::make_view<V>("scratch", n);
    ebisu_test::upload(u, init);
    ebisu_test::poison(s);
    EbisuKokkos::StencilPolicy<TEST_EXECSPACE> policy(TEST_EXECSPACE(), steps);
    policy.set_threads(threads).set_tile_width(tile_width).set_temporal_depth(4);
    const auto report = EbisuKokkos::parallel_stencil(name, policy, stencil, u, s);
    Kokkos::fence();
    EXPECT_LE(ebisu_test::relative_error(ebisu_test::download(u), ref), ebisu_test::tolerance<double>());
    // GPU: radius-1 kernels have a compiled 128-thread block; host: one thread per work item.
    const bool ignored = EbisuKokkos::Impl::runs_on_host<TEST_EXECSPACE> ? threads > 0
                                                                        : Stencil::radius == 1 && threads > 0 && threads != 128;
    if (report.backend == EbisuKokkos::Backend::ebisu && ignored) {
      EXPECT_NE(report.plan.find("knob ignored"), std::string::npos) << report.plan;
    }
    if (report.backend == EbisuKokkos::Backend::ebisu && EbisuKokkos::Impl::runs_on_host<TEST_EXECSPACE> &&
        tile_width > 0) {
      EXPECT_NE(report.plan.find(" x " + std::to_string(tile_width) + " cells"), std::string::npos) << report.plan;
    }
  };
  for (int threads : {0, 64, 256}) {
    for (int tile_width : {0, 100}) {
      run("j2d5pt", EbisuKokkos::presets::j2d5pt(), threads, tile_width);
      run("j2d9pt", EbisuKokkos::presets::j2d9pt(), threads, tile_width);
    }
  }
}

// The generic path's step forms (GenericStep): every form gives the reference's
// result on every space; GPUs run the form asked for (the plan says which),
// host spaces sweep rows whatever the knob says.
TEST(TEST_CATEGORY, generic_step_forms_do_not_change_results) {
  using EbisuKokkos::GenericStep;
  auto run = [](const std::string& name, const auto& stencil, const ebisu_test::Extents& n, GenericStep form) {
    using Stencil = std::decay_t<decltype(stencil)>;
    using V = ebisu_test::TestView<double, Stencil::rank, Kokkos::LayoutRight, TEST_EXECSPACE>;
    SCOPED_TRACE(name + ", generic step form " + std::to_string(static_cast<int>(form)));
    const int steps = 7;
    const ebisu_test::Field init = ebisu_test::random_field(n, 41u);
    const auto ref =
        ebisu_test::reference_run(init, Stencil::rank, Stencil::radius, ebisu_test::update_of(name, stencil), steps);
    V u = ebisu_test::make_view<V>("u", n), s = ebisu_test::make_view<V>("scratch", n);
    ebisu_test::upload(u, init);
    ebisu_test::poison(s);
    EbisuKokkos::StencilPolicy<TEST_EXECSPACE> policy(TEST_EXECSPACE(), steps);
    policy.set_backend(EbisuKokkos::Backend::generic).set_generic_step(form);
    const auto report = EbisuKokkos::parallel_stencil(name, policy, stencil, u, s);
    Kokkos::fence();
    EXPECT_LE(ebisu_test::relative_error(ebisu_test::download(u), ref), ebisu_test::tolerance<double>()) << report.plan;
    const bool on_gpu = !EbisuKokkos::Impl::runs_on_host<TEST_EXECSPACE>;
    EXPECT_EQ(report.plan.find("flat range of cells") != std::string::npos, on_gpu && form == GenericStep::flat)
        << report.plan;
    EXPECT_EQ(report.plan.find("4 cells per work item") != std::string::npos,
              on_gpu && form == GenericStep::tiled_4cells)
        << report.plan;
  };
  for (GenericStep form : {GenericStep::automatic, GenericStep::tiled, GenericStep::tiled_4cells, GenericStep::flat}) {
    run("j2d9pt", EbisuKokkos::presets::j2d9pt(), {33, 70, 1}, form);
    run("j3d7pt", EbisuKokkos::presets::j3d7pt(), {11, 9, 30}, form);
  }
}

TEST(TEST_CATEGORY, functor_nonlinear_2d) { ebisu_test::run_nonlinear_2d<TEST_EXECSPACE>(); }
TEST(TEST_CATEGORY, functor_radius2_float_2d) { ebisu_test::run_functor_radius2_2d<TEST_EXECSPACE>(); }
TEST(TEST_CATEGORY, functor_nonlinear_3d) { ebisu_test::run_nonlinear_3d<TEST_EXECSPACE>(); }
TEST(TEST_CATEGORY, functor_1d) { ebisu_test::run_functor_1d<TEST_EXECSPACE>(); }
TEST(TEST_CATEGORY, functor_star_declared_3d) { ebisu_test::run_star_declared_functor_3d<TEST_EXECSPACE>(); }

// Temporal-depth knobs that do not divide T: the remainder launch must be right.
TEST(TEST_CATEGORY, depth_knobs_do_not_change_results) {
  const auto stencil = EbisuKokkos::presets::j2d9pt();
  const std::vector<ebisu_test::Case> cases{{{37, 300, 1}, 13}, {{9, 9, 1}, 5}, {{300, 41, 1}, 29}};
  for (int depth : {1, 3, 4, 7, 12}) {
    ebisu_test::check_stencil<TEST_EXECSPACE, false>("j2d9pt", stencil, ebisu_test::update_of("j2d9pt", stencil),
                                                     cases, depth);
  }
  const auto stencil3 = EbisuKokkos::presets::j3d7pt();
  const std::vector<ebisu_test::Case> cases3{{{40, 20, 35}, 11}};
  for (int depth : {1, 2, 4, 8}) {
    ebisu_test::check_stencil<TEST_EXECSPACE, false>("j3d7pt", stencil3, ebisu_test::update_of("j3d7pt", stencil3),
                                                     cases3, depth);
  }
}
