// Read-only fields (issue 12, item 2) against the independent long-double
// reference (reference_run_with_fields): variable-coefficient heat with the
// conductivity read over the footprint (ranks 1-3), a field read at radius-2
// offsets, a source read at the centre only, the per-cell-coefficient linear
// stencil and linear + source helpers; both layouts, both call forms (the
// DoubleBuffer one with const fields), float and double, T = 0, 1 and odd,
// tiny extents (2 x radius + 1), periodic and mirror sides, Backend::automatic
// and generic, a KOKKOS_LAMBDA taking both kinds of field, and the bad input.
// Where Backend::ebisu is the host blocked path (Serial, OpenMP) every field
// stencil also runs it forced: domains smaller than a tile, T not a multiple
// of the depth, several tiles across and several runs along the streamed axis.
#include "support/field_cases.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ebisu_test {
namespace field_tests {

// Plan knobs of a forced run (0: the plan's choice).
struct FieldKnobs {
  int depth = 0, tile_width = 0, tile_height = 0;
};

// One run against the reference: the plain form with the Views as they are,
// or the DoubleBuffer form with const-data field Views.
template <class Space, class Scalar, class Layout, class Stencil, bool... Centre>
EbisuKokkos::StencilReport run_fields_case(const std::string& name, const Stencil& stencil, Kinds<Centre...>,
                                           const FieldsUpdate& update, const FieldMaker& make_fields, const Extents& n,
                                           int steps, const Edges& edges, Backend backend, bool double_buffer,
                                           const FieldKnobs& knobs = {}) {
  if constexpr (left_out_of_compile_check<Space, Scalar>) {
    return {};
  } else {
    constexpr int rank = Stencil::rank;
    constexpr std::size_t count = sizeof...(Centre);
    using V = TestView<Scalar, rank, Layout, Space>;
    SCOPED_TRACE(name + " " + describe({n, steps}, rank) + " sides " + describe_edges(edges) + " backend " +
                 EbisuKokkos::to_string(backend) + (std::is_same_v<Scalar, float> ? " float" : " double") +
                 (std::is_same_v<Layout, Kokkos::LayoutLeft> ? " LayoutLeft" : " LayoutRight") +
                 (double_buffer ? " DoubleBuffer, const fields" : "") + " knobs depth " + std::to_string(knobs.depth) +
                 " tile " + std::to_string(knobs.tile_height) + "x" + std::to_string(knobs.tile_width));
    const Field init = random_field(n, 71u + steps);
    const std::vector<Field> field_init = make_fields(n);
    if (field_init.size() != count) {
      ADD_FAILURE() << "the field maker made " << field_init.size() << " fields, the stencil takes " << count;
      return {};
    }
    const Field ref = reference_run_with_fields(init, field_init, rank, Stencil::radius, update, steps, edges);
    V u = make_view<V>("u", n), x = make_view<V>("x", n);
    upload(u, init);
    poison(x);
    std::vector<V> f;  // (never default-constructed Views: see impl/compat.hpp)
    for (std::size_t k = 0; k < count; ++k) {
      f.push_back(make_view<V>("field" + std::to_string(k), n));
      upload(f[k], field_init[k]);
    }
    EbisuKokkos::StencilPolicy<Space> policy(steps);
    policy.set_backend(backend).set_print_plan(std::getenv("EBISU_TEST_PRINT_PLAN") != nullptr);
    policy.set_temporal_depth(knobs.depth).set_tile_width(knobs.tile_width).set_tile_height(knobs.tile_height);
    for (int a = 0; a < rank; ++a) {
      policy.set_boundary(a, EbisuKokkos::Side::low, to_boundary(edges[a][0]))
          .set_boundary(a, EbisuKokkos::Side::high, to_boundary(edges[a][1]));
    }
    EbisuKokkos::StencilReport report;
    Field got;
    if (double_buffer) {
      const std::vector<typename V::const_type> cf(f.begin(), f.end());
      EbisuKokkos::DoubleBuffer<V> buffers(u, x);
      report = EbisuKokkos::parallel_stencil(name, policy, stencil, buffers,
                                             fields_argument<Centre...>(cf, std::make_index_sequence<count>{}));
      got = download(buffers.current());
    } else {
      report = EbisuKokkos::parallel_stencil(name, policy, stencil, u, x,
                                             fields_argument<Centre...>(f, std::make_index_sequence<count>{}));
      got = download(u);
    }
    if (steps == 0) {
      EXPECT_EQ(relative_error(got, init), 0.0) << report.plan;
    } else {
      EXPECT_LE(relative_error(got, ref), tolerance<Scalar>()) << report.plan;
    }
    for (std::size_t k = 0; k < count; ++k) EXPECT_EQ(relative_error(download(f[k]), field_init[k]), 0.0) << "field " << k;
    using Ebisu = EbisuKokkos::Impl::EbisuBackend<Space, Stencil, V>;
    if constexpr (!(Ebisu::available && EbisuKokkos::Impl::backend_takes_fields<Ebisu>::value)) {
      EXPECT_EQ(report.backend, Backend::generic) << report.plan;
      if (backend == Backend::automatic) {
        EXPECT_NE(report.plan.find("(read-only fields: the EBISU kernels here do not read them yet)"), std::string::npos)
            << report.plan;
      }
    } else if (backend == Backend::generic) {
      EXPECT_EQ(report.backend, Backend::generic) << report.plan;
    } else if (backend == Backend::ebisu) {
      EXPECT_EQ(report.backend, Backend::ebisu) << report.plan;
    }
    return report;
  }
}

// True where Backend::ebisu is the host blocked path and takes read-only
// fields for this stencil and View type (the CUDA kernels' forced field runs:
// unit_tests/cuda/test_field_kernels.cpp).
template <class Space, class Stencil, class Scalar, class Layout>
constexpr bool host_blocking_takes_fields() {
  using V = TestView<Scalar, Stencil::rank, Layout, Space>;
  using B = EbisuKokkos::Impl::EbisuBackend<Space, Stencil, V>;
  return EbisuKokkos::Impl::runs_on_host<Space> && B::available && EbisuKokkos::Impl::backend_takes_fields<B>::value;
}

// Work items of a blocked plan along (slow, middle, fast), read from report.plan.
inline std::array<int, 3> planned_items(const std::string& plan) {
  std::array<int, 3> items{0, 0, 0};
  const std::size_t at = plan.find("work items (");
  if (at != std::string::npos) {
    std::sscanf(plan.c_str() + at, "work items (%d x %d x %d)", &items[0], &items[1], &items[2]);
  }
  return items;
}

// One forced run of the host blocked path: the backend, the field rings and,
// with a depth knob, the launches (T need not be a multiple of the depth).
template <class Space, class Scalar, class Layout, class Stencil, class K>
EbisuKokkos::StencilReport blocked_fields_case(const std::string& name, const Stencil& stencil, K kinds,
                                               const FieldsUpdate& update, const FieldMaker& make_fields,
                                               const Extents& n, int steps, const Edges& edges, bool double_buffer,
                                               const FieldKnobs& knobs = {}) {
  const EbisuKokkos::StencilReport report = run_fields_case<Space, Scalar, Layout>(
      name, stencil, kinds, update, make_fields, n, steps, edges, Backend::ebisu, double_buffer, knobs);
  const std::size_t count = make_fields(n).size();
  EXPECT_NE(report.plan.find("(" + std::to_string(count) + " read-only field rings)"), std::string::npos)
      << report.plan;
  if (steps > 0 && knobs.depth > 0) {
    EXPECT_EQ(report.temporal_depth, std::min(knobs.depth, steps)) << report.plan;
    EXPECT_EQ(report.launches, (steps + report.temporal_depth - 1) / report.temporal_depth) << report.plan;
  }
  return report;
}

// The forced blocked path with fields for every boundary set: 2r+1 and odd
// extents (one tile, smaller than the plan's), T = 0, 1, 7 and T not a
// multiple of the depth knob, both layouts and call forms, float, and a
// domain cut into several tiles across and several runs along the streamed axis.
template <class Space, bool WithFloat, class Stencil, class K>
void check_fields_blocked(const std::string& name, const Stencil& stencil, K kinds, const FieldsUpdate& update,
                          const FieldMaker& make_fields, const std::vector<Edges>& edge_sets) {
  using Right = Kokkos::LayoutRight;
  using Left = Kokkos::LayoutLeft;
  if constexpr (host_blocking_takes_fields<Space, Stencil, double, Right>()) {
    constexpr int rank = Stencil::rank, r = Stencil::radius;
    const Extents tiny{2 * r + 1, rank >= 2 ? 2 * r + 1 : 1, rank >= 3 ? 2 * r + 1 : 1};
    const Extents odd{rank == 1 ? 37 : 13, rank >= 2 ? 10 : 1, rank >= 3 ? 7 : 1};
    // Long along the streamed axis (View index 0 for LayoutRight, the last for LayoutLeft).
    const Extents long_right{rank == 1 ? 61 : rank == 2 ? 150 : 100, rank == 2 ? 23 : rank == 3 ? 7 : 1,
                             rank == 3 ? 9 : 1};
    const Extents long_left{rank == 1 ? 61 : rank == 2 ? 23 : 9, rank == 2 ? 150 : rank == 3 ? 7 : 1,
                            rank == 3 ? 100 : 1};
    // Narrow tiles across (several), or in 3-D one tile across and runs only.
    const FieldKnobs several = rank == 3 ? FieldKnobs{3, 64, 64} : FieldKnobs{3, 8, 0};
    const FieldKnobs narrow3d{2, 4, 3};
    for (const Edges& edges : edge_sets) {
      for (int steps : {0, 1, 7}) {
        blocked_fields_case<Space, double, Right>(name, stencil, kinds, update, make_fields, tiny, steps, edges, false);
      }
      blocked_fields_case<Space, double, Left>(name, stencil, kinds, update, make_fields, tiny, 9, edges, true, {4});
      blocked_fields_case<Space, double, Right>(name, stencil, kinds, update, make_fields, odd, 7, edges, false, {3});
      blocked_fields_case<Space, double, Left>(name, stencil, kinds, update, make_fields, odd, 5, edges, true, {2});
      for (const bool right : {true, false}) {
        const EbisuKokkos::StencilReport report =
            right ? blocked_fields_case<Space, double, Right>(name, stencil, kinds, update, make_fields, long_right, 11,
                                                              edges, false, several)
                  : blocked_fields_case<Space, double, Left>(name, stencil, kinds, update, make_fields, long_left, 10,
                                                             edges, true, several);
        const std::array<int, 3> items = planned_items(report.plan);
        EXPECT_GE(items[0], 2) << "several runs along the streamed axis: " << report.plan;
        if (rank == 2) EXPECT_GE(items[2], 2) << "several tiles across: " << report.plan;
      }
      if constexpr (rank == 3) {
        const EbisuKokkos::StencilReport report = blocked_fields_case<Space, double, Right>(
            name, stencil, kinds, update, make_fields, {14, 11, 13}, 7, edges, false, narrow3d);
        const std::array<int, 3> items = planned_items(report.plan);
        EXPECT_GE(items[1] * items[2], 4) << "several tiles across: " << report.plan;
      }
      if constexpr (WithFloat) {
        blocked_fields_case<Space, float, Left>(name, stencil, kinds, update, make_fields, odd, 7, edges, false, {3});
        blocked_fields_case<Space, float, Right>(name, stencil, kinds, update, make_fields, long_right, 9, edges, true,
                                                 several);
      }
    }
  }
}

// Every boundary set, extents 2r+1 and odd, T = 0, 1, 7 (LayoutRight double,
// plain form, automatic), LayoutLeft double (DoubleBuffer, generic) and
// LayoutLeft float (DoubleBuffer, automatic).
template <class Space, bool WithFloat = true, class Stencil, class K>
void check_fields_stencil(const std::string& name, const Stencil& stencil, K kinds, const FieldsUpdate& update,
                          const FieldMaker& make_fields, const std::vector<Edges>& edge_sets) {
  constexpr int rank = Stencil::rank, r = Stencil::radius;
  const Extents tiny{2 * r + 1, rank >= 2 ? 2 * r + 1 : 1, rank >= 3 ? 2 * r + 1 : 1};
  const Extents odd{rank == 1 ? 37 : 13, rank >= 2 ? 10 : 1, rank >= 3 ? 7 : 1};
  for (const Edges& edges : edge_sets) {
    for (const auto& n : {tiny, odd}) {
      for (int steps : {0, 1, 7}) {
        run_fields_case<Space, double, Kokkos::LayoutRight>(name, stencil, kinds, update, make_fields, n, steps, edges,
                                                            Backend::automatic, false);
      }
      run_fields_case<Space, double, Kokkos::LayoutLeft>(name, stencil, kinds, update, make_fields, n, 6, edges,
                                                         Backend::generic, true);
      if constexpr (WithFloat) {
        run_fields_case<Space, float, Kokkos::LayoutLeft>(name, stencil, kinds, update, make_fields, n, 5, edges,
                                                          Backend::automatic, true);
      }
    }
  }
  check_fields_blocked<Space, WithFloat>(name, stencil, kinds, update, make_fields, edge_sets);
}

inline std::vector<Edges> fixed_only() { return {edges_all(Edge::fixed)}; }
inline std::vector<Edges> with_boundary_rules() {
  const Edge P = Edge::periodic, M = Edge::mirror, F = Edge::fixed;
  return {edges_all(F), edges_all(P), edges_all(M), {{{P, P}, {M, F}, {F, M}}}, {{{M, F}, {P, P}, {P, P}}}};
}

// u' = a u + b, a and b centre-only.
struct ScaleAndShift {
  KOKKOS_INLINE_FUNCTION double operator()(const Neighbors<double, 2, 1>& u, double a, double b) const {
    return a * u(0, 0) + b;
  }
};

using Full1 = Kinds<false>;
using Centre1 = Kinds<true>;

}  // namespace field_tests
}  // namespace ebisu_test

