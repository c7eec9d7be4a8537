// Backend::automatic's measured choice on CUDA: timing runs on a copy never
// change the answer or the caller's data, the choice is remembered per
// problem, Selection::model never times, a capturing stream is never timed,
// the timing-run length rule, and which candidates are close enough to time.
// Also what the plans weigh per call form: only (u, scratch) pays a copy back.
#include "category/cuda.hpp"
#include "support/field_cases.hpp"
#include "support/run_case.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <sstream>

namespace ebisu_test {

namespace {

bool measured(const EbisuKokkos::StencilReport& r) { return r.plan.find("measured choice (measured") != std::string::npos; }
bool cached(const EbisuKokkos::StencilReport& r) { return r.plan.find("measured choice (cached") != std::string::npos; }

// The strategy that ran must be the fastest of the timings in the report
// ("measured over N steps: sm-tiling 1.234 ms (model 1.100) generic ... fastest: sm-tiling").
void expect_report_matches_choice(const EbisuKokkos::StencilReport& r) {
  const std::string& p = r.plan;
  const auto at = p.find("measured over");
  ASSERT_NE(at, std::string::npos) << p;
  std::istringstream in(p.substr(p.find(':', at) + 1));
  std::string name, ms, model, predicted;
  std::map<std::string, double> times;
  double t = 0, best = 1e300;
  while (in >> name >> t >> ms >> model >> predicted && ms == "ms") {
    times[name] = t;
    best = std::min(best, t);
  }
  EXPECT_GE(times.size(), 2u) << p;
  const bool four_cells = p.find("4 cells per work item") != std::string::npos;
  const bool flat = p.find("flat range of cells") != std::string::npos;
  const std::string ran = r.backend == EbisuKokkos::Backend::generic
                              ? (four_cells ? "generic-4cells" : flat ? "generic-flat" : "generic-1cell")
                              : EbisuKokkos::to_string(r.strategy);
  // SM tiling at the model's depth or one deeper (both report the strategy sm-tiling), device tiling
  // at the model's depth or a shallower one (all report device-tiling).
  const auto named = p.find("fastest: ", at);
  ASSERT_NE(named, std::string::npos) << p;
  std::string fastest;
  std::istringstream(p.substr(named + 9)) >> fastest;
  fastest = fastest.substr(0, fastest.find_first_of(");"));
  ASSERT_EQ(times.count(fastest), 1u) << p;
  EXPECT_LE(times[fastest], best) << p;  // printed times may tie
  if (ran == "sm-tiling" || ran == "device-tiling") {
    EXPECT_EQ(fastest.rfind(ran, 0), 0u) << p;
  } else {
    EXPECT_EQ(fastest, ran) << p;
  }
}

// Calls whose timings included SM tiling one depth deeper than the model's choice, or device tiling
// shallower than it.
int deeper_timed = 0;
int shallower_timed = 0;

template <class V, class Stencil>
void check_measured(const std::string& name, const Stencil& stencil, const Extents& n, int steps,
                    EbisuKokkos::Selection selection, bool double_buffer) {
  SCOPED_TRACE(name + " " + describe({n, steps}, V::rank) + " selection " + EbisuKokkos::to_string(selection) +
               (double_buffer ? " DoubleBuffer" : " (u, scratch)"));
  const Update update = update_of(name, stencil);
  const Field init = random_field(n, 21u + steps);
  const Field ref = reference_run(init, V::rank, Stencil::radius, update, steps);
  EbisuKokkos::StencilPolicy<Kokkos::Cuda> policy(steps);
  policy.set_selection(selection);
  for (int call = 0; call < 2; ++call) {
    V u = make_view<V>("u", n), x = make_view<V>("x", n);
    upload(u, init);
    poison(x);
    Kokkos::fence();
    EbisuKokkos::StencilReport report;
    Field got;
    if (double_buffer) {
      EbisuKokkos::DoubleBuffer<V> buffers(u, x);
      report = EbisuKokkos::parallel_stencil(name, policy, stencil, buffers);
      Kokkos::fence();
      got = download(buffers.current());
    } else {
      report = EbisuKokkos::parallel_stencil(name, policy, stencil, u, x);
      Kokkos::fence();
      got = download(u);
    }
    EXPECT_LE(relative_error(got, ref), tolerance<double>()) << report.plan;
    if (selection == EbisuKokkos::Selection::model) {
      EXPECT_EQ(report.plan.find("measured"), std::string::npos) << report.plan;
      EXPECT_NE(report.plan.find("model choice"), std::string::npos) << report.plan;
    } else if (selection == EbisuKokkos::Selection::measured) {
      // The first call of a problem times its candidates; later ones reuse the choice.
      if (call == 0 && !cached(report)) EXPECT_TRUE(measured(report)) << report.plan;
      if (call == 1) EXPECT_TRUE(cached(report)) << report.plan;
      expect_report_matches_choice(report);
      if (call == 0 && report.plan.find(" sm-tiling-deeper ") != std::string::npos) ++deeper_timed;
      if (call == 0 && report.plan.find(" device-tiling-shallower ") != std::string::npos) ++shallower_timed;
    }
  }
}

}  // namespace

TEST(cuda, measured_choice_keeps_answers_and_caller_data) {
  using L2 = TestView<double, 2, Kokkos::LayoutLeft, Kokkos::Cuda>;
  using R2 = TestView<double, 2, Kokkos::LayoutRight, Kokkos::Cuda>;
  using R3 = TestView<double, 3, Kokkos::LayoutRight, Kokkos::Cuda>;
  using L3 = TestView<double, 3, Kokkos::LayoutLeft, Kokkos::Cuda>;
  namespace p = EbisuKokkos::presets;
  const auto measured_sel = EbisuKokkos::Selection::measured;
  for (bool db : {false, true}) {
    // Odd sizes, a step count that is no multiple of any depth, one step.
    check_measured<L2>("j2d5pt", p::j2d5pt(), {203, 97, 1}, 37, measured_sel, db);
    check_measured<R2>("j2d25pt", p::j2d25pt(), {131, 250, 1}, 11, measured_sel, db);
    check_measured<L2>("j2d9pt", p::j2d9pt(), {64, 65, 1}, 1, measured_sel, db);
    check_measured<R3>("j3d7pt", p::j3d7pt(), {37, 41, 29}, 13, measured_sel, db);
    check_measured<L3>("poisson", p::poisson(), {33, 30, 35}, 9, measured_sel, db);
  }
  // Long enough for the generic path's graph replay to be a candidate.
  check_measured<L2>("j2d5pt", p::j2d5pt(), {96, 96, 1}, 300, measured_sel, false);
  // The deeper SM plan and the shallower device plans were timed in some of these calls.
  EXPECT_GT(deeper_timed, 0);
  EXPECT_GT(shallower_timed, 0);
}

namespace {

// Device tiling at the shallower depths that Backend::automatic times
// (PlanDT::shallower_depths) computes the same answer as the reference at
// each of them, wherever the timing would pick it.
template <class V, class Stencil>
int check_shallower_device_plans(const std::string& name, const Stencil& stencil, const Extents& n, int steps) {
  SCOPED_TRACE(name + " " + describe({n, steps}, V::rank));
  using Backend = EbisuKokkos::Impl::EbisuBackend<Kokkos::Cuda, Stencil, V>;
  using EbisuKokkos::Impl::NoFields;
  using EbisuKokkos::Impl::Cuda::Candidate;
  const Update update = update_of(name, stencil);
  const Field init = random_field(n, 5u + steps);
  const Field ref = reference_run(init, V::rank, Stencil::radius, update, steps);
  const EbisuKokkos::StencilPolicy<Kokkos::Cuda> policy(steps);
  V u = make_view<V>("u", n), x = make_view<V>("x", n);
  const auto plans = Backend::template plan_all<NoFields>(policy, u, x, true, false, NoFields{});
  if (!plans.device.valid) {
    ADD_FAILURE() << plans.device.why_not;
    return 0;
  }
  int ran = 0;
  for (int i = 0; i < 2; ++i) {
    const int depth = plans.device.shallower_depths[i];
    if (depth == 0) continue;
    const auto& shallower = plans.device_shallower[i];
    EXPECT_TRUE(shallower.valid) << shallower.why_not;
    if (!shallower.valid) continue;
    EXPECT_EQ(shallower.depth, depth);
    EXPECT_LT(depth, plans.device.depth);
    upload(u, init);
    poison(x);
    Kokkos::fence();
    const auto c = i == 0 ? Candidate::device_tiling_shallower : Candidate::device_tiling_shallowest;
    const auto outcome = Backend::run_candidate(c, name, policy, stencil, u, x, plans, NoFields{});
    Kokkos::fence();
    EXPECT_EQ(outcome.report.strategy, EbisuKokkos::Strategy::device_tiling);
    EXPECT_EQ(outcome.report.temporal_depth, depth) << outcome.report.plan;
    EXPECT_LE(relative_error(download(outcome.result_in_scratch ? x : u), ref), tolerance<double>())
        << outcome.report.plan;
    ++ran;
  }
  return ran;
}

}  // namespace

TEST(cuda, measured_choice_shallower_device_plans_are_exact) {
  using R2 = TestView<double, 2, Kokkos::LayoutRight, Kokkos::Cuda>;
  using L2 = TestView<double, 2, Kokkos::LayoutLeft, Kokkos::Cuda>;
  using R3 = TestView<double, 3, Kokkos::LayoutRight, Kokkos::Cuda>;
  namespace p = EbisuKokkos::presets;
  int ran = 0;
  // Step counts that are no multiple of the depths; odd, non-square extents.
  ran += check_shallower_device_plans<R2>("j2d5pt", p::j2d5pt(), {257, 191, 1}, 61);
  ran += check_shallower_device_plans<L2>("j2d5pt", p::j2d5pt(), {130, 301, 1}, 47);
  ran += check_shallower_device_plans<R2>("j2d9pt", p::j2d9pt(), {211, 160, 1}, 53);
  ran += check_shallower_device_plans<R3>("j3d7pt", p::j3d7pt(), {41, 37, 45}, 31);
  EXPECT_GE(ran, 4);
}

TEST(cuda, measured_choice_model_only_never_times) {
  using L2 = TestView<double, 2, Kokkos::LayoutLeft, Kokkos::Cuda>;
  using R3 = TestView<double, 3, Kokkos::LayoutRight, Kokkos::Cuda>;
  namespace p = EbisuKokkos::presets;
  check_measured<L2>("j2d5pt", p::j2d5pt(), {200, 100, 1}, 25, EbisuKokkos::Selection::model, false);
  check_measured<R3>("j3d27pt", p::j3d27pt(), {30, 31, 32}, 7, EbisuKokkos::Selection::model, true);
}

TEST(cuda, measured_choice_is_per_problem) {
  using V = TestView<double, 2, Kokkos::LayoutLeft, Kokkos::Cuda>;
  const auto stencil = EbisuKokkos::presets::j2d5pt();
  EbisuKokkos::StencilPolicy<Kokkos::Cuda> a(20), b(21);
  V u = make_view<V>("u", {120, 80, 1}), w = make_view<V>("w", {121, 80, 1});
  namespace Cuda = EbisuKokkos::Impl::Cuda;
  const std::string k_a = Cuda::measured_choice_key<decltype(stencil)>(a, u);
  EXPECT_NE(k_a, Cuda::measured_choice_key<decltype(stencil)>(b, u));
  EXPECT_NE(k_a, Cuda::measured_choice_key<decltype(stencil)>(a, w));
  a.set_temporal_depth(3);
  EXPECT_NE(k_a, Cuda::measured_choice_key<decltype(stencil)>(a, u));
  EXPECT_NE(k_a, Cuda::measured_choice_key<decltype(EbisuKokkos::presets::j2d9pt())>(b, u));
}

TEST(cuda, measured_choice_judges_a_candidate_without_its_margin) {
  using Plan = EbisuKokkos::Impl::Cuda::CandidatePlan;
  using EbisuKokkos::Impl::Cuda::Candidate;
  using EbisuKokkos::Impl::Cuda::worth_timing;
  const Plan generic{Candidate::generic_4cells, 1.0, 1.0};
  // 3-D device tiling 1.17x slower by its model, 1.64x after the 1.4 margin: timed.
  EXPECT_TRUE(worth_timing({Candidate::device_tiling, 1.64, 1.17}, generic));
  // 1.6x slower even without the margin: the model decides.
  EXPECT_FALSE(worth_timing({Candidate::device_tiling, 2.24, 1.6}, generic));
  EXPECT_TRUE(worth_timing({Candidate::sm_tiling, 1.5, 1.5}, generic));
  EXPECT_FALSE(worth_timing({Candidate::sm_tiling, 1.51, 1.51}, generic));
  // A leader ranked first by its margin keeps it in the comparison.
  EXPECT_TRUE(worth_timing(generic, {Candidate::device_tiling, 0.7, 0.5}));
}

TEST(cuda, measured_choice_timing_run_length) {
  namespace Cuda = EbisuKokkos::Impl::Cuda;
  EXPECT_EQ(Cuda::measurement_steps(100, 0.001), 100);  // short calls are timed whole
  EXPECT_EQ(Cuda::measurement_steps(10000, 1.0), Cuda::kMeasureMinSteps);
  EXPECT_EQ(Cuda::measurement_steps(100000, 1.0), 1000);  // cut to about kMeasureSecondsPerRun
  EXPECT_EQ(Cuda::measurement_steps(200, 1.0), 200);      // never more than the call
}

TEST(cuda, generic_cells_per_item_knob) {
  using V = TestView<double, 3, Kokkos::LayoutRight, Kokkos::Cuda>;
  const auto stencil = EbisuKokkos::presets::j3d17pt();
  const Extents n{20, 23, 26};
  const Field init = random_field(n, 5u);
  const Field ref = reference_run(init, 3, decltype(stencil)::radius, update_of("j3d17pt", stencil), 6);
  for (int cells : {0, 1, 4}) {
    V u = make_view<V>("u", n), x = make_view<V>("x", n);
    upload(u, init);
    EbisuKokkos::StencilPolicy<Kokkos::Cuda> policy(6);
    policy.set_backend(EbisuKokkos::Backend::generic).set_generic_cells_per_item(cells);
    const auto report = EbisuKokkos::parallel_stencil("cells", policy, stencil, u, x);
    Kokkos::fence();
    EXPECT_LE(relative_error(download(u), ref), tolerance<double>()) << report.plan;
    // 18x21x24 interior cells are far fewer than twice the GPU's threads: one cell per item by default.
    EXPECT_EQ(report.plan.find("4 cells per work item") != std::string::npos, cells == 4) << report.plan;
  }
  EbisuKokkos::StencilPolicy<Kokkos::Cuda> policy(1);
  EXPECT_THROW(policy.set_generic_cells_per_item(3), std::invalid_argument);
  EXPECT_THROW(policy.set_generic_cells_per_item(-1), std::invalid_argument);
}

// The flat form splits a linear index into the cell's indices: both layouts,
// odd extents, 2-D and 3-D, radius 2, a field read over the footprint, odd step counts.
template <class Layout, class Stencil>
void check_flat_preset(const std::string& name, const Stencil& stencil, const Extents& n, int steps) {
  using V = TestView<double, Stencil::rank, Layout, Kokkos::Cuda>;
  const Field init = random_field(n, 9u);
  const Field ref = reference_run(init, Stencil::rank, Stencil::radius, update_of(name, stencil), steps);
  V u = make_view<V>("u", n), x = make_view<V>("x", n);
  upload(u, init);
  EbisuKokkos::StencilPolicy<Kokkos::Cuda> policy(steps);
  policy.set_backend(EbisuKokkos::Backend::generic).set_generic_step(EbisuKokkos::GenericStep::flat);
  const auto report = EbisuKokkos::parallel_stencil("flat", policy, stencil, u, x);
  Kokkos::fence();
  EXPECT_LE(relative_error(download(u), ref), tolerance<double>()) << name << ": " << report.plan;
  EXPECT_NE(report.plan.find("flat range of cells"), std::string::npos) << report.plan;
}

template <class Layout>
void check_flat_generic_step() {
  using V = TestView<double, 3, Layout, Kokkos::Cuda>;
  const Extents n{13, 22, 17};
  const Field init = random_field(n, 9u);
  check_flat_preset<Layout>("j3d13pt", EbisuKokkos::presets::j3d13pt(), n, 5);
  check_flat_preset<Layout>("j2d25pt", EbisuKokkos::presets::j2d25pt(), Extents{37, 29, 1}, 3);
  {  // a conductivity read over the footprint; periodic along index 0 (edge slabs beside the flat interior)
    using namespace field_tests;
    const double dt = 0.0625;
    const auto stencil = EbisuKokkos::make_stencil<3, 1>(VariableHeat<3>{dt});
    const std::vector<Field> k = random_fields(1, 0.5L)(n);
    Edges edges = edges_all(Edge::fixed);
    edges[0] = {Edge::periodic, Edge::periodic};
    const Field ref = reference_run_with_fields(init, k, 3, 1, variable_heat_update(3, dt), 5, edges);
    V u = make_view<V>("u", n), x = make_view<V>("x", n), kv = make_view<V>("k", n);
    upload(u, init);
    upload(kv, k[0]);
    EbisuKokkos::StencilPolicy<Kokkos::Cuda> policy(5);
    policy.set_backend(EbisuKokkos::Backend::generic)
        .set_generic_step(EbisuKokkos::GenericStep::flat)
        .set_boundary(0, EbisuKokkos::Boundary::periodic);
    const auto report = EbisuKokkos::parallel_stencil("flat-heat", policy, stencil, u, x, EbisuKokkos::fields(kv));
    Kokkos::fence();
    EXPECT_LE(relative_error(download(u), ref), tolerance<double>()) << report.plan;
    EXPECT_NE(report.plan.find("flat range of cells"), std::string::npos) << report.plan;
  }
}

TEST(cuda, generic_flat_step) {
  check_flat_generic_step<Kokkos::LayoutRight>();
  check_flat_generic_step<Kokkos::LayoutLeft>();
}

TEST(cuda, measured_choice_not_timed_inside_a_capture) {
  cudaStream_t stream;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  {
    Kokkos::Cuda space(stream);
    EXPECT_EQ(EbisuKokkos::Impl::Cuda::measurement_blocker(space, 8), "");
    ASSERT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed), cudaSuccess);
    const std::string why = EbisuKokkos::Impl::Cuda::measurement_blocker(space, 8);
    cudaGraph_t graph;
    ASSERT_EQ(cudaStreamEndCapture(stream, &graph), cudaSuccess);
    cudaGraphDestroy(graph);
    EXPECT_EQ(why, "the stream is being captured");
    // More than a quarter of free memory cannot be copied for timing.
    std::size_t free_bytes = 0, total = 0;
    ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
    EXPECT_NE(EbisuKokkos::Impl::Cuda::measurement_blocker(space, free_bytes / 2), "");
  }
  cudaStreamDestroy(stream);
}

}  // namespace ebisu_test

