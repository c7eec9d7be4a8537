// Several state fields and time levels (issue 13, item 1; state.hpp) against
// the independent long-double reference (reference_run_state): the leapfrog
// wave (one field, two levels: a ring of three buffers) in 1-D to 3-D,
// Gray-Scott (two coupled fields), and two fields of two levels each at
// radius 2 with a read-only neighbourhood field and a centre-only field,
// every argument read at an asymmetric offset so that a mis-ordered level or
// field shows; every level of the state after the call is checked, for
// T = 0, 1, 2, odd and long runs (replayed step loops on GPUs), tiny and odd
// extents, both layouts, float and double, fixed / periodic / mirror sides.
// A physics check: the leapfrog's discrete energy is conserved over 2000
// steps. And the bad input: aliased or mis-shaped buffers, a field aliasing
// a buffer, Backend::ebisu, negative steps, all rejected with the data untouched.
#include "support/field_cases.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>

#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ebisu_test {
namespace state_tests {

using EbisuKokkos::Backend;
using EbisuKokkos::Neighbors;
using field_tests::AxisOffset;
using field_tests::describe_edges;
using field_tests::to_boundary;

// ---- Stencils under test (float and double).

// u^{n+1} = 2 u^n - u^{n-1} + r2 sum_a (u(x + e_a) + u(x - e_a) - 2 u(x)), r2 = (c dt / h)^2.
template <int Rank>
struct Leapfrog {
  double r2;
  template <class S>
  KOKKOS_INLINE_FUNCTION S operator()(const Neighbors<S, Rank, 1>& u, const Neighbors<S, Rank, 1>& u_prev) const {
    S lap = 0;
    for (int a = 0; a < Rank; ++a) {
      for (int s = -1; s <= 1; s += 2) {
        const AxisOffset o(a, s);
        lap += u(o.d[0], o.d[1], o.d[2]) - u(0, 0, 0);
      }
    }
    return S(2) * u(0, 0, 0) - u_prev(0, 0, 0) + S(r2) * lap;
  }
};
// The same update taking the older level as a Scalar (read at the cell only): the kernels then keep
// no neighbourhood of it.
template <int Rank>
struct LeapfrogAtCell {
  double r2;
  template <class S>
  KOKKOS_INLINE_FUNCTION S operator()(const Neighbors<S, Rank, 1>& u, S u_prev) const {
    return Leapfrog<Rank>{r2}(u, at_cell(u_prev));
  }
  // u_prev as the Neighbors Leapfrog reads (its centre only).
  template <class S>
  KOKKOS_INLINE_FUNCTION static Neighbors<S, Rank, 1> at_cell(S v) {
    Neighbors<S, Rank, 1> nb{};
    nb.m_values[Neighbors<S, Rank, 1>::box::size / 2] = v;
    return nb;
  }
};

// Gray-Scott reaction-diffusion, one explicit Euler step of both fields.
template <int Rank>
struct GrayScott {
  double du, dv, feed, kill, dt;
  template <class S>
  KOKKOS_INLINE_FUNCTION Kokkos::Array<S, 2> operator()(const Neighbors<S, Rank, 1>& u,
                                                        const Neighbors<S, Rank, 1>& v) const {
    S lu = 0, lv = 0;
    for (int a = 0; a < Rank; ++a) {
      for (int s = -1; s <= 1; s += 2) {
        const AxisOffset o(a, s);
        lu += u(o.d[0], o.d[1], o.d[2]) - u(0, 0, 0);
        lv += v(o.d[0], o.d[1], o.d[2]) - v(0, 0, 0);
      }
    }
    const S uvv = u(0, 0, 0) * v(0, 0, 0) * v(0, 0, 0);
    return {u(0, 0, 0) + S(dt) * (S(du) * lu - uvv + S(feed) * (S(1) - u(0, 0, 0))),
            v(0, 0, 0) + S(dt) * (S(dv) * lv + uvv - S(feed + kill) * v(0, 0, 0))};
  }
};

// Two fields of two levels at radius 2 with a neighbourhood field g and a
// centre-only field h; each argument is read somewhere only it is read.
template <int Rank>
struct Mixed {
  template <class S>
  KOKKOS_INLINE_FUNCTION Kokkos::Array<S, 2> operator()(const Neighbors<S, Rank, 2>& u, const Neighbors<S, Rank, 2>& u1,
                                                        const Neighbors<S, Rank, 2>& v, const Neighbors<S, Rank, 2>& v1,
                                                        const Neighbors<S, Rank, 2>& g, S h) const {
    // Older levels also behind the cell along either layout's streamed axis (View index 0 or Rank - 1).
    const AxisOffset a(0, 2), b(Rank - 1, -1), c(Rank - 1, 1), d(0, -1), e(0, -2), f(Rank - 1, -2);
    const S nu = S(0.375) * u(0, 0, 0) + S(0.25) * u1(a.d[0], a.d[1], a.d[2]) +
                 S(0.125) * v(b.d[0], b.d[1], b.d[2]) * g(c.d[0], c.d[1], c.d[2]) + S(0.0625) * h;
    const S nv = S(0.25) * v1(0, 0, 0) + S(0.125) * v1(e.d[0], e.d[1], e.d[2]) + S(0.125) * v1(f.d[0], f.d[1], f.d[2]) +
                 S(0.25) * u(c.d[0], c.d[1], c.d[2]) + S(0.125) * g(0, 0, 0) * v(d.d[0], d.d[1], d.d[2]);
    return {nu, nv};
  }
};

// ---- The same updates in long double for the reference.

inline StateUpdate leapfrog_update(int rank, long double r2) {
  return [rank, r2](const std::vector<Reader>& st, const std::vector<Reader>&) {
    const Reader &u = st.at(0), &u_prev = st.at(1);
    long double lap = 0;
    for (int a = 0; a < rank; ++a)
      for (int s : {-1, 1}) {
        const auto o = field_tests::axis_offset(a, s);
        lap += u(o[0], o[1], o[2]) - u(0, 0, 0);
      }
    return std::vector<long double>{2 * u(0, 0, 0) - u_prev(0, 0, 0) + r2 * lap};
  };
}

inline StateUpdate gray_scott_update(int rank, const GrayScott<3>& p) {
  return [rank, p](const std::vector<Reader>& st, const std::vector<Reader>&) {
    const Reader &u = st.at(0), &v = st.at(1);
    long double lu = 0, lv = 0;
    for (int a = 0; a < rank; ++a)
      for (int s : {-1, 1}) {
        const auto o = field_tests::axis_offset(a, s);
        lu += u(o[0], o[1], o[2]) - u(0, 0, 0);
        lv += v(o[0], o[1], o[2]) - v(0, 0, 0);
      }
    const long double uvv = u(0, 0, 0) * v(0, 0, 0) * v(0, 0, 0);
    return std::vector<long double>{u(0, 0, 0) + p.dt * (p.du * lu - uvv + p.feed * (1 - u(0, 0, 0))),
                                    v(0, 0, 0) + p.dt * (p.dv * lv + uvv - (p.feed + p.kill) * v(0, 0, 0))};
  };
}

inline StateUpdate mixed_update(int rank) {
  return [rank](const std::vector<Reader>& st, const std::vector<Reader>& f) {
    const Reader &u = st.at(0), &u1 = st.at(1), &v = st.at(2), &v1 = st.at(3), &g = f.at(0), &h = f.at(1);
    const auto a = field_tests::axis_offset(0, 2), b = field_tests::axis_offset(rank - 1, -1),
               c = field_tests::axis_offset(rank - 1, 1), d = field_tests::axis_offset(0, -1),
               e = field_tests::axis_offset(0, -2), f2 = field_tests::axis_offset(rank - 1, -2);
    return std::vector<long double>{
        0.375L * u(0, 0, 0) + 0.25L * u1(a[0], a[1], a[2]) + 0.125L * v(b[0], b[1], b[2]) * g(c[0], c[1], c[2]) +
            0.0625L * h(0, 0, 0),
        0.25L * v1(0, 0, 0) + 0.125L * v1(e[0], e[1], e[2]) + 0.125L * v1(f2[0], f2[1], f2[2]) +
            0.25L * u(c[0], c[1], c[2]) + 0.125L * g(0, 0, 0) * v(d[0], d[1], d[2])};
  };
}

constexpr GrayScott<3> kGrayScottParameters{0.16, 0.08, 0.035, 0.065, 0.5};

// ---- The runner.

template <class V, int F, int L, std::size_t... K>
EbisuKokkos::State<V, F, L> make_state(const std::vector<V>& buffers, std::index_sequence<K...>) {
  return EbisuKokkos::State<V, F, L>(buffers[K]...);
}

// Buffers field by field: its levels newest first, then a poisoned spare.
template <class V, int F, int L>
std::vector<V> make_buffers(const std::vector<std::vector<Field>>& init, const Extents& n) {
  std::vector<V> buffers;
  for (int f = 0; f < F; ++f) {
    for (int l = 0; l < L; ++l) {
      buffers.push_back(make_view<V>("f" + std::to_string(f) + "l" + std::to_string(l), n));
      upload(buffers.back(), init[f][l]);
    }
    buffers.push_back(make_view<V>("spare" + std::to_string(f), n));
    poison(buffers.back());
  }
  return buffers;
}

inline std::vector<std::vector<Field>> random_levels(int num_fields, int num_levels, const Extents& n, unsigned seed) {
  std::vector<std::vector<Field>> levels(num_fields);
  for (int f = 0; f < num_fields; ++f)
    for (int l = 0; l < num_levels; ++l) levels[f].push_back(random_field(n, seed + 31u * f + 7u * l));
  return levels;
}

struct StateCase {
  Extents n;
  int steps;
  Edges edges = edges_all(Edge::fixed);
  Backend backend = Backend::automatic;
};

// Runs `stencil` on a State<V, F, L> (with g and centre_only(h) as fields when
// WithFields) and checks every level against the reference.
template <class Space, class Scalar, class Layout, int F, int L, bool WithFields = false, class Stencil>
void run_state_case(const std::string& name, const Stencil& stencil, const StateUpdate& update, const StateCase& c) {
  if constexpr (left_out_of_compile_check<Space, Scalar>) {
    return;
  } else {
    constexpr int rank = Stencil::rank;
    using V = TestView<Scalar, rank, Layout, Space>;
    SCOPED_TRACE(name + " " + describe({c.n, c.steps}, rank) + " sides " + describe_edges(c.edges) + " backend " +
                 EbisuKokkos::to_string(c.backend) + (std::is_same_v<Scalar, float> ? " float" : " double") +
                 (std::is_same_v<Layout, Kokkos::LayoutLeft> ? " LayoutLeft" : " LayoutRight"));
    const auto init = random_levels(F, L, c.n, 401u + c.steps);
    std::vector<Field> field_init;
    if (WithFields) field_init = {random_field(c.n, 91u), random_field(c.n, 92u)};
    const auto ref = reference_run_state(init, field_init, rank, Stencil::radius, update, c.steps, c.edges);
    using Ebisu = EbisuKokkos::Impl::EbisuBackend<Space, Stencil, V>;
    constexpr bool kernels_take_state = EbisuKokkos::Impl::backend_takes_state<Ebisu>::value;
    constexpr bool host = EbisuKokkos::Impl::runs_on_host<Space>;
    // knobs: temporal depth, tile width and height (0: the plan's).
    EbisuKokkos::StencilReport last_report;
    const auto run_with = [&](Backend backend, EbisuKokkos::Strategy strategy = EbisuKokkos::Strategy::automatic,
                              std::array<int, 3> knobs = {0, 0, 0},
                              EbisuKokkos::Selection selection = EbisuKokkos::Selection::automatic) {
      SCOPED_TRACE(std::string("run with backend ") + EbisuKokkos::to_string(backend) +
                   (strategy == EbisuKokkos::Strategy::sm_tiling ? ", SM tiling forced" : "") + " knobs " +
                   std::to_string(knobs[0]) + "," + std::to_string(knobs[1]) + "," + std::to_string(knobs[2]) +
                   " selection " + EbisuKokkos::to_string(selection));
      const std::vector<V> buffers = make_buffers<V, F, L>(init, c.n);
      auto state = make_state<V, F, L>(buffers, std::make_index_sequence<static_cast<std::size_t>(F * (L + 1))>{});
      EbisuKokkos::StencilPolicy<Space> policy(c.steps);
      policy.set_backend(backend).set_strategy(strategy).set_print_plan(std::getenv("EBISU_TEST_PRINT_PLAN") != nullptr);
      policy.set_temporal_depth(knobs[0]).set_tile_width(knobs[1]).set_tile_height(knobs[2]).set_selection(selection);
      for (int a = 0; a < rank; ++a) {
        policy.set_boundary(a, EbisuKokkos::Side::low, to_boundary(c.edges[a][0]))
            .set_boundary(a, EbisuKokkos::Side::high, to_boundary(c.edges[a][1]));
      }
      EbisuKokkos::StencilReport report;
      if constexpr (WithFields) {
        const V g = make_view<V>("g", c.n), h = make_view<V>("h", c.n);
        upload(g, field_init[0]);
        upload(h, field_init[1]);
        const typename V::const_type const_g = g;
        report = EbisuKokkos::parallel_stencil(name, policy, stencil, state,
                                               EbisuKokkos::fields(const_g, EbisuKokkos::centre_only(h)));
        EXPECT_EQ(relative_error(download(g), field_init[0]), 0.0);
        EXPECT_EQ(relative_error(download(h), field_init[1]), 0.0);
      } else {
        report = EbisuKokkos::parallel_stencil(name, policy, stencil, state);
      }
      for (int f = 0; f < F; ++f) {
        for (int l = 0; l < L; ++l) {
          const Field got = download(state.level(f, l));
          if (c.steps == 0) {
            EXPECT_EQ(relative_error(got, init[f][l]), 0.0) << "field " << f << " level " << l << ": " << report.plan;
          } else {
            EXPECT_LE(relative_error(got, ref[f][l]), tolerance<Scalar>() * (1 + c.steps / 32))
                << "field " << f << " level " << l << ": " << report.plan;
          }
        }
      }
      if (!kernels_take_state || backend == Backend::generic) {
        EXPECT_EQ(report.backend, Backend::generic) << report.plan;
        if (backend == Backend::automatic && c.steps > 0) {
          EXPECT_NE(report.plan.find("several state fields / time levels"), std::string::npos) << report.plan;
        }
      } else if (host && backend == Backend::ebisu && c.steps > 0) {
        // The host blocked path, its launches of the depth knob (T need not be a multiple of it).
        EXPECT_EQ(report.backend, Backend::ebisu) << report.plan;
        EXPECT_NE(report.plan.find("host temporal blocking"), std::string::npos) << report.plan;
        if (knobs[0] > 0) {
          const int depth = std::min(knobs[0], c.steps);
          EXPECT_EQ(report.temporal_depth, depth) << report.plan;
          EXPECT_EQ(report.launches, (c.steps + depth - 1) / depth) << report.plan;
        }
      } else if (backend == Backend::ebisu && c.steps > 0) {
        // 1-D: segment tiling (reported as SM tiling); 2-D and 3-D: SM or device tiling, SM tiling where
        // forced (in 3-D, where its windows and queues fit: else it says why not).
        const bool sm_refused = rank == 3 && report.plan.find("SM tiling not possible") != std::string::npos;
        if (rank == 1 || (strategy == EbisuKokkos::Strategy::sm_tiling && !sm_refused)) {
          EXPECT_EQ(report.strategy, EbisuKokkos::Strategy::sm_tiling) << report.plan;
        } else {
          EXPECT_NE(report.strategy, EbisuKokkos::Strategy::automatic) << report.plan;
          EXPECT_EQ(report.backend, Backend::ebisu) << report.plan;
        }
      }
      last_report = report;
      return policy;
    };
    const auto policy = run_with(c.backend);
    // Where the EBISU kernels run several fields or levels, every automatic
    // case runs again with them forced (unless its sides are ones they refuse):
    // on Cuda in 2-D and 3-D once more with SM tiling forced, on the host once
    // more with depth 3 and narrow tiles (several work items whose halos overlap,
    // the case for the level pool; in 3-D several across both axes).
    if (kernels_take_state && c.backend == Backend::automatic &&
        EbisuKokkos::Impl::boundary_refusal<Ebisu>(policy, stencil).empty()) {
      run_with(Backend::ebisu);
      if constexpr (host) {
        run_with(Backend::ebisu, EbisuKokkos::Strategy::automatic, rank == 3 ? std::array<int, 3>{3, 4, 3}
                                                                              : std::array<int, 3>{3, 5, 0});
      } else if (rank >= 2) {
        run_with(Backend::ebisu, EbisuKokkos::Strategy::sm_tiling);
        // Every candidate timed on copies of the levels first (the caller's levels must stay as they were
        // for the run that follows, which the reference checks); the report names the timings.
        run_with(Backend::automatic, EbisuKokkos::Strategy::automatic, {0, 0, 0}, EbisuKokkos::Selection::measured);
        const bool kernel_possible = last_report.plan.find("SM tiling not possible") == std::string::npos ||
                                     last_report.plan.find("device tiling not possible") == std::string::npos;
        if (c.steps > 0 && kernel_possible) {
          EXPECT_NE(last_report.plan.find("measured choice"), std::string::npos) << last_report.plan;
        }
      }
    }
  }
}

// Shape: what the stencil declares it reads of the state (BoxShape: anything within the radius).
// Update: Leapfrog (u^{n-1} as a Neighbors) or LeapfrogAtCell (as a Scalar).
template <class Space, class Scalar, class Layout, int Rank, class Shape = EbisuKokkos::BoxShape,
          template <int> class Update = Leapfrog>
void leapfrog_cases(const std::vector<StateCase>& cases) {
  const double r2 = 0.2 / Rank;
  // Declared mirror symmetric (the Laplacian is), so that on Cuda the mirror cases run the kernels too.
  const auto stencil = EbisuKokkos::make_stencil<Rank, 1, Shape>(Update<Rank>{r2}).declare_mirror_symmetric();
  for (const auto& c : cases) {
    run_state_case<Space, Scalar, Layout, 1, 2>("leapfrog", stencil, leapfrog_update(Rank, r2), c);
  }
}

}  // namespace state_tests
}  // namespace ebisu_test