using namespace ebisu_test::field_tests;
using ebisu_test::Edge;
using ebisu_test::Edges;
using ebisu_test::edges_all;
using ebisu_test::preset_offsets;

TEST(TEST_CATEGORY, fields_variable_heat) {
  constexpr double dt = 0.0625;
  check_fields_stencil<TEST_EXECSPACE>("heat1d", EbisuKokkos::make_stencil<1, 1>(VariableHeat<1>{dt}), Full1{},
                                       variable_heat_update(1, dt), random_fields(1, 1), with_boundary_rules());
  check_fields_stencil<TEST_EXECSPACE>("heat2d", EbisuKokkos::make_stencil<2, 1>(VariableHeat<2>{dt}), Full1{},
                                       variable_heat_update(2, dt), random_fields(1, 1), with_boundary_rules());
  check_fields_stencil<TEST_EXECSPACE>("heat3d", EbisuKokkos::make_stencil<3, 1>(VariableHeat<3>{dt}), Full1{},
                                       variable_heat_update(3, dt), random_fields(1, 1), with_boundary_rules());
}

TEST(TEST_CATEGORY, fields_read_at_radius_2) {
  check_fields_stencil<TEST_EXECSPACE>("average1d_r2", EbisuKokkos::make_stencil<1, 2>(FieldWeightedAverage<1, 2>{}),
                                       Full1{}, weighted_average_update(1, 2), random_fields(1, 1), with_boundary_rules());
  check_fields_stencil<TEST_EXECSPACE>("average2d_r2", EbisuKokkos::make_stencil<2, 2>(FieldWeightedAverage<2, 2>{}),
                                       Full1{}, weighted_average_update(2, 2), random_fields(1, 1), with_boundary_rules());
  check_fields_stencil<TEST_EXECSPACE>("average3d_r1", EbisuKokkos::make_stencil<3, 1>(FieldWeightedAverage<3, 1>{}),
                                       Full1{}, weighted_average_update(3, 1), random_fields(1, 1), fixed_only());
  // The host blocked path also with periodic and mirror sides in 3-D: this field read off-centre
  // at a mirror side shows a field window or ghost that is not reflected (variable heat cannot:
  // its flux through a mirror face is zero whatever the field there).
  check_fields_blocked<TEST_EXECSPACE, false>("average3d_r1", EbisuKokkos::make_stencil<3, 1>(FieldWeightedAverage<3, 1>{}),
                                              Full1{}, weighted_average_update(3, 1), random_fields(1, 1),
                                              with_boundary_rules());
}