namespace ebisu_test {

namespace {

// T steps at a forced SM-tiling depth of T, in the three call forms on the same data: each matches
// the reference, the (u, scratch) form in u, the DoubleBuffer and State forms in whichever buffer
// the launches left it (their selector flipped for an odd count). Only (u, scratch) owes a copy
// back for an odd launch count, so only it may split the steps into two launches of half the depth
// to save it; the others are never planned slower or with more launches, and at these sizes run one
// launch (before the fix they split too: j2d5pt 10208^2 at 8 steps ran at 758 GCells/s on an H200
// against 1070 for one launch). (At 160 x 170 x 180 one depth-4 launch of j3d7pt is predicted
// slower than two of depth 2 whatever the form; at 224 x 232 x 240 it is 13% faster.)
template <class V, class Stencil>
void check_forms_at_full_depth(const std::string& name, const Stencil& stencil, const Extents& n, int depth) {
  SCOPED_TRACE(name + " " + describe({n, depth}, V::rank));
  const Field init = random_field(n, 77u);
  const Field ref = reference_run(init, V::rank, Stencil::radius, update_of(name, stencil), depth);
  EbisuKokkos::StencilPolicy<Kokkos::Cuda> policy(depth);
  policy.set_backend(EbisuKokkos::Backend::ebisu).set_strategy(EbisuKokkos::Strategy::sm_tiling);
  policy.set_temporal_depth(depth);
  V u = make_view<V>("u", n), x = make_view<V>("x", n);
  const auto from_init = [&] {
    upload(u, init);
    poison(x);
  };

  from_init();
  const auto into_u = EbisuKokkos::parallel_stencil(name, policy, stencil, u, x);
  Kokkos::fence();
  EXPECT_LE(relative_error(download(u), ref), tolerance<double>()) << into_u.plan;
  EXPECT_GE(into_u.launches, 1) << into_u.plan;

  // A form that flips its selector: one launch, the answer in the buffer that launch wrote.
  const auto expect_flipped = [&](const EbisuKokkos::StencilReport& r, const V& current) {
    Kokkos::fence();
    EXPECT_EQ(r.launches, 1) << r.plan;
    EXPECT_EQ(r.temporal_depth, depth) << r.plan;
    EXPECT_EQ(current.data(), r.launches % 2 == 1 ? x.data() : u.data());
    EXPECT_LE(relative_error(download(current), ref), tolerance<double>()) << r.plan;
    EXPECT_LE(r.launches, into_u.launches) << into_u.plan;
    EXPECT_GE(r.predicted_gcells_per_s, into_u.predicted_gcells_per_s * (1 - 1e-9)) << into_u.plan;
  };
  from_init();
  EbisuKokkos::DoubleBuffer<V> buffers(u, x);
  const auto flipped = EbisuKokkos::parallel_stencil(name, policy, stencil, buffers);
  expect_flipped(flipped, buffers.current());
  from_init();
  EbisuKokkos::State<V> state(u, x);
  const auto turned = EbisuKokkos::parallel_stencil(name, policy, stencil, state);
  expect_flipped(turned, state.current());
}

}  // namespace

TEST(cuda, only_the_u_scratch_form_pays_a_copy_back) {
  using L2 = TestView<double, 2, Kokkos::LayoutLeft, Kokkos::Cuda>;
  using R3 = TestView<double, 3, Kokkos::LayoutRight, Kokkos::Cuda>;
  namespace p = EbisuKokkos::presets;
  check_forms_at_full_depth<L2>("j2d5pt", p::j2d5pt(), {2048, 2048, 1}, 8);
  check_forms_at_full_depth<R3>("j3d7pt", p::j3d7pt(), {224, 232, 240}, 4);
}

}  // namespace ebisu_test