using namespace ebisu_test;
using namespace ebisu_test::state_tests;

TEST(TEST_CATEGORY, state_leapfrog_wave) {
  using LR = Kokkos::LayoutRight;
  using LL = Kokkos::LayoutLeft;
  leapfrog_cases<TEST_EXECSPACE, double, LR, 1>({{{3, 1, 1}, 4}, {{41, 1, 1}, 0}, {{41, 1, 1}, 1}, {{41, 1, 1}, 33}});
  // Several segments on CUDA (2048 cells each for three fp64 tiles), the last
  // one shorter than the halo, and launches of 32, 32 and 1 or 6 steps.
  leapfrog_cases<TEST_EXECSPACE, double, LR, 1>({{{4106, 1, 1}, 65}, {{4500, 1, 1}, 70}});
  leapfrog_cases<TEST_EXECSPACE, float, LL, 1>({{{4500, 1, 1}, 37}});
  leapfrog_cases<TEST_EXECSPACE, double, LR, 2>(
      {{{3, 3, 1}, 3}, {{17, 13, 1}, 0}, {{17, 13, 1}, 1}, {{17, 13, 1}, 2}, {{17, 13, 1}, 3}, {{31, 9, 1}, 7},
       {{17, 13, 1}, 5, edges_all(Edge::fixed), Backend::generic}});
  leapfrog_cases<TEST_EXECSPACE, double, LL, 2>({{{17, 13, 1}, 7}, {{5, 40, 1}, 4}});
  leapfrog_cases<TEST_EXECSPACE, float, LR, 2>({{{17, 13, 1}, 9}});
  leapfrog_cases<TEST_EXECSPACE, double, LR, 3>({{{3, 3, 3}, 2}, {{9, 7, 11}, 5}});
  leapfrog_cases<TEST_EXECSPACE, double, LL, 3>({{{9, 7, 11}, 6}});
}