TEST(TEST_CATEGORY, fields_source_term) {
  check_fields_stencil<TEST_EXECSPACE>("reaction1d", EbisuKokkos::make_stencil<1, 1>(ReactionWithSource<1, 1>{}),
                                       Centre1{}, reaction_update(1, 1), random_fields(1, 1), fixed_only());
  check_fields_stencil<TEST_EXECSPACE>("reaction2d_r2", EbisuKokkos::make_stencil<2, 2>(ReactionWithSource<2, 2>{}),
                                       Centre1{}, reaction_update(2, 2), random_fields(1, 1), with_boundary_rules());
  check_fields_stencil<TEST_EXECSPACE>("reaction3d", EbisuKokkos::make_stencil<3, 1>(ReactionWithSource<3, 1>{}),
                                       Centre1{}, reaction_update(3, 1), random_fields(1, 1), with_boundary_rules());
}

TEST(TEST_CATEGORY, fields_linear_coefficient_fields) {
  using EbisuKokkos::BoxShape;
  using EbisuKokkos::StarShape;
  using EbisuKokkos::linear_stencil_with_coefficient_fields;
  check_fields_stencil<TEST_EXECSPACE>("coef_j1d5pt", linear_stencil_with_coefficient_fields<1, 2, StarShape>(),
                                       AllCentre<5>{}, coefficient_fields_update(preset_offsets("j1d5pt")),
                                       random_fields(5, 0.125L), with_boundary_rules());
  check_fields_stencil<TEST_EXECSPACE>("coef_j2d5pt", linear_stencil_with_coefficient_fields<2, 1, StarShape>(),
                                       AllCentre<5>{}, coefficient_fields_update(preset_offsets("j2d5pt")),
                                       random_fields(5, 0.125L), with_boundary_rules());
  check_fields_stencil<TEST_EXECSPACE>("coef_j2d9pt_box", linear_stencil_with_coefficient_fields<2, 1, BoxShape>(),
                                       AllCentre<9>{}, coefficient_fields_update(preset_offsets("j2d9pt-gol")),
                                       random_fields(9, 0.0625L), fixed_only());
  check_fields_stencil<TEST_EXECSPACE>("coef_j3d7pt", linear_stencil_with_coefficient_fields<3, 1, StarShape>(),
                                       AllCentre<7>{}, coefficient_fields_update(preset_offsets("j3d7pt")),
                                       random_fields(7, 0.125L), with_boundary_rules());
}

