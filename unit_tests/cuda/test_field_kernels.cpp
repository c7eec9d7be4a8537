// Read-only fields on the EBISU CUDA kernels: device tiling forced (the field
// tiles in shared memory beside the state's two copies), in-place tiling
// forced (a field tile beside the state's one copy), 2-D SM tiling forced
// (the fields streamed through shared-memory row queues) and 3-D SM tiling
// forced (footprint fields through shared-memory plane queues, one centre-only
// field in per-thread rings, others through the read-only data cache), against the
// independent long-double reference with fields (support/reference.hpp):
// ranks 2 and 3, a field read over the footprint and at radius 2, a
// centre-only source, fixed / periodic / mirror sides (mirror with a functor
// declared mirror symmetric), domains split over many blocks, depth knobs,
// both layouts; automatic.
#include "category/cuda.hpp"
#include "support/field_cases.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>
#include <ebisu_kokkos/presets.hpp>

#include <cstdlib>

namespace ebisu_test {
namespace field_tests {

using EbisuKokkos::Strategy;

template <class Layout, class Scalar = double, class Stencil, bool... Centre>
EbisuKokkos::StencilReport run_on_kernel(const std::string& name, const Stencil& stencil, Kinds<Centre...>,
                                         const FieldsUpdate& update, const FieldMaker& make_fields, const Extents& n,
                                         int steps, const Edges& edges, Strategy strategy, int depth,
                                         EbisuKokkos::SourceForm source_form = EbisuKokkos::SourceForm::automatic,
                                         int response_interval = 0) {
  constexpr int rank = Stencil::rank;
  constexpr std::size_t count = sizeof...(Centre);
  using V = TestView<Scalar, rank, Layout, Kokkos::Cuda>;
  SCOPED_TRACE(name + " " + describe({n, steps}, rank) + " sides " + describe_edges(edges) + " strategy " +
               EbisuKokkos::to_string(strategy) + " depth knob " + std::to_string(depth) +
               (std::is_same_v<Layout, Kokkos::LayoutLeft> ? " LayoutLeft" : " LayoutRight") +
               (std::is_same_v<Scalar, float> ? " float" : " double"));
  const Field init = random_field(n, 91u + steps);
  const std::vector<Field> field_init = make_fields(n);
  const Field ref = reference_run_with_fields(init, field_init, rank, Stencil::radius, update, steps, edges);
  V u = make_view<V>("u", n), x = make_view<V>("x", n);
  upload(u, init);
  poison(x);
  std::vector<V> f;
  for (std::size_t k = 0; k < count; ++k) {
    f.push_back(make_view<V>("field" + std::to_string(k), n));
    upload(f[k], field_init[k]);
  }
  EbisuKokkos::StencilPolicy<Kokkos::Cuda> policy(steps);
  policy.set_backend(strategy == Strategy::automatic ? EbisuKokkos::Backend::automatic : EbisuKokkos::Backend::ebisu)
      .set_strategy(strategy)
      .set_temporal_depth(depth)
      .set_source_form(source_form)
      .set_response_interval(response_interval);
  for (int a = 0; a < rank; ++a) {
    policy.set_boundary(a, EbisuKokkos::Side::low, to_boundary(edges[a][0]))
        .set_boundary(a, EbisuKokkos::Side::high, to_boundary(edges[a][1]));
  }
  const EbisuKokkos::StencilReport report =
      EbisuKokkos::parallel_stencil(name, policy, stencil, u, x, fields_argument<Centre...>(f, std::make_index_sequence<count>{}));
  EXPECT_LE(relative_error(download(u), ref), tolerance<Scalar>()) << report.plan;
  for (std::size_t k = 0; k < count; ++k) EXPECT_EQ(relative_error(download(f[k]), field_init[k]), 0.0) << "field " << k;
  if (strategy == Strategy::device_tiling && steps > 0) {
    EXPECT_EQ(report.strategy, Strategy::device_tiling) << report.plan;
    EXPECT_NE(report.plan.find("read-only field tile"), std::string::npos) << report.plan;
  }
  if (strategy == Strategy::in_place_tiling && report.strategy == Strategy::in_place_tiling && steps > 0) {
    EXPECT_NE(report.plan.find("read-only field tile"), std::string::npos) << report.plan;
  }
  if (strategy == Strategy::sm_tiling && steps > 0) {
    EXPECT_EQ(report.strategy, Strategy::sm_tiling) << report.plan;
    // Fields read over the footprint stream through queues; 2-D keeps centre-only fields in
    // registers where they fit (RowMode), 3-D keeps one centre-only field of a kernel without a
    // queue in per-thread rings and reads any others through L1.
    const bool queued = report.plan.find("read-only field queue") != std::string::npos;
    const bool in_registers = report.plan.find("centre-only field(s) in registers") != std::string::npos;
    const bool ringed = report.plan.find("centre-only field(s) in per-thread rings") != std::string::npos;
    const bool cached = report.plan.find("centre-only field(s) read through the read-only data cache") != std::string::npos;
    const bool response = report.plan.find("source response form") != std::string::npos;
    EXPECT_TRUE(queued || response || (rank == 2 ? in_registers && (... && Centre) : ringed || cached)) << report.plan;
    if (source_form == EbisuKokkos::SourceForm::per_step) EXPECT_FALSE(response) << report.plan;
    if (rank == 3 && count == 1 && (... && Centre) && !response) EXPECT_TRUE(ringed) << report.plan;
    if (rank == 3 && count > 1 && (... && Centre)) EXPECT_TRUE(ringed && cached) << report.plan;
    // A depth knob is an upper bound: depths whose kernels spill registers with fields are not planned.
    if (depth > 0) EXPECT_LE(report.temporal_depth, depth) << report.plan;
    EXPECT_GE(report.temporal_depth, 1) << report.plan;
  }
  return report;
}

inline bool quick() { return std::getenv("EBISU_TEST_QUICK") != nullptr; }

inline std::vector<Extents> sizes(int rank) {
  if (rank == 2) return quick() ? std::vector<Extents>{{61, 97, 1}} : std::vector<Extents>{{13, 10, 1}, {301, 517, 1}};
  return quick() ? std::vector<Extents>{{20, 17, 31}} : std::vector<Extents>{{13, 10, 7}, {45, 37, 61}};
}

inline std::vector<Edges> all_edge_sets() {
  const Edge P = Edge::periodic, M = Edge::mirror, F = Edge::fixed;
  return {edges_all(F), edges_all(P), edges_all(M), {{{P, P}, {M, F}, {F, M}}}};
}

// Variable-coefficient heat, conductivity over the footprint; the update is
// symmetric under reflection (declared), so mirror sides run on the kernel too.
template <int Rank>
void check_variable_heat() {
  const double dt = Rank == 2 ? 0.1 : 0.08;
  const auto stencil = EbisuKokkos::make_stencil<Rank, 1>(VariableHeat<Rank>{dt}).declare_mirror_symmetric();
  for (const Extents& n : sizes(Rank))
    for (const Edges& edges : all_edge_sets()) {
      run_on_kernel<Kokkos::LayoutRight>("variable-heat", stencil, Kinds<false>{}, variable_heat_update(Rank, dt),
                                         random_fields(1, 1.0L), n, 13, edges, Strategy::device_tiling, 0);
      run_on_kernel<Kokkos::LayoutLeft>("variable-heat", stencil, Kinds<false>{}, variable_heat_update(Rank, dt),
                                        random_fields(1, 1.0L), n, 13, edges, Strategy::device_tiling, 3);
    }
}

TEST(cuda, field_kernels_variable_heat_2d) { check_variable_heat<2>(); }
TEST(cuda, field_kernels_variable_heat_3d) { check_variable_heat<3>(); }

// A field read at radius 2 (asymmetric weights: fixed and periodic sides), and
// a centre-only source.
TEST(cuda, field_kernels_radius2_and_source) {
  const auto average = EbisuKokkos::make_stencil<2, 2>(FieldWeightedAverage<2, 2>{});
  const auto reaction = EbisuKokkos::make_stencil<3, 1>(ReactionWithSource<3, 1>{});
  for (Edge e : {Edge::fixed, Edge::periodic}) {
    for (int depth : {0, 2}) {
      run_on_kernel<Kokkos::LayoutRight>("average-r2", average, Kinds<false>{}, weighted_average_update(2, 2),
                                         random_fields(1, 1.0L), sizes(2).back(), 9, edges_all(e),
                                         Strategy::device_tiling, depth);
      run_on_kernel<Kokkos::LayoutLeft>("reaction", reaction, Kinds<true>{}, reaction_update(3, 1),
                                        random_fields(1, 0.5L), sizes(3).back(), 11, edges_all(e),
                                        Strategy::device_tiling, depth);
    }
  }
}

// 2-D SM tiling streams the fields: every rule set, a domain smaller than a
// tile and one of many strips and blocks, depths 1 to the deepest compiled
// with T not a multiple of the depth (remainder launches), both layouts.
TEST(cuda, field_kernels_sm_tiling_2d) {
  const double dt = 0.1;
  const auto stencil = EbisuKokkos::make_stencil<2, 1>(VariableHeat<2>{dt}).declare_mirror_symmetric();
  const std::vector<Extents> n2 = quick() ? std::vector<Extents>{{301, 517, 1}}
                                          : std::vector<Extents>{{13, 10, 1}, {301, 517, 1}, {700, 1100, 1}};
  for (const Extents& n : n2)
    for (const Edges& edges : all_edge_sets()) {
      run_on_kernel<Kokkos::LayoutRight>("variable-heat", stencil, Kinds<false>{}, variable_heat_update(2, dt),
                                         random_fields(1, 1.0L), n, 13, edges, Strategy::sm_tiling, 0);
      run_on_kernel<Kokkos::LayoutLeft>("variable-heat", stencil, Kinds<false>{}, variable_heat_update(2, dt),
                                        random_fields(1, 1.0L), n, 23, edges, Strategy::sm_tiling, 4);
    }
  for (int depth : {1, 2, 10}) {
    run_on_kernel<Kokkos::LayoutRight>("variable-heat", stencil, Kinds<false>{}, variable_heat_update(2, dt),
                                       random_fields(1, 1.0L), {301, 517, 1}, 37, edges_all(Edge::fixed),
                                       Strategy::sm_tiling, depth);
  }
  run_on_kernel<Kokkos::LayoutRight>("variable-heat", stencil, Kinds<false>{}, variable_heat_update(2, dt),
                                     random_fields(1, 1.0L), {61, 97, 1}, 0, edges_all(Edge::fixed),
                                     Strategy::sm_tiling, 0);
}

// Radius 2 (runtime-sized blocks) and a centre-only source, two fields at once.
TEST(cuda, field_kernels_sm_tiling_2d_radius2_and_source) {
  const auto average = EbisuKokkos::make_stencil<2, 2>(FieldWeightedAverage<2, 2>{});
  const auto reaction = EbisuKokkos::make_stencil<2, 1>(ReactionWithSource<2, 1>{});
  for (Edge e : {Edge::fixed, Edge::periodic}) {
    for (int depth : {0, 2}) {
      run_on_kernel<Kokkos::LayoutRight>("average-r2", average, Kinds<false>{}, weighted_average_update(2, 2),
                                         random_fields(1, 1.0L), {301, 517, 1}, 9, edges_all(e),
                                         Strategy::sm_tiling, depth);
      run_on_kernel<Kokkos::LayoutLeft>("reaction", reaction, Kinds<true>{}, reaction_update(2, 1),
                                        random_fields(1, 0.5L), {301, 517, 1}, 11, edges_all(e),
                                        Strategy::sm_tiling, depth);
    }
  }
}

// with_source and linear_stencil_with_coefficient_fields keep the linear
// stencil's shape: the kernels keep only the star's neighbours (the 2-D row
// queue of the preset, no off-column rows); SM and device tiling forced.
TEST(cuda, field_kernels_star_shaped_functors) {
  namespace presets = EbisuKokkos::presets;
  const auto source = EbisuKokkos::with_source(presets::j2d5pt());
  const auto source3 = EbisuKokkos::with_source(presets::j3d7pt());
  const auto coefficients = EbisuKokkos::linear_stencil_with_coefficient_fields<2, 1, EbisuKokkos::StarShape>();
  static_assert(decltype(source)::num_points == 5, "with_source keeps the star");
  for (Strategy strategy : {Strategy::sm_tiling, Strategy::device_tiling}) {
    for (const Edges& edges : {edges_all(Edge::fixed), edges_all(Edge::periodic)}) {
      run_on_kernel<Kokkos::LayoutRight>("j2d5pt+source", source, Kinds<true>{},
                                         linear_plus_source_update(ebisu_test::update_of("j2d5pt", presets::j2d5pt())),
                                         random_fields(1, 0.125L), {301, 517, 1}, 13, edges, strategy, 0);
      run_on_kernel<Kokkos::LayoutLeft>("coef-j2d5pt", coefficients, Kinds<true, true, true, true, true>{},
                                        coefficient_fields_update(preset_offsets("j2d5pt")), random_fields(5, 0.25L),
                                        {61, 97, 1}, 9, edges, strategy, 2);
    }
  }
  // The source at forced depths, in registers (depths <= 8) or the row queue
  // (10): both layouts, fixed and periodic sides and a periodic axis beside a
  // fixed one (the framed mapped kernel), T no multiple of the depth. (Not
  // mirror sides: the preset's weights are not mirror symmetric.)
  // 301 x 517 takes several strips, so that pieces end and start again in a block.
  const Edges periodic_beside_fixed{{{Edge::periodic, Edge::periodic}, {Edge::fixed, Edge::fixed}, {Edge::fixed, Edge::fixed}}};
  for (int depth : {1, 2, 4, 8, 10}) {
    for (const Edges& edges :
         {edges_all(Edge::fixed), edges_all(Edge::periodic), periodic_beside_fixed}) {
      const EbisuKokkos::StencilReport reports[] = {
          run_on_kernel<Kokkos::LayoutRight>("j2d5pt+source", source, Kinds<true>{},
                                             linear_plus_source_update(ebisu_test::update_of("j2d5pt", presets::j2d5pt())),
                                             random_fields(1, 0.125L), {301, 517, 1}, 2 * depth + 3, edges,
                                             Strategy::sm_tiling, depth),
          run_on_kernel<Kokkos::LayoutLeft>("j2d5pt+source", source, Kinds<true>{},
                                            linear_plus_source_update(ebisu_test::update_of("j2d5pt", presets::j2d5pt())),
                                            random_fields(1, 0.125L), {517, 301, 1}, 2 * depth + 3, edges,
                                            Strategy::sm_tiling, depth)};
      for (const auto& report : reports) {
        const bool in_registers = report.plan.find("centre-only field(s) in registers") != std::string::npos;
        EXPECT_EQ(in_registers, report.temporal_depth <= 8) << report.plan;
      }
    }
  }
  run_on_kernel<Kokkos::LayoutLeft>("j3d7pt+source", source3, Kinds<true>{},
                                    linear_plus_source_update(ebisu_test::update_of("j3d7pt", presets::j3d7pt())),
                                    random_fields(1, 0.125L), {20, 17, 31}, 7, edges_all(Edge::fixed),
                                    Strategy::device_tiling, 0);
}

// 3-D SM tiling streams a footprint field through a plane queue: every rule
// set, a domain smaller than a tile and one of many tiles in x and y, every
// compiled depth with T not a multiple of it, both layouts, T = 0.
TEST(cuda, field_kernels_sm_tiling_3d) {
  const double dt = 0.08;
  const auto stencil = EbisuKokkos::make_stencil<3, 1>(VariableHeat<3>{dt}).declare_mirror_symmetric();
  const std::vector<Extents> n3 = quick() ? std::vector<Extents>{{45, 37, 61}}
                                          : std::vector<Extents>{{13, 10, 7}, {45, 37, 61}, {70, 90, 41}};
  for (const Extents& n : n3)
    for (const Edges& edges : all_edge_sets()) {
      run_on_kernel<Kokkos::LayoutRight>("variable-heat", stencil, Kinds<false>{}, variable_heat_update(3, dt),
                                         random_fields(1, 1.0L), n, 13, edges, Strategy::sm_tiling, 0);
      run_on_kernel<Kokkos::LayoutLeft>("variable-heat", stencil, Kinds<false>{}, variable_heat_update(3, dt),
                                        random_fields(1, 1.0L), n, 11, edges, Strategy::sm_tiling, 3);
    }
  // The functor declared star-shaped (no off-column planes of other z queued): depths up to 3.
  const auto star = EbisuKokkos::make_stencil<3, 1, EbisuKokkos::StarShape>(VariableHeat<3>{dt}).declare_mirror_symmetric();
  for (int depth : {1, 2, 3}) {
    run_on_kernel<Kokkos::LayoutRight>("variable-heat-star", star, Kinds<false>{}, variable_heat_update(3, dt),
                                       random_fields(1, 1.0L), {70, 90, 41}, 2 * depth + 3, edges_all(Edge::fixed),
                                       Strategy::sm_tiling, depth);
  }
  for (const Edges& edges : all_edge_sets()) {
    run_on_kernel<Kokkos::LayoutLeft>("variable-heat-star", star, Kinds<false>{}, variable_heat_update(3, dt),
                                      random_fields(1, 1.0L), {45, 37, 61}, 10, edges, Strategy::sm_tiling, 3);
  }
  run_on_kernel<Kokkos::LayoutRight>("variable-heat", stencil, Kinds<false>{}, variable_heat_update(3, dt),
                                     random_fields(1, 1.0L), {20, 17, 31}, 0, edges_all(Edge::fixed),
                                     Strategy::sm_tiling, 0);
}

// Radius 2, a centre-only source, and the star-shaped functors (one and seven fields).
TEST(cuda, field_kernels_sm_tiling_3d_radius2_source_and_coefficients) {
  namespace presets = EbisuKokkos::presets;
  const auto average = EbisuKokkos::make_stencil<3, 2>(FieldWeightedAverage<3, 2>{});
  const auto reaction = EbisuKokkos::make_stencil<3, 1>(ReactionWithSource<3, 1>{});
  const auto source = EbisuKokkos::with_source(presets::j3d7pt());
  const auto coefficients = EbisuKokkos::linear_stencil_with_coefficient_fields<3, 1, EbisuKokkos::StarShape>();
  for (Edge e : {Edge::fixed, Edge::periodic}) {
    for (int depth : {0, 2}) {
      run_on_kernel<Kokkos::LayoutRight>("average-r2", average, Kinds<false>{}, weighted_average_update(3, 2),
                                         random_fields(1, 1.0L), {45, 37, 29}, 5, edges_all(e), Strategy::sm_tiling,
                                         depth);
      run_on_kernel<Kokkos::LayoutLeft>("reaction", reaction, Kinds<true>{}, reaction_update(3, 1),
                                        random_fields(1, 0.5L), {45, 37, 29}, 11, edges_all(e), Strategy::sm_tiling,
                                        depth);
    }
    run_on_kernel<Kokkos::LayoutLeft>("j3d7pt+source", source, Kinds<true>{},
                                      linear_plus_source_update(ebisu_test::update_of("j3d7pt", presets::j3d7pt())),
                                      random_fields(1, 0.125L), {70, 40, 31}, 9, edges_all(e), Strategy::sm_tiling, 0);
    run_on_kernel<Kokkos::LayoutRight>("coef-j3d7pt", coefficients, Kinds<true, true, true, true, true, true, true>{},
                                       coefficient_fields_update(preset_offsets("j3d7pt")), random_fields(7, 0.125L),
                                       {33, 40, 21}, 7, edges_all(e), Strategy::sm_tiling, 4);
  }
  // The source's per-thread ring at every depth (its length depends on the depth), T not a
  // multiple of it, several tiles in x and y, mixed sides (the preset's distinct weights are not
  // mirror symmetric), both layouts. T = 3 depth + 1 is an even number of launches, which the
  // launch split keeps (an odd one may become launches of other depths only).
  const Edge P = Edge::periodic, F = Edge::fixed;
  const Edges mixed{{{P, P}, {F, F}, {P, P}}};
  for (int depth = 1; depth <= 4; ++depth) {
    const auto update = linear_plus_source_update(ebisu_test::update_of("j3d7pt", presets::j3d7pt()));
    const auto report = run_on_kernel<Kokkos::LayoutRight>("j3d7pt+source", source, Kinds<true>{}, update,
                                                           random_fields(1, 0.125L), {70, 90, 41}, 3 * depth + 1,
                                                           edges_all(F), Strategy::sm_tiling, depth);
    EXPECT_EQ(report.temporal_depth, depth) << report.plan;
    run_on_kernel<Kokkos::LayoutLeft>("j3d7pt+source", source, Kinds<true>{}, update, random_fields(1, 0.125L),
                                      {45, 37, 61}, 3 * depth + 1, mixed, Strategy::sm_tiling, depth);
  }
}

// The source's response form (SourceForm::response), 2-D and 3-D SM tiling: g_{nd} from n launches of the
// source kernel of the main depth d from zero (n odd and even: the set-up's first launch reads a zeroed
// scratch or a zeroed response buffer), then groups of n launches of the preset's own kernel, the last
// adding it, then the depth-d launches left over and the tail with the source: T with a tail and with
// launches left over after the groups; fixed and mixed periodic / fixed sides (the fixed frame of g stays
// 0); both layouts; several tiles; the whole-call response (g_T with the tail folded in, every launch
// source-free). Per step forced never takes it.
template <int Rank, class Preset>
void check_source_response(const Preset& preset, const char* name, int depth, const std::vector<int>& step_counts,
                           const Extents& right_extents, const Extents& left_extents) {
  using EbisuKokkos::SourceForm;
  const auto source = EbisuKokkos::with_source(preset);
  const auto update = linear_plus_source_update(ebisu_test::update_of(name, preset));
  const Edge P = Edge::periodic, F = Edge::fixed;
  const Edges mixed = Rank == 2 ? Edges{{{P, P}, {F, F}, {F, F}}} : Edges{{{P, P}, {F, F}, {P, P}}};
  const std::string label = std::string(name) + "+source response";
  for (int steps : step_counts) {
    for (int interval : {1, 2, 3, EbisuKokkos::response_over_whole_call}) {
      for (const Edges& edges : {edges_all(F), mixed}) {
        const EbisuKokkos::StencilReport reports[] = {
            run_on_kernel<Kokkos::LayoutRight>(label, source, Kinds<true>{}, update, random_fields(1, 0.125L),
                                               right_extents, steps, edges, Strategy::sm_tiling, depth,
                                               SourceForm::response, interval),
            run_on_kernel<Kokkos::LayoutLeft>(label, source, Kinds<true>{}, update, random_fields(1, 0.125L),
                                              left_extents, steps, edges, Strategy::sm_tiling, depth,
                                              SourceForm::response, interval)};
        for (const auto& report : reports) {
          if (interval == EbisuKokkos::response_over_whole_call) {  // g_T; the tail first, source-free; one group
            const std::string form = "source response form: g_" + std::to_string(steps) + " from " +
                                     std::to_string(report.launches) + " launch(es)";
            EXPECT_NE(report.plan.find(form), std::string::npos) << report.plan;
            EXPECT_NE(report.plan.find(" 1 group(s) of "), std::string::npos) << report.plan;
            EXPECT_EQ(report.plan.find("with the source"), std::string::npos) << report.plan;
            continue;
          }
          const std::string form = "source response form: g_" + std::to_string(interval * report.temporal_depth) +
                                   " from " + std::to_string(interval) + " launch(es)";
          EXPECT_NE(report.plan.find(form), std::string::npos) << report.plan;
          EXPECT_NE(report.plan.find("group(s) of " + std::to_string(interval)), std::string::npos) << report.plan;
        }
      }
    }
  }
  run_on_kernel<Kokkos::LayoutRight>(std::string(name) + "+source per step", source, Kinds<true>{}, update,
                                     random_fields(1, 0.125L), right_extents, step_counts.back(), mixed,
                                     Strategy::sm_tiling, depth, SourceForm::per_step);
}

TEST(cuda, field_kernels_source_response_3d) {
  // 27 = 6 x 4 + 3 and 31 = 7 x 4 + 3: launches of depth 4 (intervals 2 and 3 leave some over) and a tail.
  check_source_response<3>(EbisuKokkos::presets::j3d7pt(), "j3d7pt", 4, {27, 31}, {70, 90, 41}, {45, 37, 61});
}

TEST(cuda, field_kernels_source_response_2d) {
  // 45 = 5 x 8 + 5 and 61 = 7 x 8 + 5: launches of depth 8 (intervals 2 and 3 leave some over) and a tail.
  check_source_response<2>(EbisuKokkos::presets::j2d5pt(), "j2d5pt", 8, {45, 61}, {301, 517, 1}, {230, 301, 1});
}

// A time loop of calls with one policy: the policy keeps the source's response
// (impl/kept_response.hpp), and each call must still give the reference's
// answer when the source, the stencil's coefficients or the step count change
// between calls (the kept response must not be used then), and when nothing
// changes (it must). SourceForm::response builds at the first call; automatic
// builds at the second where the plan predicts a kept response pays.
template <int Rank, class Preset>
void check_kept_response(const Preset& preset, const char* name, int depth, int steps, const Extents& n,
                         EbisuKokkos::SourceForm form, int interval = 2) {
  using V = TestView<double, Rank, Kokkos::LayoutRight, Kokkos::Cuda>;
  using Linear = std::decay_t<decltype(preset)>;
  SCOPED_TRACE(std::string(name) + " kept response, " + EbisuKokkos::to_string(form) + " " + describe({n, steps}, Rank));
  Kokkos::Array<double, Linear::num_points> weaker;
  for (int k = 0; k < Linear::num_points; ++k) weaker[k] = 0.9 * preset.coefficient(k);
  const Linear other(weaker);
  const Edge P = Edge::periodic, F = Edge::fixed;
  const Edges edges = Rank == 2 ? Edges{{{P, P}, {F, F}, {F, F}}} : Edges{{{P, P}, {F, F}, {P, P}}};
  EbisuKokkos::StencilPolicy<Kokkos::Cuda> policy(steps);
  policy.set_backend(EbisuKokkos::Backend::ebisu).set_strategy(Strategy::sm_tiling).set_temporal_depth(depth);
  policy.set_source_form(form);
  if (form == EbisuKokkos::SourceForm::response) policy.set_response_interval(interval);
  for (int a = 0; a < Rank; ++a) policy.set_boundary(a, to_boundary(edges[a][0]));
  Field expected = random_field(n, 7u);
  std::vector<Field> source = random_fields(1, 0.125L)(n);
  V u = make_view<V>("u", n), x = make_view<V>("x", n), f = make_view<V>("f", n);
  upload(u, expected);
  upload(f, source[0]);
  // What each call changes before it runs, and what its plan must then say about the response.
  struct Call {
    const char* change;
    const char* response_note;  // SourceForm::response
  };
  // (A whole-call response is of the call's steps: another step count builds another.)
  const bool whole = interval == EbisuKokkos::response_over_whole_call;
  const Call calls[] = {{"", "g built (and kept)"},
                        {"", "g kept from an earlier call"},
                        {"", "g kept from an earlier call"},
                        {"source", "g built (and kept)"},
                        {"", "g kept from an earlier call"},
                        {"coefficients", "g built (and kept)"},
                        {"steps", whole ? "g built and kept for the next calls" : "g kept from an earlier call"},
                        {"", "g kept from an earlier call"}};
  bool other_stencil = false;
  int call_steps = steps, index = 0;
  std::vector<std::string> plans;
  for (const Call& call : calls) {
    SCOPED_TRACE("call " + std::to_string(index++) + (*call.change ? std::string(" after a change of ") + call.change : ""));
    if (std::string(call.change) == "source") {
      source[0].v[source[0].v.size() / 2] += 0.25L;
      upload(f, source[0]);
    }
    if (std::string(call.change) == "coefficients") other_stencil = true;
    if (std::string(call.change) == "steps") call_steps = steps + depth;  // one more launch, the same g
    const auto update = linear_plus_source_update(ebisu_test::update_of(name, other_stencil ? other : preset));
    expected = reference_run_with_fields(expected, source, Rank, 1, update, call_steps, edges);
    const EbisuKokkos::StencilReport report =
        other_stencil ? EbisuKokkos::parallel_stencil(name, policy.with_steps(call_steps), EbisuKokkos::with_source(other),
                                                      u, x, EbisuKokkos::fields(EbisuKokkos::centre_only(f)))
                      : EbisuKokkos::parallel_stencil(name, policy.with_steps(call_steps), EbisuKokkos::with_source(preset),
                                                      u, x, EbisuKokkos::fields(EbisuKokkos::centre_only(f)));
    EXPECT_LE(relative_error(download(u), expected), tolerance<double>()) << report.plan;
    if (form == EbisuKokkos::SourceForm::response) {
      EXPECT_NE(report.plan.find(call.response_note), std::string::npos) << report.plan;
      if (whole) EXPECT_NE(report.plan.find("source response form: g_" + std::to_string(call_steps)), std::string::npos) << report.plan;
    }
    plans.push_back(report.plan);
  }
  if (form == EbisuKokkos::SourceForm::automatic) {
    // The first call of a loop never builds a response it was not predicted to repay alone; a call after
    // one that built it with unchanged inputs uses it.
    for (std::size_t c = 0; c + 1 < plans.size(); ++c) {
      if (plans[c].find("g built and kept for the next calls") != std::string::npos && !*calls[c + 1].change) {
        EXPECT_NE(plans[c + 1].find("g kept from an earlier call"), std::string::npos) << plans[c + 1];
      }
    }
  }
  EXPECT_EQ(relative_error(download(f), source[0]), 0.0);
  policy.release_kept_memory();
  EXPECT_EQ(EbisuKokkos::Impl::PolicyAccess::kept_response(policy).kept_interval(depth), 0);
}

TEST(cuda, field_kernels_source_response_kept) {
  namespace presets = EbisuKokkos::presets;
  using EbisuKokkos::SourceForm;
  check_kept_response<2>(presets::j2d5pt(), "j2d5pt", 8, 45, {301, 517, 1}, SourceForm::response);
  check_kept_response<3>(presets::j3d7pt(), "j3d7pt", 4, 27, {70, 90, 41}, SourceForm::response);
  check_kept_response<2>(presets::j2d5pt(), "j2d5pt", 8, 45, {301, 517, 1}, SourceForm::response,
                         EbisuKokkos::response_over_whole_call);
  check_kept_response<3>(presets::j3d7pt(), "j3d7pt", 4, 27, {70, 90, 41}, SourceForm::response,
                         EbisuKokkos::response_over_whole_call);
  check_kept_response<2>(presets::j2d5pt(), "j2d5pt", 8, 96, {301, 517, 1}, SourceForm::automatic);
  check_kept_response<3>(presets::j3d7pt(), "j3d7pt", 4, 48, {70, 90, 41}, SourceForm::automatic);
}

// In-place tiling keeps a footprint field's whole tile (halo through the
// rules) and a centre-only field's owned cells beside the state's tile: every
// rule set, one block and many, the kernels of 4 and 16 cells per thread
// (and in fp32 of 32 cells and pairs of 16), radius 2, a source, seven
// coefficient fields, T = 0, 1 and odd; a set of fields whose tiles cannot
// fit falls back, saying why.
TEST(cuda, field_kernels_in_place_tiling) {
  namespace presets = EbisuKokkos::presets;
  const Strategy ipt = Strategy::in_place_tiling;
  const double dt = 0.08;
  const auto heat = EbisuKokkos::make_stencil<3, 1>(VariableHeat<3>{dt}).declare_mirror_symmetric();
  auto expect_in_place = [](const EbisuKokkos::StencilReport& r, const char* shape) {
    EXPECT_EQ(r.strategy, Strategy::in_place_tiling) << r.plan;
    if (shape != nullptr) EXPECT_NE(r.plan.find(shape), std::string::npos) << r.plan;
  };
  for (const Extents& n : sizes(3))
    for (const Edges& edges : all_edge_sets()) {
      expect_in_place(run_on_kernel<Kokkos::LayoutRight>("variable-heat", heat, Kinds<false>{},
                                                         variable_heat_update(3, dt), random_fields(1, 1.0L), n, 13,
                                                         edges, ipt, 0),
                      nullptr);
      expect_in_place(run_on_kernel<Kokkos::LayoutLeft>("variable-heat", heat, Kinds<false>{},
                                                        variable_heat_update(3, dt), random_fields(1, 1.0L), n, 1,
                                                        edges, ipt, 0),
                      nullptr);
    }
  // 160 x 64 x 96: 480 blocks of 4 x 16 x 32 cells cannot all be resident; 120 of 16 x 16 x 32 can.
  for (const Edges& edges : {edges_all(Edge::fixed), all_edge_sets().back()}) {
    expect_in_place(run_on_kernel<Kokkos::LayoutRight>("variable-heat", heat, Kinds<false>{},
                                                       variable_heat_update(3, dt), random_fields(1, 1.0L),
                                                       {160, 64, 96}, 6, edges, ipt, 0),
                    "of 1 x 16 cells");
  }
  run_on_kernel<Kokkos::LayoutRight>("variable-heat", heat, Kinds<false>{}, variable_heat_update(3, dt),
                                     random_fields(1, 1.0L), {20, 17, 31}, 0, edges_all(Edge::fixed), ipt, 0);
  const auto average = EbisuKokkos::make_stencil<3, 2>(FieldWeightedAverage<3, 2>{});
  const auto reaction = EbisuKokkos::make_stencil<3, 1>(ReactionWithSource<3, 1>{});
  const auto source = EbisuKokkos::with_source(presets::j3d7pt());
  const auto coefficients = EbisuKokkos::linear_stencil_with_coefficient_fields<3, 1, EbisuKokkos::StarShape>();
  for (Edge e : {Edge::fixed, Edge::periodic}) {
    expect_in_place(run_on_kernel<Kokkos::LayoutRight>("average-r2", average, Kinds<false>{},
                                                       weighted_average_update(3, 2), random_fields(1, 1.0L),
                                                       {45, 37, 29}, 5, edges_all(e), ipt, 0),
                    nullptr);
    expect_in_place(run_on_kernel<Kokkos::LayoutLeft>("reaction", reaction, Kinds<true>{}, reaction_update(3, 1),
                                                      random_fields(1, 0.5L), {45, 37, 29}, 11, edges_all(e), ipt, 0),
                    nullptr);
    const auto linear_source = linear_plus_source_update(ebisu_test::update_of("j3d7pt", presets::j3d7pt()));
    expect_in_place(run_on_kernel<Kokkos::LayoutLeft>("j3d7pt+source", source, Kinds<true>{}, linear_source,
                                                      random_fields(1, 0.125L), {70, 40, 31}, 9, edges_all(e), ipt, 0),
                    nullptr);
    expect_in_place(run_on_kernel<Kokkos::LayoutRight>("j3d7pt+source", source, Kinds<true>{}, linear_source,
                                                       random_fields(1, 0.125L), {150, 64, 96}, 4, edges_all(e), ipt, 0),
                    "of 1 x 16 cells");
    expect_in_place(run_on_kernel<Kokkos::LayoutRight>("coef-j3d7pt", coefficients,
                                                       Kinds<true, true, true, true, true, true, true>{},
                                                       coefficient_fields_update(preset_offsets("j3d7pt")),
                                                       random_fields(7, 0.125L), {33, 40, 21}, 7, edges_all(e), ipt, 0),
                    "of 1 x 4 cells");
  }
  // fp32 at 128 x 112 x 128: a field's tile fits beside the 32-cell and paired tiles (2 x 83 KB); the model
  // prefers pairs for the star-declared heat (128 blocks of 16 x 32 x 32 cells), and for the box-read one
  // puts 32-cell columns and two blocks of 16-cell columns per SM within 1% of each other.
  const auto star_heat = EbisuKokkos::make_stencil<3, 1, EbisuKokkos::StarShape>(VariableHeat<3>{dt});
  expect_in_place(run_on_kernel<Kokkos::LayoutRight, float>("variable-heat-star", star_heat, Kinds<false>{},
                                                            variable_heat_update(3, dt), random_fields(1, 1.0L),
                                                            {128, 112, 128}, 5, edges_all(Edge::periodic), ipt, 0),
                  "of 2 x 16 cells");
  expect_in_place(run_on_kernel<Kokkos::LayoutLeft, float>("variable-heat", heat, Kinds<false>{},
                                                           variable_heat_update(3, dt), random_fields(1, 1.0L),
                                                           {128, 112, 128}, 4, all_edge_sets().back(), ipt, 0),
                  nullptr);
  // Seven coefficient tiles at 160 x 64 x 96: the 4-cell blocks are too many, the 16-cell ones too big.
  const auto r = run_on_kernel<Kokkos::LayoutRight>("coef-j3d7pt", coefficients,
                                                    Kinds<true, true, true, true, true, true, true>{},
                                                    coefficient_fields_update(preset_offsets("j3d7pt")),
                                                    random_fields(7, 0.125L), {160, 64, 96}, 3,
                                                    edges_all(Edge::fixed), ipt, 0);
  EXPECT_NE(r.strategy, Strategy::in_place_tiling) << r.plan;
  EXPECT_NE(r.plan.find("in-place tiling not possible"), std::string::npos) << r.plan;
}

// Automatic picks among the strategies and says what it predicted.
TEST(cuda, field_kernels_automatic) {
  const auto stencil = EbisuKokkos::make_stencil<2, 1>(VariableHeat<2>{0.1});
  const auto stencil3 = EbisuKokkos::make_stencil<3, 1>(VariableHeat<3>{0.08});
  const auto a3 = run_on_kernel<Kokkos::LayoutRight>("variable-heat", stencil3, Kinds<false>{},
                                                     variable_heat_update(3, 0.08L), random_fields(1, 1.0L),
                                                     {150, 130, 90}, 24, edges_all(Edge::periodic),
                                                     Strategy::automatic, 0);
  EXPECT_NE(a3.plan.find("automatic: predicted"), std::string::npos) << a3.plan;
  for (int steps : {1, 40}) {
    const auto a = run_on_kernel<Kokkos::LayoutLeft>("variable-heat", stencil, Kinds<false>{},
                                                     variable_heat_update(2, 0.1L), random_fields(1, 1.0L),
                                                     {256, 200, 1}, steps, edges_all(Edge::fixed),
                                                     Strategy::automatic, 0);
    EXPECT_NE(a.plan.find("automatic: predicted"), std::string::npos) << a.plan;
  }
}

}  // namespace field_tests
}  // namespace ebisu_test