// An older level taken as a Scalar is read at the cell only (its kind becomes a centre field, and the
// kernels keep no neighbourhood of it): the same answers on every path, tiny to several tiles.
TEST(TEST_CATEGORY, state_older_level_at_cell) {
  using LR = Kokkos::LayoutRight;
  using Box = EbisuKokkos::BoxShape;
  {
    using V = TestView<double, 2, LR, TEST_EXECSPACE>;
    using CV = typename V::const_type;
    using AtCell = decltype(EbisuKokkos::make_stencil<2, 1>(LeapfrogAtCell<2>{0.1}));
    using Around = decltype(EbisuKokkos::make_stencil<2, 1>(Leapfrog<2>{0.1}));
    using NoFields = EbisuKokkos::Impl::FieldViews<CV>;
    static_assert(EbisuKokkos::Impl::centre_levels_mask<AtCell, CV, 1, NoFields>() == 1u);
    static_assert(EbisuKokkos::Impl::centre_levels_mask<Around, CV, 1, NoFields>() == 0u);
    static_assert(!EbisuKokkos::Impl::reads_older_levels_around<1, 2, EbisuKokkos::Impl::CentreField>());
    static_assert(EbisuKokkos::Impl::reads_older_levels_around<1, 2, EbisuKokkos::Impl::StateLevelField>());
    // Another field's newest level is not an older level.
    static_assert(!EbisuKokkos::Impl::reads_older_levels_around<2, 1, EbisuKokkos::Impl::StateLevelField>());
  }
  leapfrog_cases<TEST_EXECSPACE, double, LR, 1, Box, LeapfrogAtCell>({{{41, 1, 1}, 33}, {{4500, 1, 1}, 70}});
  leapfrog_cases<TEST_EXECSPACE, double, LR, 2, Box, LeapfrogAtCell>(
      {{{3, 3, 1}, 3}, {{17, 13, 1}, 7}, {{17, 13, 1}, 9, edges_all(Edge::periodic)}});
  leapfrog_cases<TEST_EXECSPACE, float, Kokkos::LayoutLeft, 2, Box, LeapfrogAtCell>({{{17, 13, 1}, 5, edges_all(Edge::mirror)}});
  leapfrog_cases<TEST_EXECSPACE, double, LR, 3, EbisuKokkos::StarShape, LeapfrogAtCell>({{{9, 7, 11}, 6}});
}

