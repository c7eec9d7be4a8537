// Periodic and mirror sides on the EBISU CUDA kernels themselves (SM tiling
// and device tiling forced; 1-D segment tiling), against the independent long-double reference
// of support/boundary_cases.hpp: ranks 1 to 3, radius 1 and 2, the row-queue
// and the partial-sum kernels, tiny domains (the halo wider than the domain),
// odd sizes, domains split over several tiles / blocks, step counts that are
// not a multiple of the depth, both layouts, float, and the refusal of a
// mirror side for a stencil that is not mirror symmetric; device tiling's 2-D
// star kernels that keep runs in registers from step to step.
#include "category/cuda.hpp"
#include "support/boundary_cases.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>

#include <cstdlib>

namespace ebisu_test {

using EbisuKokkos::Strategy;

// Weights that depend only on |offset| per axis, different per axis (a
// transposed axis or a wrong reflection changes the answer), summing to 1.
inline std::vector<long double> mirror_symmetric_weights(const std::vector<Offset>& offsets) {
  std::vector<long double> w;
  long double sum = 0;
  for (const Offset& o : offsets) {
    const long double v = 1.0L + 0.31L * std::abs(o[0]) + 0.53L * std::abs(o[1]) * (1 + std::abs(o[0])) +
                          0.71L * std::abs(o[2]) + 0.05L * std::abs(o[0] * o[1] * o[2]);
    w.push_back(v);
    sum += v;
  }
  for (auto& v : w) v = static_cast<long double>(static_cast<double>(v / sum));  // as the library will hold them
  return w;
}

template <class Stencil>
Stencil stencil_with(const std::vector<long double>& w) {
  Kokkos::Array<double, Stencil::num_points> c;
  for (int k = 0; k < Stencil::num_points; ++k) c[k] = static_cast<double>(w[k]);
  return Stencil(c);
}

inline Rules rules_of(int variant) {
  const Boundary P = Boundary::periodic, M = Boundary::mirror, F = Boundary::fixed;
  switch (variant) {
    case 0: return all(P);
    case 1: return all(M);
    case 2: return {{{P, P}, {M, F}, {F, M}}};
    default: return {{{M, F}, {P, P}, {P, P}}};
  }
}

inline const char* strategy_name(Strategy s) { return EbisuKokkos::to_string(s); }

// One (stencil, rules, extents, steps) problem on one forced kernel, against
// its reference; returns the plan that ran.
template <class Scalar, class Layout, class Stencil>
std::string run_on_kernel(const std::string& name, const Stencil& stencil, const Field& init, const Field& ref,
                          int steps, const Rules& rules, Strategy strategy, int depth) {
  if constexpr (left_out_of_compile_check<Kokkos::Cuda, Scalar>) {
    return {};
  } else {
    constexpr int rank = Stencil::rank;
    using V = TestView<Scalar, rank, Layout, Kokkos::Cuda>;
    SCOPED_TRACE(name + " " + describe({init.n, steps}, rank) + " rules " + describe(rules) + " " +
                 strategy_name(strategy) + " depth knob " + std::to_string(depth) +
                 (std::is_same_v<Scalar, float> ? " float" : " double") +
                 (std::is_same_v<Layout, Kokkos::LayoutLeft> ? " LayoutLeft" : " LayoutRight"));
    V u = make_view<V>("u", init.n), x = make_view<V>("x", init.n);
    upload(u, init);
    poison(x);
    EbisuKokkos::StencilPolicy<Kokkos::Cuda> policy(steps);
    policy.set_backend(EbisuKokkos::Backend::ebisu).set_strategy(strategy).set_temporal_depth(depth);
    for (int a = 0; a < rank; ++a) {
      policy.set_boundary(a, EbisuKokkos::Side::low, rules[a][0]).set_boundary(a, EbisuKokkos::Side::high, rules[a][1]);
    }
    const EbisuKokkos::StencilReport report = EbisuKokkos::parallel_stencil(name, policy, stencil, u, x);
    const Field got = download(u);
    if (steps == 0) {
      EXPECT_EQ(relative_error(got, init), 0.0) << report.plan;
      return report.plan;
    }
    // The forced kernel ran (not a fallback), and its answer is the reference's.
    EXPECT_EQ(report.strategy, strategy) << report.plan;
    EXPECT_EQ(report.plan.find("not possible"), std::string::npos) << report.plan;
    EXPECT_LE(relative_error(got, ref), tolerance<Scalar>()) << report.plan;
    return report.plan;
  }
}

inline bool quick() { return std::getenv("EBISU_TEST_QUICK") != nullptr; }

template <int Rank>
std::vector<Extents> kernel_extents_set(int r) {
  if (Rank == 1) {
    // tiny (halo wider than the domain), odd, several segments
    if (quick()) return {{2 * r + 1, 1, 1}, {97, 1, 1}};
    return {{2 * r + 1, 1, 1}, {13, 1, 1}, {10007, 1, 1}};
  }
  if (Rank == 2) {
    if (quick()) return {{2 * r + 1, 2 * r + 1, 1}, {61, 97, 1}};
    // tiny (halo wider than the domain), odd, several strips / blocks
    return {{2 * r + 1, 2 * r + 1, 1}, {13, 10, 1}, {130, 300, 1}};
  }
  if (quick()) return {{2 * r + 1, 2 * r + 1, 2 * r + 1}, {20, 17, 31}};
  return {{2 * r + 1, 2 * r + 1, 2 * r + 1}, {13, 10, 7}, {45, 37, 61}};
}

// The strategies a rank has (1-D: segment tiling, reported as SM tiling).
template <int Rank>
std::vector<Strategy> kernel_strategies() {
  if (Rank == 1) return {Strategy::sm_tiling};
  if (Rank == 2) return {Strategy::sm_tiling, Strategy::device_tiling};
  return {Strategy::sm_tiling, Strategy::device_tiling, Strategy::in_place_tiling};
}

template <class Stencil>
void check_kernels(const std::string& name, const Stencil& stencil, const std::vector<long double>& weights,
                   const std::vector<int>& rule_variants) {
  constexpr int rank = Stencil::rank, r = Stencil::radius;
  const std::vector<Strategy> strategies = kernel_strategies<rank>();
  const Update update = linear_update(preset_offsets(name), weights);
  // Depth knobs: one that the kernels compile, and the plan's own (0).
  for (int variant : rule_variants) {
    const Rules rules = rules_of(variant);
    for (const Extents& n : kernel_extents_set<rank>(r)) {
      for (int steps : {1, 13}) {
        const Field init = random_field(n, 71u + static_cast<unsigned>(steps + variant));
        const Field ref = reference_run_with(init, rank, r, update, steps, rules);
        for (Strategy s : strategies) {
          run_on_kernel<double, Kokkos::LayoutRight>(name, stencil, init, ref, steps, rules, s, 0);
          run_on_kernel<double, Kokkos::LayoutLeft>(name, stencil, init, ref, steps, rules, s, 2);
        }
        if (steps == 13) {
          run_on_kernel<float, Kokkos::LayoutRight>(name, stencil, init, ref, steps, rules, strategies.front(), 0);
          run_on_kernel<float, Kokkos::LayoutLeft>(name, stencil, init, ref, steps, rules, strategies.back(), 0);
        }
      }
    }
  }
  const Field init = random_field(kernel_extents_set<rank>(r).back(), 5u);
  for (Strategy s : strategies) {
    run_on_kernel<double, Kokkos::LayoutRight>(name, stencil, init, init, 0, rules_of(rule_variants.back()), s, 0);
  }
}

template <int Rank, int Radius, class Shape>
void check_symmetric(const std::string& name) {
  using S = EbisuKokkos::LinearStencil<Rank, Radius, Shape>;
  const std::vector<long double> w = mirror_symmetric_weights(preset_offsets(name));
  const S stencil = stencil_with<S>(w);
  for (int a = 0; a < Rank; ++a) ASSERT_TRUE(stencil.is_mirror_symmetric(a)) << name << " axis " << a;
  check_kernels(name, stencil, w, {0, 1, 2, 3});
}

// Segment tiling (1-D), radius 1 and 2.
TEST(cuda, boundary_kernels_1d) {
  check_symmetric<1, 1, EbisuKokkos::StarShape>("j1d3pt");
  check_symmetric<1, 2, EbisuKokkos::StarShape>("j1d5pt");
}

// Row-queue kernels (star stencils) and partial-sum kernels (linear box-like).
TEST(cuda, boundary_kernels_2d) {
  check_symmetric<2, 1, EbisuKokkos::StarShape>("j2d5pt");
  check_symmetric<2, 2, EbisuKokkos::StarShape>("j2d9pt");
  check_symmetric<2, 1, EbisuKokkos::BoxShape>("j2d9pt-gol");
  check_symmetric<2, 2, EbisuKokkos::BoxShape>("j2d25pt");
}

TEST(cuda, boundary_kernels_3d) {
  check_symmetric<3, 1, EbisuKokkos::StarShape>("j3d7pt");
  check_symmetric<3, 2, EbisuKokkos::StarShape>("j3d13pt");
  check_symmetric<3, 1, EbisuKokkos::BoxShape>("j3d27pt");
  check_symmetric<3, 1, EbisuKokkos::NoCornerShape>("poisson");
}

// Device tiling's 2-D star kernels that keep each thread's runs of 8 or 12
// cells in registers from step to step (radius 1): fixed, periodic, mirror and
// mixed sides, runs cut by the frame and by the tile's end, one and two runs
// per thread, step counts that are not a multiple of the depth, both layouts,
// float. The plans these domains get (on an H200) keep runs of both lengths;
// the test asserts that they did. Radius 2 streams its runs as before (the
// same cases must not keep any).
template <int Radius>
void check_kept_runs(const std::string& name) {
  using S = EbisuKokkos::LinearStencil<2, Radius, EbisuKokkos::StarShape>;
  const std::vector<long double> w = mirror_symmetric_weights(preset_offsets(name));
  const S stencil = stencil_with<S>(w);
  const Update update = linear_update(preset_offsets(name), w);
  struct KeptCase {
    Extents n;
    int steps, depth;
  };
  // (EBISU_TEST_QUICK, for compute-sanitizer: 256^2 only, runs of 8.)
  std::vector<KeptCase> cases{{{256, 256, 1}, 13, 0}};
  if (!quick()) {
    cases.push_back({{509, 515, 1}, 23, 0});
    cases.push_back({{300, 517, 1}, 1, 0});
    if (Radius == 1) cases.push_back({{1000, 1000, 1}, 29, 10});  // two runs per thread
    if (Radius == 2) cases.push_back({{384, 384, 1}, 13, 8});
  }
  const std::vector<Rules> rule_sets{all(Boundary::fixed), rules_of(0), rules_of(1), rules_of(2)};
  int kept[2] = {0, 0};  // plans that kept runs of 8, of 12 cells
  for (const KeptCase& c : cases) {
    for (size_t v = 0; v < rule_sets.size(); ++v) {
      const Field init = random_field(c.n, 17u + static_cast<unsigned>(v));
      const Field ref = reference_run_with(init, 2, Radius, update, c.steps, rule_sets[v]);
      std::vector<std::string> plans{
          run_on_kernel<double, Kokkos::LayoutRight>(name, stencil, init, ref, c.steps, rule_sets[v],
                                                     Strategy::device_tiling, c.depth)};
      if (v == 2) {
        plans.push_back(run_on_kernel<double, Kokkos::LayoutLeft>(name, stencil, init, ref, c.steps, rule_sets[v],
                                                                  Strategy::device_tiling, c.depth));
        plans.push_back(run_on_kernel<float, Kokkos::LayoutRight>(name, stencil, init, ref, c.steps, rule_sets[v],
                                                                  Strategy::device_tiling, c.depth));
      }
      for (const std::string& plan : plans) {
        if (plan.find("runs kept in registers") == std::string::npos) continue;
        if (plan.find("runs of 8)") != std::string::npos) ++kept[0];
        if (plan.find("runs of 12)") != std::string::npos) ++kept[1];
      }
    }
  }
  const Field init = random_field({256, 256, 1}, 3u);
  run_on_kernel<double, Kokkos::LayoutRight>(name, stencil, init, init, 0, rules_of(0), Strategy::device_tiling, 0);
  if (Radius == 1) {
    EXPECT_GT(kept[0], 0) << name << ": no plan kept runs of 8 cells";
    if (!quick()) EXPECT_GT(kept[1], 0) << name << ": no plan kept runs of 12 cells";
  } else {
    EXPECT_EQ(kept[0] + kept[1], 0) << name << ": radius 2 has no kernel that keeps runs";
  }
}

TEST(cuda, device_tiling_kept_runs) {
  check_kept_runs<1>("j2d5pt");
  check_kept_runs<2>("j2d9pt");
}

// SM tiling's depth-8 one-level kernels run a piece whose tile lies inside the
// frame without the frame's selects, the others with them (depth 10: one loop
// with the selects for every piece): domains of several
// strips and many pieces per strip (interior pieces and edge pieces in one
// launch), depths 8 and 10 forced, step counts that are not a multiple of the
// depth, fixed sides and a fixed axis beside a periodic one, both layouts, the
// row-queue (j2d5pt) and partial-sum (j2d9pt-gol) kernels.
template <class Shape>
void check_interior_pieces(const std::string& name) {
  using S = EbisuKokkos::LinearStencil<2, 1, Shape>;
  const std::vector<long double> w = mirror_symmetric_weights(preset_offsets(name));
  const S stencil = stencil_with<S>(w);
  const Update update = linear_update(preset_offsets(name), w);
  const Boundary P = Boundary::periodic, F = Boundary::fixed;
  const std::vector<Rules> rule_sets{all(F), Rules{{{P, P}, {F, F}, {F, F}}}};
  const Extents n = quick() ? Extents{530, 60, 1} : Extents{530, 770, 1};
  for (size_t v = 0; v < rule_sets.size(); ++v) {
    for (int steps : {10, 21}) {
      const Field init = random_field(n, 29u + static_cast<unsigned>(v * 7 + steps));
      const Field ref = reference_run_with(init, 2, 1, update, steps, rule_sets[v]);
      for (int depth : {8, 10}) {
        const std::string plan = run_on_kernel<double, Kokkos::LayoutRight>(name, stencil, init, ref, steps,
                                                                            rule_sets[v], Strategy::sm_tiling, depth);
        EXPECT_NE(plan.find("depth " + std::to_string(depth)), std::string::npos) << plan;
        run_on_kernel<double, Kokkos::LayoutLeft>(name, stencil, init, ref, steps, rule_sets[v], Strategy::sm_tiling,
                                                  depth);
      }
    }
  }
}

TEST(cuda, boundary_kernels_interior_pieces) {
  check_interior_pieces<EbisuKokkos::StarShape>("j2d5pt");
  check_interior_pieces<EbisuKokkos::BoxShape>("j2d9pt-gol");
}

// Periodic sides need no symmetry: the presets' distinct weights, periodic and
// fixed sides only.
TEST(cuda, boundary_kernels_periodic_any_stencil) {
  namespace p = EbisuKokkos::presets;
  const auto s1 = p::j1d5pt();
  const auto s2 = p::j2d25pt();
  const auto s3 = p::j3d7pt();
  std::vector<long double> w1, w2, w3;
  for (int k = 0; k < s1.num_points; ++k) w1.push_back(s1.coefficient(k));
  for (int k = 0; k < s2.num_points; ++k) w2.push_back(s2.coefficient(k));
  for (int k = 0; k < s3.num_points; ++k) w3.push_back(s3.coefficient(k));
  ASSERT_FALSE(s2.is_mirror_symmetric(0));
  check_kernels("j1d5pt", s1, w1, {0});
  check_kernels("j2d25pt", s2, w2, {0});
  check_kernels("j3d7pt", s3, w3, {0});
}

// A non-linear functor declared mirror symmetric (Perona-Malik-like edge-
// stopping diffusion), mirror sides on every face.
void check_declared_functor() {
  const auto f = EbisuKokkos::make_stencil<2, 1>(KOKKOS_LAMBDA(const EbisuKokkos::Neighbors<double, 2, 1>& nb) {
                   const double c = nb(0, 0);
                   double flux = 0;
                   const double d[4] = {nb(-1, 0) - c, nb(1, 0) - c, nb(0, -1) - c, nb(0, 1) - c};
                   for (double g : d) flux += g / (1.0 + 4.0 * g * g);
                   return c + 0.2 * flux;
                 }).declare_mirror_symmetric();
  const Update update = [](const std::function<long double(int, int, int)>& nb) {
    const long double c = nb(0, 0, 0);
    long double flux = 0;
    for (long double g : {nb(-1, 0, 0) - c, nb(1, 0, 0) - c, nb(0, -1, 0) - c, nb(0, 1, 0) - c})
      flux += g / (1.0L + 4.0L * g * g);
    return c + 0.2L * flux;
  };
  EXPECT_TRUE(f.is_mirror_symmetric(0));
  EXPECT_TRUE(f.is_mirror_symmetric(1));
  for (const Extents& n : kernel_extents_set<2>(1)) {
    const Field init = random_field(n, 9u);
    for (int variant : {1, 2}) {
      const Field ref = reference_run_with(init, 2, 1, update, 11, rules_of(variant));
      for (Strategy s : {Strategy::sm_tiling, Strategy::device_tiling}) {
        run_on_kernel<double, Kokkos::LayoutRight>("functor", f, init, ref, 11, rules_of(variant), s, 0);
      }
    }
  }
}
TEST(cuda, boundary_kernels_declared_functor) { check_declared_functor(); }

// A mirror side with a stencil that is not mirror symmetric: forced EBISU is
// refused by name before anything runs; automatic runs the generic path.
TEST(cuda, boundary_kernels_refuse_asymmetric_mirror) {
  using V = TestView<double, 2, Kokkos::LayoutRight, Kokkos::Cuda>;
  const auto stencil = EbisuKokkos::presets::j2d5pt();
  const Extents n{40, 33, 1};
  const Field init = random_field(n, 4u);
  V u = make_view<V>("u", n), x = make_view<V>("x", n);
  upload(u, init);
  EbisuKokkos::StencilPolicy<Kokkos::Cuda> forced(5);
  forced.set_backend(EbisuKokkos::Backend::ebisu).set_boundary(1, Boundary::mirror);
  try {
    EbisuKokkos::parallel_stencil("asymmetric", forced, stencil, u, x);
    ADD_FAILURE() << "a mirror side with an asymmetric stencil was accepted on the EBISU kernels";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("mirror symmetric"), std::string::npos) << e.what();
  }
  EXPECT_EQ(relative_error(download(u), init), 0.0);  // untouched

  EbisuKokkos::StencilPolicy<Kokkos::Cuda> automatic(5);
  automatic.set_boundary(1, Boundary::mirror);
  const auto report = EbisuKokkos::parallel_stencil("asymmetric", automatic, stencil, u, x);
  EXPECT_EQ(report.backend, EbisuKokkos::Backend::generic) << report.plan;
  EXPECT_NE(report.plan.find("mirror symmetric"), std::string::npos) << report.plan;
  std::vector<long double> w;
  for (int k = 0; k < stencil.num_points; ++k) w.push_back(stencil.coefficient(k));
  const Field ref = reference_run_with(init, 2, 1, linear_update(preset_offsets("j2d5pt"), w), 5,
                                       {{{Boundary::fixed, Boundary::fixed}, {Boundary::mirror, Boundary::mirror},
                                         {Boundary::fixed, Boundary::fixed}}});
  EXPECT_LE(relative_error(download(u), ref), tolerance<double>());
}

}  // namespace ebisu_test