TEST(TEST_CATEGORY, fields_linear_with_source) {
  namespace presets = EbisuKokkos::presets;
  const auto check = [](const std::string& name, const auto& linear, const std::vector<Edges>& edges) {
    check_fields_stencil<TEST_EXECSPACE>(name + "+source", EbisuKokkos::with_source(linear), Centre1{},
                                         linear_plus_source_update(ebisu_test::update_of(name, linear)),
                                         random_fields(1, 0.125L), edges);
  };
  check("j1d5pt", presets::j1d5pt(), with_boundary_rules());
  check("j2d5pt", presets::j2d5pt(), with_boundary_rules());
  check("j2d9pt", presets::j2d9pt(), fixed_only());
  check("j3d7pt", presets::j3d7pt(), fixed_only());
  check("j3d13pt", presets::j3d13pt(), with_boundary_rules());
}

// The documented form: a KOKKOS_LAMBDA taking a full-footprint field and a
// centre-only one (double only: the lambda is written for double).
template <class Space>
void run_lambda_with_both_kinds() {
  const double dt = 0.0625;
  const auto heat = EbisuKokkos::make_stencil<2, 1>(
      KOKKOS_LAMBDA(const Neighbors<double, 2, 1>& u, const Neighbors<double, 2, 1>& k, double f) {
        const double kx_lo = 0.5 * (k(-1, 0) + k(0, 0)), kx_hi = 0.5 * (k(1, 0) + k(0, 0));
        const double ky_lo = 0.5 * (k(0, -1) + k(0, 0)), ky_hi = 0.5 * (k(0, 1) + k(0, 0));
        return u(0, 0) + dt * (kx_hi * (u(1, 0) - u(0, 0)) - kx_lo * (u(0, 0) - u(-1, 0)) +
                               ky_hi * (u(0, 1) - u(0, 0)) - ky_lo * (u(0, 0) - u(0, -1)) + f);
      });
  const ebisu_test::FieldsUpdate heat_update = variable_heat_update(2, dt);
  const ebisu_test::FieldsUpdate update = [heat_update, dt](const ebisu_test::Reader& u, const std::vector<ebisu_test::Reader>& f) {
    return heat_update(u, {f.at(0)}) + static_cast<long double>(dt) * f.at(1)(0, 0, 0);
  };
  const FieldMaker make = [](const ebisu_test::Extents& n) {
    return std::vector<ebisu_test::Field>{ebisu_test::random_field(n, 9u),
                                          scaled(ebisu_test::random_field(n, 10u), 0.5L)};
  };
  const Edge P = Edge::periodic, M = Edge::mirror, F = Edge::fixed;
  for (const Edges& edges : {edges_all(F), edges_all(P), Edges{{{M, F}, {P, P}, {F, F}}}}) {
    for (int steps : {1, 9}) {
      for (bool double_buffer : {false, true}) {
        for (Backend backend : {Backend::automatic, Backend::generic}) {
          run_fields_case<Space, double, Kokkos::LayoutRight>("lambda", heat, Kinds<false, true>{}, update, make,
                                                              {12, 9, 1}, steps, edges, backend, double_buffer);
        }
      }
    }
    run_fields_case<Space, double, Kokkos::LayoutLeft>("lambda", heat, Kinds<false, true>{}, update, make, {5, 11, 1},
                                                       4, edges, Backend::automatic, false);
  }
}
TEST(TEST_CATEGORY, fields_lambda_with_both_kinds) { run_lambda_with_both_kinds<TEST_EXECSPACE>(); }