TEST(TEST_CATEGORY, state_leapfrog_boundaries) {
  using LR = Kokkos::LayoutRight;
  const Edges mixed = {{{Edge::periodic, Edge::periodic}, {Edge::mirror, Edge::fixed}, {Edge::fixed, Edge::fixed}}};
  leapfrog_cases<TEST_EXECSPACE, double, LR, 2>({{{17, 13, 1}, 9, edges_all(Edge::periodic)},
                                                 {{17, 13, 1}, 9, edges_all(Edge::mirror)},
                                                 {{17, 13, 1}, 8, mixed},
                                                 {{3, 3, 1}, 5, edges_all(Edge::periodic)}});
  leapfrog_cases<TEST_EXECSPACE, double, Kokkos::LayoutLeft, 3>({{{6, 7, 5}, 4, edges_all(Edge::periodic)}});
  leapfrog_cases<TEST_EXECSPACE, double, LR, 1>({{{12, 1, 1}, 7, edges_all(Edge::mirror)},
                                                 {{4106, 1, 1}, 40, edges_all(Edge::periodic)},
                                                 {{4500, 1, 1}, 33, edges_all(Edge::mirror)}});
}

TEST(TEST_CATEGORY, state_gray_scott) {
  const auto p = kGrayScottParameters;
  const auto gs2 =
      EbisuKokkos::make_stencil<2, 1>(GrayScott<2>{p.du, p.dv, p.feed, p.kill, p.dt}).declare_mirror_symmetric();
  const auto gs3 = EbisuKokkos::make_stencil<3, 1>(GrayScott<3>{p.du, p.dv, p.feed, p.kill, p.dt});
  for (const StateCase& c : {StateCase{{23, 18, 1}, 40, edges_all(Edge::periodic)}, StateCase{{23, 18, 1}, 0},
                             StateCase{{23, 18, 1}, 3}, StateCase{{3, 3, 1}, 1}}) {
    run_state_case<TEST_EXECSPACE, double, Kokkos::LayoutRight, 2, 1>("gray-scott", gs2, gray_scott_update(2, p), c);
  }
  run_state_case<TEST_EXECSPACE, float, Kokkos::LayoutLeft, 2, 1>("gray-scott", gs2, gray_scott_update(2, p),
                                                                   {{16, 21, 1}, 11, edges_all(Edge::mirror)});
  run_state_case<TEST_EXECSPACE, double, Kokkos::LayoutRight, 2, 1>("gray-scott", gs3, gray_scott_update(3, p),
                                                                    {{9, 10, 11}, 5});
  // 1-D: launches of an even number of steps write the slots the next reads
  // (the CUDA kernel's side buffer), odd ones the other slots.
  const auto gs1 =
      EbisuKokkos::make_stencil<1, 1>(GrayScott<1>{p.du, p.dv, p.feed, p.kill, p.dt}).declare_mirror_symmetric();
  for (const StateCase& c : {StateCase{{37, 1, 1}, 5}, StateCase{{4106, 1, 1}, 64}, StateCase{{4106, 1, 1}, 33},
                             StateCase{{5000, 1, 1}, 45, edges_all(Edge::periodic)},
                             StateCase{{3000, 1, 1}, 20, edges_all(Edge::mirror)}}) {
    run_state_case<TEST_EXECSPACE, double, Kokkos::LayoutRight, 2, 1>("gray-scott", gs1, gray_scott_update(1, p), c);
  }
  run_state_case<TEST_EXECSPACE, float, Kokkos::LayoutLeft, 2, 1>("gray-scott", gs1, gray_scott_update(1, p),
                                                                   {{4106, 1, 1}, 34});
}

TEST(TEST_CATEGORY, state_two_fields_two_levels_with_fields) {
  const auto m2 = EbisuKokkos::make_stencil<2, 2>(Mixed<2>{});
  const auto m3 = EbisuKokkos::make_stencil<3, 2>(Mixed<3>{});
  for (const StateCase& c : {StateCase{{13, 11, 1}, 0}, StateCase{{13, 11, 1}, 1}, StateCase{{13, 11, 1}, 2},
                             StateCase{{13, 11, 1}, 5}, StateCase{{5, 5, 1}, 3},
                             StateCase{{13, 11, 1}, 4, edges_all(Edge::periodic), Backend::generic},
                             StateCase{{13, 11, 1}, 4, edges_all(Edge::mirror)}}) {
    run_state_case<TEST_EXECSPACE, double, Kokkos::LayoutLeft, 2, 2, true>("mixed", m2, mixed_update(2), c);
  }
  run_state_case<TEST_EXECSPACE, double, Kokkos::LayoutRight, 2, 2, true>("mixed", m3, mixed_update(3), {{9, 8, 10}, 5});
  const auto m1 = EbisuKokkos::make_stencil<1, 2>(Mixed<1>{});
  for (const StateCase& c : {StateCase{{5, 1, 1}, 3}, StateCase{{37, 1, 1}, 7}, StateCase{{1500, 1, 1}, 65},
                             StateCase{{1500, 1, 1}, 40, edges_all(Edge::periodic)}}) {
    run_state_case<TEST_EXECSPACE, double, Kokkos::LayoutRight, 2, 2, true>("mixed", m1, mixed_update(1), c);
  }
  run_state_case<TEST_EXECSPACE, float, Kokkos::LayoutRight, 2, 2, true>("mixed", m3, mixed_update(3), {{9, 8, 10}, 3});
}