// Long runs (replayed as CUDA graphs on Cuda) and, on GPUs, a domain large
// enough for the generic path's several-cells-per-work-item step.
TEST(TEST_CATEGORY, fields_long_and_large_runs) {
  constexpr double dt = 0.0625;
  const auto heat = EbisuKokkos::make_stencil<2, 1>(VariableHeat<2>{dt});
  const Edges periodic = edges_all(Edge::periodic), fixed = edges_all(Edge::fixed);
  for (const Edges& edges : {fixed, periodic}) {
    run_fields_case<TEST_EXECSPACE, double, Kokkos::LayoutRight>("heat_long", heat, Full1{},
                                                                 variable_heat_update(2, dt), random_fields(1, 1),
                                                                 {24, 17, 1}, 131, edges, Backend::automatic, false);
    run_fields_case<TEST_EXECSPACE, float, Kokkos::LayoutLeft>("heat_long", heat, Full1{}, variable_heat_update(2, dt),
                                                               random_fields(1, 1), {17, 24, 1}, 130, edges,
                                                               Backend::generic, true);
  }
  if constexpr (!EbisuKokkos::Impl::runs_on_host<TEST_EXECSPACE>) {
    run_fields_case<TEST_EXECSPACE, double, Kokkos::LayoutRight>("heat_large", heat, Full1{},
                                                                 variable_heat_update(2, dt), random_fields(1, 1),
                                                                 {770, 750, 1}, 3, fixed, Backend::automatic, false);
    run_fields_case<TEST_EXECSPACE, double, Kokkos::LayoutLeft>("heat_large", heat, Full1{},
                                                                variable_heat_update(2, dt), random_fields(1, 1),
                                                                {750, 770, 1}, 2, periodic, Backend::generic, true);
  }
}