// Long enough for the GPU's replayed step loop (>= 128 steps: a whole number
// of ring turns per replay, 3 buffers for two levels, 2 for one).
TEST(TEST_CATEGORY, state_long_runs) {
  leapfrog_cases<TEST_EXECSPACE, double, Kokkos::LayoutRight, 2>({{{20, 17, 1}, 200}, {{20, 17, 1}, 131}});
  std::vector<StateCase> gray_scott{{{16, 16, 1}, 201, edges_all(Edge::periodic)}};
  std::vector<StateCase> mixed{{{11, 12, 1}, 150}};
#ifdef KOKKOS_ENABLE_CUDA
  // 1-D on CUDA: more segments than the GPU holds at once, so blocks that load
  // late would read halos other blocks already overwrote, were it not for the
  // side buffer. (Host spaces run the generic path: nothing new to see there.)
  // 2-D: several strips and several blocks per strip for SM tiling (halos
  // overlapping the neighbours' cells), launches of 8 + 8 + 4 + 1 steps or
  // 4 + 4 + 2 + 1 at radius 2, levels borrowed and copied back.
  if constexpr (std::is_same_v<TEST_EXECSPACE, Kokkos::Cuda>) {
    leapfrog_cases<TEST_EXECSPACE, double, Kokkos::LayoutRight, 1>({{{(1 << 20) + 5, 1, 1}, 40}});
    leapfrog_cases<TEST_EXECSPACE, double, Kokkos::LayoutRight, 2>(
        {{{700, 611, 1}, 21}, {{523, 700, 1}, 16, edges_all(Edge::periodic)}});
    leapfrog_cases<TEST_EXECSPACE, float, Kokkos::LayoutLeft, 2>({{{517, 640, 1}, 13, edges_all(Edge::mirror)}});
    leapfrog_cases<TEST_EXECSPACE, double, Kokkos::LayoutRight, 2, EbisuKokkos::BoxShape, LeapfrogAtCell>(
        {{{700, 611, 1}, 21}});
    gray_scott.push_back({{530, 610, 1}, 19, edges_all(Edge::periodic)});
    mixed.push_back({{300, 520, 1}, 11});
  }
#endif
  const auto p = kGrayScottParameters;
  const auto gs2 = EbisuKokkos::make_stencil<2, 1>(GrayScott<2>{p.du, p.dv, p.feed, p.kill, p.dt});
  for (const StateCase& c : gray_scott) {
    run_state_case<TEST_EXECSPACE, double, Kokkos::LayoutRight, 2, 1>("gray-scott", gs2, gray_scott_update(2, p), c);
  }
  const auto m2 = EbisuKokkos::make_stencil<2, 2>(Mixed<2>{});
  for (const StateCase& c : mixed) {
    run_state_case<TEST_EXECSPACE, double, Kokkos::LayoutLeft, 2, 2, true>("mixed", m2, mixed_update(2), c);
  }
}

// 3-D SM tiling on CUDA: several 32 x 32 tiles along x and y (halos overlapping
// the neighbours' cells), every tile's z column split over several blocks,
// launches of 3 + 3 + 3 + 2 (or 2 + 2 + 1) steps with levels borrowed and copied
// back, periodic and mirror sides, both layouts, float, and two fields of two
// levels at radius 2 (whose windows and queues may not fit: then the forced run
// says why and runs another kernel). Host spaces run the generic path on
// these sizes in the tests above.
// (Left out of CI's compile-check builds: the other state tests instantiate the same kernel templates
// for these kinds, and these sizes only matter where they run.)
TEST(TEST_CATEGORY, state_3d_sm_tiling) {
#ifndef EBISU_KOKKOS_COMPILE_CHECK_ONLY
  if constexpr (std::is_same_v<TEST_EXECSPACE, Kokkos::DefaultExecutionSpace> &&
                !std::is_same_v<TEST_EXECSPACE, Kokkos::DefaultHostExecutionSpace>) {
    using LR = Kokkos::LayoutRight;
    using LL = Kokkos::LayoutLeft;
    const Edges mixed_sides = {
        {{Edge::periodic, Edge::periodic}, {Edge::mirror, Edge::fixed}, {Edge::fixed, Edge::mirror}}};
    using Star = EbisuKokkos::StarShape;  // (a 7-point update: no off-column queue of other z, deeper launches)
    leapfrog_cases<TEST_EXECSPACE, double, LR, 3, Star>(
        {{{70, 61, 50}, 11}, {{45, 37, 61}, 9, edges_all(Edge::periodic)}, {{64, 64, 20}, 7, mixed_sides}});
    leapfrog_cases<TEST_EXECSPACE, double, LR, 3>({{{70, 61, 50}, 11}});
    // u^{n-1} at the cell only: no queue of its planes, so depth 4 fits (launches of 4 + 4 + 3).
    leapfrog_cases<TEST_EXECSPACE, double, LR, 3, Star, LeapfrogAtCell>(
        {{{70, 61, 50}, 11}, {{45, 37, 61}, 9, edges_all(Edge::periodic)}});
    leapfrog_cases<TEST_EXECSPACE, float, LL, 3, Star, LeapfrogAtCell>({{{61, 70, 33}, 10, mixed_sides}});
    leapfrog_cases<TEST_EXECSPACE, double, LL, 3, Star>({{{61, 70, 33}, 10}, {{40, 35, 30}, 5, edges_all(Edge::mirror)}});
    leapfrog_cases<TEST_EXECSPACE, float, LR, 3, Star>({{{50, 66, 41}, 8}});
    const auto p = kGrayScottParameters;
    const auto gs3 =
        EbisuKokkos::make_stencil<3, 1, Star>(GrayScott<3>{p.du, p.dv, p.feed, p.kill, p.dt}).declare_mirror_symmetric();
    for (const StateCase& c : {StateCase{{70, 61, 40}, 13}, StateCase{{41, 37, 35}, 6, edges_all(Edge::periodic)},
                               StateCase{{38, 40, 30}, 5, edges_all(Edge::mirror)}}) {
      run_state_case<TEST_EXECSPACE, double, LR, 2, 1>("gray-scott", gs3, gray_scott_update(3, p), c);
    }
    run_state_case<TEST_EXECSPACE, double, LL, 2, 1>("gray-scott", gs3, gray_scott_update(3, p), {{66, 40, 37}, 7});
    const auto m3 = EbisuKokkos::make_stencil<3, 2>(Mixed<3>{});
    run_state_case<TEST_EXECSPACE, double, LR, 2, 2, true>("mixed", m3, mixed_update(3), {{40, 37, 30}, 5});
  }
#endif
}