// An empty fields() is the call without fields: same path, same bits.
TEST(TEST_CATEGORY, fields_empty_set_is_the_plain_call) {
  using V = ebisu_test::TestView<double, 2, Kokkos::LayoutRight, TEST_EXECSPACE>;
  const ebisu_test::Extents n{19, 23, 1};
  const ebisu_test::Field init = ebisu_test::random_field(n, 8u);
  V u = ebisu_test::make_view<V>("u", n), x = ebisu_test::make_view<V>("x", n);
  ebisu_test::upload(u, init);
  const auto stencil = EbisuKokkos::presets::j2d9pt();
  const auto plain = EbisuKokkos::parallel_stencil("plain", EbisuKokkos::StencilPolicy<TEST_EXECSPACE>(7), stencil, u, x);
  const ebisu_test::Field expected = ebisu_test::download(u);
  ebisu_test::upload(u, init);
  const auto empty = EbisuKokkos::parallel_stencil("empty", EbisuKokkos::StencilPolicy<TEST_EXECSPACE>(7), stencil, u,
                                                   x, EbisuKokkos::fields());
  EXPECT_EQ(ebisu_test::relative_error(ebisu_test::download(u), expected), 0.0);
  EXPECT_EQ(empty.backend, plain.backend);
  // Where `automatic` times candidates, the second call takes the first one's
  // choice from the process cache, and its report says so.
  const auto without_cache_note = [](std::string plan) {
    const std::string note = "cached for the process; ";
    const auto at = plan.find(note);
    if (at != std::string::npos) plan.erase(at, note.size());
    return plan;
  };
  EXPECT_EQ(without_cache_note(empty.plan), without_cache_note(plain.plan));
}

TEST(TEST_CATEGORY, fields_bad_input) {
  using V = ebisu_test::TestView<double, 2, Kokkos::LayoutRight, TEST_EXECSPACE>;
  using Space = TEST_EXECSPACE;
  const auto stencil = EbisuKokkos::make_stencil<2, 1>(VariableHeat<2>{0.0625});
  const auto source = EbisuKokkos::with_source(EbisuKokkos::presets::j2d5pt());
  const ebisu_test::Extents n{8, 9, 1};
  const ebisu_test::Field init = ebisu_test::random_field(n, 4u);
  // u and scratch are windows of one allocation, so that a field can overlap either without being either.
  V big = ebisu_test::make_view<V>("big", {24, 9, 1});
  V u = Kokkos::subview(big, Kokkos::make_pair(0, 8), Kokkos::ALL);
  V x = Kokkos::subview(big, Kokkos::make_pair(8, 16), Kokkos::ALL);
  V k = ebisu_test::make_view<V>("k", n);
  ebisu_test::upload(u, init);
  ebisu_test::upload(k, ebisu_test::random_field(n, 5u));
  const auto expect_rejected = [&](const std::function<void()>& call, const std::string& words) {
    try {
      call();
      ADD_FAILURE() << "accepted: " << words;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("parallel_stencil(\"bad\")"), std::string::npos) << e.what();
    }
    Kokkos::fence();
    EXPECT_EQ(ebisu_test::relative_error(ebisu_test::download(u), init), 0.0) << "u changed: " << words;
  };
  const EbisuKokkos::StencilPolicy<Space> policy(3);
  using EbisuKokkos::centre_only;
  using EbisuKokkos::fields;

  V wide = ebisu_test::make_view<V>("wide", {8, 10, 1});
  expect_rejected([&] { EbisuKokkos::parallel_stencil("bad", policy, stencil, u, x, fields(wide)); },
                  "field 0 (\"wide\") has extents (8, 10) but u has extents (8, 9)");
  V transposed = ebisu_test::make_view<V>("transposed", {9, 8, 1});
  expect_rejected([&] { EbisuKokkos::parallel_stencil("bad", policy, source, u, x, fields(centre_only(transposed))); },
                  "has extents (9, 8)");
  const V empty = EbisuKokkos::Impl::unallocated_view<V>();
  expect_rejected([&] { EbisuKokkos::parallel_stencil("bad", policy, source, u, x, fields(centre_only(empty))); },
                  "is not allocated");
  expect_rejected([&] { EbisuKokkos::parallel_stencil("bad", policy, stencil, u, x, fields(u)); }, "aliases u");
  expect_rejected([&] { EbisuKokkos::parallel_stencil("bad", policy, stencil, u, x, fields(x)); }, "aliases scratch");
  // Overlapping windows: [4, 12) straddles u and scratch, [12, 20) overlaps scratch only.
  V straddle = Kokkos::subview(big, Kokkos::make_pair(4, 12), Kokkos::ALL);
  V tail = Kokkos::subview(big, Kokkos::make_pair(12, 20), Kokkos::ALL);
  expect_rejected([&] { EbisuKokkos::parallel_stencil("bad", policy, stencil, u, x, fields(straddle)); },
                  "aliases u");
  expect_rejected([&] { EbisuKokkos::parallel_stencil("bad", policy, stencil, u, x, fields(tail)); },
                  "aliases scratch");
  // The DoubleBuffer form: a field that is the other buffer; the second field
  // of a call named by its position.
  EbisuKokkos::DoubleBuffer<V> buffers(u, x);
  expect_rejected([&] { EbisuKokkos::parallel_stencil("bad", policy, stencil, buffers, fields(x)); },
                  "field 0 (\"big\") aliases scratch");
  EXPECT_EQ(buffers.current().data(), u.data());
  const auto two = EbisuKokkos::make_stencil<2, 1>(ScaleAndShift{});
  expect_rejected([&] { EbisuKokkos::parallel_stencil("bad", policy, two, u, x, fields(centre_only(k), centre_only(wide))); },
                  "field 1 (\"wide\") has extents");
  // Forced EBISU kernels with fields: refused before anything runs where they
  // do not read fields (by the fields check where kernels exist, by their absence elsewhere).
  EbisuKokkos::StencilPolicy<Space> forced(3);
  forced.set_backend(Backend::ebisu);
  using Ebisu = EbisuKokkos::Impl::EbisuBackend<Space, decltype(stencil), V>;
  if constexpr (Ebisu::available && EbisuKokkos::Impl::backend_takes_fields<Ebisu>::value) {
    // The kernels take fields here (the host blocked path: above; CUDA:
    // unit_tests/cuda/test_field_kernels.cpp), and refuse bad ones before anything runs as well.
    expect_rejected([&] { EbisuKokkos::parallel_stencil("bad", forced, stencil, u, x, fields(wide)); },
                    "field 0 (\"wide\") has extents (8, 10) but u has extents (8, 9)");
    expect_rejected([&] { EbisuKokkos::parallel_stencil("bad", forced, stencil, u, x, fields(x)); }, "aliases scratch");
  } else if constexpr (Ebisu::available) {
    expect_rejected([&] { EbisuKokkos::parallel_stencil("bad", forced, stencil, u, x, fields(k)); },
                    "Backend::ebisu was requested with read-only fields");
  } else {
    expect_rejected([&] { EbisuKokkos::parallel_stencil("bad", forced, stencil, u, x, fields(k)); },
                    "Backend::ebisu was requested");
  }
  // Nothing above touched the field either.
  EXPECT_EQ(ebisu_test::relative_error(ebisu_test::download(k), ebisu_test::random_field(n, 5u)), 0.0);
}