// The physics: for u^{n+1} - 2u^n + u^{n-1} = r2 L u^n on a periodic grid,
// E = |u^{n+1} - u^n|^2 + r2 sum_a <D_a u^{n+1}, D_a u^n> is the same at every
// step (D_a the forward difference). A swapped or stale time level breaks it.
TEST(TEST_CATEGORY, state_leapfrog_energy_is_conserved) {
  using V = TestView<double, 2, Kokkos::LayoutRight, TEST_EXECSPACE>;
  const int nx = 64, ny = 48, steps = 2000;
  const double r2 = 0.2;
  Field bump;
  bump.n = {nx, ny, 1};
  bump.v.resize(nx * ny);
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j) {
      const double x = (i - 20.0) / 5.0, y = (j - 30.0) / 4.0;
      bump.at(i, j, 0) = std::exp(-(x * x + y * y));
    }
  const auto energy = [&](const Field& a, const Field& b) {  // a = u^{n+1}, b = u^n
    long double e = 0;
    for (int i = 0; i < nx; ++i)
      for (int j = 0; j < ny; ++j) {
        const long double dt_u = a.at(i, j, 0) - b.at(i, j, 0);
        const long double ax = a.at((i + 1) % nx, j, 0) - a.at(i, j, 0), bx = b.at((i + 1) % nx, j, 0) - b.at(i, j, 0);
        const long double ay = a.at(i, (j + 1) % ny, 0) - a.at(i, j, 0), by = b.at(i, (j + 1) % ny, 0) - b.at(i, j, 0);
        e += dt_u * dt_u + r2 * (ax * bx + ay * by);
      }
    return e;
  };
  V u = make_view<V>("u", bump.n), u_prev = make_view<V>("u_prev", bump.n), spare = make_view<V>("spare", bump.n);
  upload(u, bump);
  upload(u_prev, bump);  // at rest
  EbisuKokkos::TimeLevels<V, 2> wave(u, u_prev, spare);
  EbisuKokkos::StencilPolicy<TEST_EXECSPACE> policy(1);
  policy.set_boundary(0, EbisuKokkos::Boundary::periodic).set_boundary(1, EbisuKokkos::Boundary::periodic);
  const auto leapfrog = EbisuKokkos::make_stencil<2, 1>(Leapfrog<2>{r2});
  EbisuKokkos::parallel_stencil("wave", policy, leapfrog, wave);
  const long double e0 = energy(download(wave.current()), download(wave.level(0, 1)));
  EbisuKokkos::StencilPolicy<TEST_EXECSPACE> run(steps);
  run.set_boundary(0, EbisuKokkos::Boundary::periodic).set_boundary(1, EbisuKokkos::Boundary::periodic);
  EbisuKokkos::parallel_stencil("wave", run, leapfrog, wave);
  const Field now = download(wave.current());
  const long double e1 = energy(now, download(wave.level(0, 1)));
  EXPECT_GT(e0, 0.1L);
  EXPECT_LE(std::fabs(static_cast<double>((e1 - e0) / e0)), 1e-10) << "E0 " << static_cast<double>(e0) << " E1 "
                                                                    << static_cast<double>(e1);
  long double moved = 0;  // the pulse has travelled: the test is not of a field at rest
  for (size_t k = 0; k < now.v.size(); ++k) moved = std::max(moved, std::fabs(now.v[k] - bump.v[k]));
  EXPECT_GT(static_cast<double>(moved), 0.3);
}

// One field of one level is a DoubleBuffer: it goes where one goes (the EBISU
// kernels where they run).
TEST(TEST_CATEGORY, state_single_field_is_a_double_buffer) {
  using V = TestView<double, 2, Kokkos::LayoutRight, TEST_EXECSPACE>;
  const Extents n{37, 29, 1};
  const Field init = random_field(n, 5u);
  const auto offsets = preset_offsets("j2d5pt");
  const auto weights = documented_weights(static_cast<int>(offsets.size()));
  const Field ref = reference_run(init, 2, 1, linear_update(offsets, weights), 11);
  V u = make_view<V>("u", n), x = make_view<V>("x", n);
  upload(u, init);
  EbisuKokkos::State<V> state(u, x);
  EbisuKokkos::StencilPolicy<TEST_EXECSPACE> policy(11);
  const auto report = EbisuKokkos::parallel_stencil("j2d5pt", policy, EbisuKokkos::presets::j2d5pt(), state);
  EXPECT_LE(relative_error(download(state.current()), ref), 1e-12) << report.plan;
  using Ebisu = EbisuKokkos::Impl::EbisuBackend<TEST_EXECSPACE, decltype(EbisuKokkos::presets::j2d5pt()), V>;
  if (!Ebisu::available) EXPECT_EQ(report.backend, Backend::generic);
}

TEST(TEST_CATEGORY, state_bad_input) {
  using V = TestView<double, 2, Kokkos::LayoutRight, TEST_EXECSPACE>;
  const Extents n{12, 10, 1};
  const Field a0 = random_field(n, 1u), a1 = random_field(n, 2u), a2 = random_field(n, 3u);
  V u = make_view<V>("u", n), u_prev = make_view<V>("u_prev", n), spare = make_view<V>("spare", n);
  V wrong = make_view<V>("wrong", {12, 11, 1});
  upload(u, a0);
  upload(u_prev, a1);
  upload(spare, a2);
  const auto untouched = [&] {
    EXPECT_EQ(relative_error(download(u), a0), 0.0);
    EXPECT_EQ(relative_error(download(u_prev), a1), 0.0);
    EXPECT_EQ(relative_error(download(spare), a2), 0.0);
  };
  const auto leapfrog = EbisuKokkos::make_stencil<2, 1>(Leapfrog<2>{0.1});
  const auto expect_rejected = [&](EbisuKokkos::TimeLevels<V, 2> state, int steps, Backend backend, const char* what) {
    EbisuKokkos::StencilPolicy<TEST_EXECSPACE> policy(steps);
    policy.set_backend(backend);
    try {
      EbisuKokkos::parallel_stencil("bad", policy, leapfrog, state);
      ADD_FAILURE() << "no exception; expected one naming: " << what;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
    untouched();
  };
  expect_rejected(EbisuKokkos::TimeLevels<V, 2>(u, u, spare), 3, Backend::automatic,
                  "state buffer (field 0, level 1) aliases state buffer (field 0, level 0)");
  expect_rejected(EbisuKokkos::TimeLevels<V, 2>(u, u_prev, u), 3, Backend::automatic,
                  "state buffer (field 0, spare) aliases state buffer (field 0, level 0)");
  expect_rejected(EbisuKokkos::TimeLevels<V, 2>(u, u_prev, wrong), 3, Backend::automatic,
                  "state buffer (field 0, spare) has extents (12, 11)");
  expect_rejected(EbisuKokkos::TimeLevels<V, 2>(u, EbisuKokkos::Impl::unallocated_view<V>(), spare), 3,
                  Backend::automatic, "state buffer (field 0, level 1) is not allocated");
  expect_rejected(EbisuKokkos::TimeLevels<V, 2>(u, u_prev, spare), -1, Backend::automatic, "steps must be >= 0");
  using Ebisu = EbisuKokkos::Impl::EbisuBackend<TEST_EXECSPACE, decltype(leapfrog), V>;
  if constexpr (!EbisuKokkos::Impl::backend_takes_state<Ebisu>::value) {
    expect_rejected(EbisuKokkos::TimeLevels<V, 2>(u, u_prev, spare), 3, Backend::ebisu,
                    "several state fields or time levels");
  } else if constexpr (!EbisuKokkos::Impl::runs_on_host<TEST_EXECSPACE>) {
    // The CUDA kernels take the state, but not a mirror side for a functor not declared mirror
    // symmetric (the host blocked path refills mirror ghosts after every stage: it takes any).
    EbisuKokkos::StencilPolicy<TEST_EXECSPACE> policy(3);
    policy.set_backend(Backend::ebisu).set_boundary(0, EbisuKokkos::Boundary::mirror);
    EbisuKokkos::TimeLevels<V, 2> state(u, u_prev, spare);
    try {
      EbisuKokkos::parallel_stencil("bad", policy, leapfrog, state);
      ADD_FAILURE() << "no exception; expected one naming the mirror side";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("periodic or mirror sides it cannot run"), std::string::npos) << e.what();
    }
    untouched();
  }
  // A read-only field that is one of the state's buffers.
  const auto m2 = EbisuKokkos::make_stencil<2, 2>(Mixed<2>{});
  V v = make_view<V>("v", n), v_prev = make_view<V>("v_prev", n), v_spare = make_view<V>("v_spare", n);
  V h = make_view<V>("h", n);
  EbisuKokkos::State<V, 2, 2> coupled(u, u_prev, spare, v, v_prev, v_spare);
  EbisuKokkos::StencilPolicy<TEST_EXECSPACE> policy(2);
  try {
    EbisuKokkos::parallel_stencil("bad", policy, m2, coupled, EbisuKokkos::fields(v_prev, EbisuKokkos::centre_only(h)));
    ADD_FAILURE() << "no exception for a field aliasing a state buffer";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("field 0 (\"v_prev\") aliases state buffer (field 1, level 1)"),
              std::string::npos)
        << e.what();
  }
  untouched();
  // Radius 2 needs at least 5 cells along every index.
  V small = make_view<V>("small", {4, 10, 1}), s1 = make_view<V>("s1", {4, 10, 1}), s2 = make_view<V>("s2", {4, 10, 1});
  V s3 = make_view<V>("s3", {4, 10, 1}), s4 = make_view<V>("s4", {4, 10, 1}), s5 = make_view<V>("s5", {4, 10, 1});
  V sg = make_view<V>("sg", {4, 10, 1}), sh = make_view<V>("sh", {4, 10, 1});
  EbisuKokkos::State<V, 2, 2> tiny(small, s1, s2, s3, s4, s5);
  EXPECT_THROW(EbisuKokkos::parallel_stencil("bad", policy, m2, tiny, EbisuKokkos::fields(sg, EbisuKokkos::centre_only(sh))),
               std::invalid_argument);
}
