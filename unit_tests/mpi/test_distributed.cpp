// Distributed parallel_stencil (issue 14, items 2-3): every rank's owned cells
// after a distributed run against one rank's run of the whole domain with the
// same policy (bit for bit: the same evaluator computes every cell from the
// same operands; a few ulps in builds with FMA units, see expect_owned_equal),
// and one case against the independent long-double reference.
// Run under mpirun with 1, 2, 3 and 4 ranks (unit_tests/CMakeLists.txt), so the
// decompositions differ: 1 x 1, 2 x 1, 3 x 1, 2 x 2 (and 4 along one axis in 1-D).
// Ghost cells start as a poison value (1e30): a missing or misplaced exchange
// shows in the owned cells within a few steps.
#include "support/reference.hpp"

#include <ebisu_kokkos/mpi.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace {

using EbisuKokkos::Backend;
using EbisuKokkos::Boundary;
using EbisuKokkos::Neighbors;
using EbisuKokkos::Side;
namespace Mpi = EbisuKokkos::Mpi;

constexpr double kPoison = 1e30;

// A value per global cell in [0.25, 1.25), the same on every rank.
double initial_value(std::int64_t i0, std::int64_t i1, std::int64_t i2, unsigned seed) {
  std::uint64_t h = (static_cast<std::uint64_t>(i0) * 73856093u) ^ (static_cast<std::uint64_t>(i1) * 19349663u) ^
                    (static_cast<std::uint64_t>(i2) * 83492791u) ^ (seed * 2654435761u);
  h ^= h >> 13;
  h *= 0x9E3779B97F4A7C15ull;
  h ^= h >> 29;
  return 0.25 + static_cast<double>(h % 1000003) / 1000003.0;
}

template <class View>
std::array<std::int64_t, 3> extents3(const View& v) {
  std::array<std::int64_t, 3> n{{1, 1, 1}};
  for (int a = 0; a < static_cast<int>(View::rank); ++a) n[a] = static_cast<std::int64_t>(v.extent(a));
  return n;
}

template <class View, class F>
void for_each_cell(const View& v, const F& f) {
  const auto n = extents3(v);
  for (std::int64_t i0 = 0; i0 < n[0]; ++i0)
    for (std::int64_t i1 = 0; i1 < n[1]; ++i1)
      for (std::int64_t i2 = 0; i2 < n[2]; ++i2) f(i0, i1, i2);
}

template <class View>
auto& at(const View& v, std::int64_t i0, std::int64_t i1, std::int64_t i2) {
  if constexpr (View::rank == 1) return v(i0);
  if constexpr (View::rank == 2) return v(i0, i1);
  if constexpr (View::rank == 3) return v(i0, i1, i2);
}

template <class View>
View global_field(const std::array<std::int64_t, View::rank>& n, unsigned seed) {
  View g = Mpi::Impl::allocate_box<View>("global", [&] {
    Mpi::Impl::Box b;
    for (int a = 0; a < static_cast<int>(View::rank); ++a) b.extent[a] = n[a];
    return b;
  }());
  for_each_cell(g, [&](auto i0, auto i1, auto i2) { at(g, i0, i1, i2) = initial_value(i0, i1, i2, seed); });
  return g;
}

// Owned cells from the global pattern, ghosts poisoned.
template <int Rank, class View>
void fill_local(const Mpi::CartesianDomain<Rank>& domain, const View& v, unsigned seed) {
  for_each_cell(v, [&](auto i0, auto i1, auto i2) {
    const std::int64_t i[3] = {i0, i1, i2};
    bool owned = true;
    std::int64_t g[3] = {0, 0, 0};
    for (int a = 0; a < Rank; ++a) {
      g[a] = i[a] - domain.ghost(a, Side::low) + domain.owned_begin(a);
      owned = owned && i[a] >= domain.ghost(a, Side::low) && i[a] < domain.ghost(a, Side::low) + domain.owned_extent(a);
    }
    at(v, i0, i1, i2) = owned ? initial_value(g[0], g[1], g[2], seed) : kPoison;
  });
}

// Every owned cell of `local` against the global result; `tolerance` 0 means bit for bit, except
// in builds with fused multiply-add units (-march=native on x86-64, __FMA__): there GCC fuses a
// stencil's multiply-adds differently in a row loop's vector body and in its scalar remainder, and
// a cell's place in its row differs between a rank's subdomain and the whole domain, so the same
// sum may differ in its last bits (the first -march=native CI build saw 1-2 ulps on the generic
// path of j2d25pt and the 3-D presets). Then a few ulps of the View's scalar.
template <class Scalar>
constexpr double same_evaluator_tolerance() {
#if defined(__FMA__)
  return 8.0 * std::numeric_limits<Scalar>::epsilon();
#else
  return 0.0;
#endif
}

template <int Rank, class View, class Global>
void expect_owned_equal(const Mpi::CartesianDomain<Rank>& domain, const View& local, const Global& global,
                        double tolerance, const std::string& what) {
  if (tolerance == 0) tolerance = same_evaluator_tolerance<typename View::non_const_value_type>();
  int mismatches = 0;
  double worst = 0;
  for_each_cell(domain.owned(local), [&](auto i0, auto i1, auto i2) {
    const std::int64_t i[3] = {i0, i1, i2};
    std::int64_t l[3] = {0, 0, 0}, g[3] = {0, 0, 0};
    for (int a = 0; a < Rank; ++a) {
      l[a] = i[a] + domain.ghost(a, Side::low);
      g[a] = i[a] + domain.owned_begin(a);
    }
    const double x = static_cast<double>(at(local, l[0], l[1], l[2]));
    const double y = static_cast<double>(at(global, g[0], g[1], g[2]));
    const double err = std::abs(x - y) / std::max(1.0, std::abs(y));
    if (tolerance == 0 ? x != y : !(err <= tolerance)) {
      if (++mismatches <= 3) {
        ADD_FAILURE() << what << ": rank " << domain.rank() << ", global cell (" << g[0] << ", " << g[1] << ", "
                      << g[2] << "): " << x << " vs one rank's " << y;
      }
    }
    worst = std::max(worst, err);
  });
  EXPECT_EQ(mismatches, 0) << what << " (worst relative difference " << worst << ")";
}

// One rank's run of the whole domain, the policy's rules taken from the domain.
template <int Rank, class View, class ExecSpace, class Stencil>
View single_rank_run(const Mpi::CartesianDomain<Rank>& domain, const EbisuKokkos::StencilPolicy<ExecSpace>& policy,
                     const Stencil& stencil, unsigned seed) {
  std::array<std::int64_t, Rank> n = domain.global_extents();
  View u = global_field<View>(n, seed);
  View scratch = global_field<View>(n, seed + 1);
  auto p = policy;
  for (int a = 0; a < Rank; ++a)
    for (Side s : {Side::low, Side::high}) p.set_boundary(a, s, domain.boundaries().side[a][s == Side::low ? 0 : 1]);
  EbisuKokkos::parallel_stencil("single-rank", p, stencil, u, scratch);
  Kokkos::fence();
  return u;
}

EbisuKokkos::BoundaryRules rules(Boundary axis0, Boundary axis1 = Boundary::fixed, Boundary axis2 = Boundary::fixed) {
  EbisuKokkos::BoundaryRules r;
  const Boundary b[3] = {axis0, axis1, axis2};
  for (int a = 0; a < 3; ++a) r.side[a][0] = r.side[a][1] = b[a];
  return r;
}

template <int Rank>
Mpi::CartesianDomain<Rank> make_domain(const std::array<std::int64_t, Rank>& n, int radius,
                                       const EbisuKokkos::BoundaryRules& boundaries, int steps_per_exchange,
                                       Mpi::ExchangeOverlap overlap = Mpi::ExchangeOverlap::automatic) {
  Mpi::DomainOptions options;
  options.boundaries = boundaries;
  options.steps_per_exchange = steps_per_exchange;
  options.overlap = overlap;
  return Mpi::CartesianDomain<Rank>(MPI_COMM_WORLD, n, radius, options);
}

// The DoubleBuffer form on `domain` against one rank, for several step counts.
template <class View, class ExecSpace, int Rank, class Stencil>
void check_against_one_rank(const Mpi::CartesianDomain<Rank>& domain, const Stencil& stencil, Backend backend,
                            const std::vector<int>& step_counts, const std::string& what) {
  for (int steps : step_counts) {
    EbisuKokkos::StencilPolicy<ExecSpace> policy(steps);
    policy.set_backend(backend);
    auto buffers = domain.template create_buffers<View>("u");
    fill_local(domain, buffers.current(), 7);
    fill_local(domain, buffers.alternate(), 8);
    const auto report = Mpi::parallel_stencil(what, domain, policy, stencil, buffers);
    Kokkos::fence();
    EXPECT_NE(report.plan.find("distributed over"), std::string::npos);
    const View expected = single_rank_run<Rank, View>(domain, policy, stencil, 7);
    expect_owned_equal(domain, buffers.current(), expected, 0.0, what + ", T = " + std::to_string(steps));
  }
}

using Host = Kokkos::DefaultHostExecutionSpace;
using View1 = Kokkos::View<double*, Kokkos::LayoutRight, Kokkos::HostSpace>;
using View2 = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;
using View3 = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;

// ---- The decomposition itself.

TEST(mpi, domain_covers_the_grid_once) {
  auto domain = make_domain<2>({61, 47}, 1, rules(Boundary::fixed), 3);
  std::int64_t owned = domain.owned_extent(0) * domain.owned_extent(1), total = 0;
  MPI_Allreduce(&owned, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(total, 61 * 47);
  EXPECT_EQ(domain.ghost_width(), 3);
  for (int a = 0; a < 2; ++a) {
    EXPECT_EQ(domain.ghost(a, Side::low), domain.coordinate(a) > 0 ? 3 : 0);
    EXPECT_EQ(domain.ghost(a, Side::high), domain.coordinate(a) < domain.ranks_per_axis(a) - 1 ? 3 : 0);
    EXPECT_EQ(domain.local_extent(a), domain.owned_extent(a) + domain.ghost(a, Side::low) + domain.ghost(a, Side::high));
  }
}

// After exchange_halo every ghost cell holds the global field's value at the
// cell it mirrors (corners included; wrapped across periodic axes).
TEST(mpi, exchange_fills_every_ghost_cell) {
  const std::array<std::int64_t, 3> n{{13, 11, 9}};
  auto domain = make_domain<3>(n, 1, rules(Boundary::periodic, Boundary::fixed, Boundary::periodic), 2);
  View3 v = domain.create_view<View3>("v");
  fill_local(domain, v, 3);
  Mpi::exchange_halo(domain, Host(), v);
  int bad = 0;
  for_each_cell(v, [&](auto i0, auto i1, auto i2) {
    const std::int64_t i[3] = {i0, i1, i2};
    std::int64_t g[3];
    for (int a = 0; a < 3; ++a) {
      g[a] = i[a] - domain.ghost(a, Side::low) + domain.owned_begin(a);
      if (domain.boundaries().side[a][0] == Boundary::periodic) g[a] = (g[a] % n[a] + n[a]) % n[a];
    }
    if (v(i0, i1, i2) != initial_value(g[0], g[1], g[2], 3)) ++bad;
  });
  EXPECT_EQ(bad, 0) << "rank " << domain.rank();
}

TEST(mpi, gather_and_scatter_round_trip) {
  const std::array<std::int64_t, 2> n{{29, 23}};
  auto domain = make_domain<2>(n, 1, rules(Boundary::fixed), 2);
  const View2 global = global_field<View2>(n, 5);
  View2 v = domain.create_view<View2>("v");
  Kokkos::deep_copy(v, kPoison);
  Mpi::scatter(domain, global, v);
  const auto back = Mpi::gather(domain, v);
  if (domain.rank() == 0) {
    ASSERT_EQ(back.extent(0), 29u);
    int bad = 0;
    for_each_cell(global, [&](auto i0, auto i1, auto) { bad += back(i0, i1) != global(i0, i1); });
    EXPECT_EQ(bad, 0);
  } else {
    EXPECT_EQ(back.data(), nullptr);
  }
}

// ---- Runs against one rank.

TEST(mpi, star_2d_fixed_generic_and_automatic) {
  auto stencil = EbisuKokkos::presets::j2d5pt();
  for (int spe : {1, 3}) {
    auto domain = make_domain<2>({61, 47}, 1, rules(Boundary::fixed), spe);
    for (Backend b : {Backend::generic, Backend::automatic}) {
      check_against_one_rank<View2, Host>(domain, stencil, b, {0, 1, 7, 37},
                                          "j2d5pt 61x47, " + std::to_string(spe) + " steps per exchange, " +
                                              EbisuKokkos::to_string(b));
    }
  }
}

TEST(mpi, box_radius_2_periodic_and_mirror_with_blocking) {
  auto stencil = EbisuKokkos::presets::j2d25pt();
  auto domain = make_domain<2>({64, 40}, 2, rules(Boundary::periodic, Boundary::mirror), 2);
  check_against_one_rank<View2, Host>(domain, stencil, Backend::generic, {5, 11}, "j2d25pt periodic x mirror, generic");
  check_against_one_rank<View2, Host>(domain, stencil, Backend::ebisu, {11}, "j2d25pt periodic x mirror, host blocked");
}

TEST(mpi, radius_1_stencil_on_a_radius_2_domain) {
  // The ghost zone (2 x 2 cells) serves 4 steps of a radius-1 stencil per exchange.
  auto domain = make_domain<2>({40, 36}, 2, rules(Boundary::mirror, Boundary::periodic), 2);
  check_against_one_rank<View2, Host>(domain, EbisuKokkos::presets::j2d9pt_gol(), Backend::generic, {9},
                                      "j2d9pt-gol on a radius-2 domain");
}

TEST(mpi, stencils_3d) {
  auto periodic = make_domain<3>({23, 19, 17}, 1, rules(Boundary::periodic, Boundary::periodic, Boundary::periodic), 2);
  check_against_one_rank<View3, Host>(periodic, EbisuKokkos::presets::j3d7pt(), Backend::generic, {9},
                                      "j3d7pt all periodic");
  auto mixed = make_domain<3>({21, 18, 16}, 1, rules(Boundary::fixed, Boundary::mirror, Boundary::periodic), 3);
  check_against_one_rank<View3, Host>(mixed, EbisuKokkos::presets::j3d27pt(), Backend::automatic, {10},
                                      "j3d27pt fixed x mirror x periodic");
  check_against_one_rank<View3, Host>(mixed, EbisuKokkos::presets::j3d27pt(), Backend::ebisu, {7},
                                      "j3d27pt fixed x mirror x periodic, host blocked");
}

TEST(mpi, stencils_1d) {
  auto domain = make_domain<1>({101}, 2, rules(Boundary::fixed), 4);
  check_against_one_rank<View1, Host>(domain, EbisuKokkos::presets::j1d5pt(), Backend::automatic, {3, 20},
                                      "j1d5pt");
  auto ring = make_domain<1>({64}, 1, rules(Boundary::periodic), 3);
  check_against_one_rank<View1, Host>(ring, EbisuKokkos::presets::j1d3pt(), Backend::generic, {25}, "j1d3pt periodic");
}

TEST(mpi, float_layout_left) {
  using ViewF = Kokkos::View<float**, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  auto domain = make_domain<2>({37, 50}, 1, rules(Boundary::mirror, Boundary::fixed), 4);
  check_against_one_rank<ViewF, Host>(domain, EbisuKokkos::presets::j2d5pt(), Backend::automatic, {13},
                                      "j2d5pt float LayoutLeft");
}

// Overlapped rounds (the exchange in flight while the local View computes, the
// strips next to each split side recomputed after it): the same cells as one
// rank. Forced on here (on host spaces automatic never overlaps); on 4 ranks
// the 2-D domains split two axes and the rounds fall back to exchange-then-compute.
TEST(mpi, overlapped_rounds_match_one_rank) {
  const auto on = Mpi::ExchangeOverlap::on;
  auto star = make_domain<2>({61, 47}, 1, rules(Boundary::fixed), 3, on);
  check_against_one_rank<View2, Host>(star, EbisuKokkos::presets::j2d5pt(), Backend::generic, {0, 2, 7, 37},
                                      "j2d5pt overlapped, generic");
  check_against_one_rank<View2, Host>(star, EbisuKokkos::presets::j2d5pt(), Backend::ebisu, {13},
                                      "j2d5pt overlapped, host blocked");
  auto box = make_domain<2>({64, 40}, 2, rules(Boundary::periodic, Boundary::mirror), 2, on);
  check_against_one_rank<View2, Host>(box, EbisuKokkos::presets::j2d25pt(), Backend::automatic, {11},
                                      "j2d25pt periodic x mirror, overlapped");
  auto line = make_domain<1>({101}, 2, rules(Boundary::fixed), 4, on);
  check_against_one_rank<View1, Host>(line, EbisuKokkos::presets::j1d5pt(), Backend::automatic, {20},
                                      "j1d5pt overlapped");
  auto cube = make_domain<3>({30, 13, 11}, 1, rules(Boundary::fixed, Boundary::mirror, Boundary::periodic), 2, on);
  check_against_one_rank<View3, Host>(cube, EbisuKokkos::presets::j3d27pt(), Backend::automatic, {9},
                                      "j3d27pt overlapped");
  using ViewF = Kokkos::View<float**, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  auto left = make_domain<2>({50, 37}, 1, rules(Boundary::mirror, Boundary::fixed), 4, on);
  check_against_one_rank<ViewF, Host>(left, EbisuKokkos::presets::j2d5pt(), Backend::automatic, {13},
                                      "j2d5pt float LayoutLeft overlapped");
}

// What the report says about overlap: on a host space automatic does not overlap, and says why.
TEST(mpi, overlap_in_the_report) {
  auto domain = make_domain<2>({40, 36}, 1, rules(Boundary::fixed), 2);
  auto buffers = domain.create_buffers<View2>("u");
  fill_local(domain, buffers.current(), 3);
  const auto report = Mpi::parallel_stencil("report", domain, EbisuKokkos::StencilPolicy<Host>(10),
                                            EbisuKokkos::presets::j2d5pt(), buffers);
  if (domain.size() == 1) {
    EXPECT_NE(report.plan.find("no neighbours"), std::string::npos) << report.plan;
  } else if (domain.size() == 4) {
    EXPECT_NE(report.plan.find("splits several axes"), std::string::npos) << report.plan;
  } else {
    EXPECT_NE(report.plan.find("nothing to overlap with"), std::string::npos) << report.plan;
    EXPECT_NE(report.plan.find("0 of 5 rounds overlapped"), std::string::npos) << report.plan;
  }
  auto forced = make_domain<2>({40, 36}, 1, rules(Boundary::fixed), 2, Mpi::ExchangeOverlap::on);
  auto b2 = forced.create_buffers<View2>("u");
  fill_local(forced, b2.current(), 3);
  const auto r2 = Mpi::parallel_stencil("report", forced, EbisuKokkos::StencilPolicy<Host>(10),
                                        EbisuKokkos::presets::j2d5pt(), b2);
  if (forced.size() == 2 || forced.size() == 3) {
    EXPECT_NE(r2.plan.find("5 of 5 rounds overlapped"), std::string::npos) << r2.plan;
  }
}

// The (u, scratch) form, and the independent long-double reference.
TEST(mpi, pair_form_against_the_long_double_reference) {
  const std::array<std::int64_t, 2> n{{33, 30}};
  auto domain = make_domain<2>(n, 1, rules(Boundary::fixed), 3);
  View2 u = domain.create_view<View2>("u"), scratch = domain.create_view<View2>("scratch");
  fill_local(domain, u, 11);
  const int steps = 17;
  Mpi::parallel_stencil("pair", domain, EbisuKokkos::StencilPolicy<Host>(steps), EbisuKokkos::presets::j2d5pt(), u,
                        scratch);
  Kokkos::fence();
  ebisu_test::Field init;
  init.n = {33, 30, 1};
  init.v.resize(33 * 30);
  for (int i = 0; i < 33; ++i)
    for (int j = 0; j < 30; ++j) init.at(i, j, 0) = initial_value(i, j, 0, 11);
  const auto expected = ebisu_test::reference_run(
      init, 2, 1,
      ebisu_test::linear_update(ebisu_test::preset_offsets("j2d5pt"), ebisu_test::documented_weights(5)), steps);
  View2 e("expected", 33, 30);
  for (int i = 0; i < 33; ++i)
    for (int j = 0; j < 30; ++j) e(i, j) = static_cast<double>(expected.at(i, j, 0));
  expect_owned_equal(domain, u, e, 1e-13, "j2d5pt against the long-double reference");
}

// A functor with a conductivity field (read over the footprint) and a centre-only source.
struct VariableHeat {
  double dt;
  KOKKOS_INLINE_FUNCTION double operator()(const Neighbors<double, 2, 1>& u, const Neighbors<double, 2, 1>& k,
                                           double f) const {
    const double kx_lo = 0.5 * (k(-1, 0) + k(0, 0)), kx_hi = 0.5 * (k(1, 0) + k(0, 0));
    const double ky_lo = 0.5 * (k(0, -1) + k(0, 0)), ky_hi = 0.5 * (k(0, 1) + k(0, 0));
    return u(0, 0) + dt * (kx_hi * (u(1, 0) - u(0, 0)) - kx_lo * (u(0, 0) - u(-1, 0)) +
                           ky_hi * (u(0, 1) - u(0, 0)) - ky_lo * (u(0, 0) - u(0, -1)) + f);
  }
};

TEST(mpi, functor_with_read_only_fields) {
  for (auto overlap : {Mpi::ExchangeOverlap::off, Mpi::ExchangeOverlap::on}) {
  const std::array<std::int64_t, 2> n{{45, 38}};
  auto domain = make_domain<2>(n, 1, rules(Boundary::periodic, Boundary::mirror), 3, overlap);
  auto stencil = EbisuKokkos::make_stencil<2, 1>(VariableHeat{0.1});
  View2 k = domain.create_view<View2>("k"), f = domain.create_view<View2>("f");
  fill_local(domain, k, 21);  // ghosts poisoned: the call must exchange the fields
  fill_local(domain, f, 22);
  Kokkos::View<const double**, Kokkos::LayoutRight, Kokkos::HostSpace> k_const = k;
  auto buffers = domain.create_buffers<View2>("u");
  fill_local(domain, buffers.current(), 23);
  const int steps = 14;
  Mpi::parallel_stencil("variable heat", domain, EbisuKokkos::StencilPolicy<Host>(steps), stencil, buffers,
                        EbisuKokkos::fields(k_const, EbisuKokkos::centre_only(f)));
  Kokkos::fence();
  View2 ug = global_field<View2>(n, 23), sg("scratch", n[0], n[1]);
  const View2 kg = global_field<View2>(n, 21), fg = global_field<View2>(n, 22);
  EbisuKokkos::StencilPolicy<Host> p(steps);
  p.set_boundary(0, Boundary::periodic).set_boundary(1, Boundary::mirror);
  EbisuKokkos::parallel_stencil("variable heat, one rank", p, stencil, ug, sg,
                                EbisuKokkos::fields(kg, EbisuKokkos::centre_only(fg)));
  Kokkos::fence();
  expect_owned_equal(domain, buffers.current(), ug, 0.0,
                     std::string("variable heat with fields, overlap ") + Mpi::to_string(overlap));
  }
}

// Two time levels: the leapfrog wave (TimeLevels, a ring of three buffers).
struct Leapfrog {
  double r2;
  KOKKOS_INLINE_FUNCTION double operator()(const Neighbors<double, 2, 1>& u, const Neighbors<double, 2, 1>& u_prev) const {
    return 2 * u(0, 0) - u_prev(0, 0) + r2 * (u(-1, 0) + u(1, 0) + u(0, -1) + u(0, 1) - 4 * u(0, 0));
  }
};

TEST(mpi, two_time_levels) {
  for (auto overlap : {Mpi::ExchangeOverlap::off, Mpi::ExchangeOverlap::on}) {
  const std::array<std::int64_t, 2> n{{42, 35}};
  auto domain = make_domain<2>(n, 1, rules(Boundary::periodic, Boundary::fixed), 3, overlap);
  auto stencil = EbisuKokkos::make_stencil<2, 1>(Leapfrog{0.2});
  const int steps = 16;
  View2 now = domain.create_view<View2>("now"), prev = domain.create_view<View2>("prev"),
        spare = domain.create_view<View2>("spare");
  fill_local(domain, now, 31);
  fill_local(domain, prev, 32);
  EbisuKokkos::TimeLevels<View2, 2> wave(now, prev, spare);
  Mpi::parallel_stencil("wave", domain, EbisuKokkos::StencilPolicy<Host>(steps), stencil, wave);
  Kokkos::fence();
  View2 gn = global_field<View2>(n, 31), gp = global_field<View2>(n, 32), gs("spare", n[0], n[1]);
  EbisuKokkos::TimeLevels<View2, 2> one(gn, gp, gs);
  EbisuKokkos::StencilPolicy<Host> p(steps);
  p.set_boundary(0, Boundary::periodic);
  EbisuKokkos::parallel_stencil("wave, one rank", p, stencil, one);
  Kokkos::fence();
  const std::string what = std::string("leapfrog, overlap ") + Mpi::to_string(overlap);
  expect_owned_equal(domain, wave.current(), one.current(), 0.0, what + ", newest level");
  expect_owned_equal(domain, wave.level(0, 1), one.level(0, 1), 0.0, what + ", previous level");
  }
}

// ---- Bad input: every rank throws, nothing is computed, the data stay as they were.

TEST(mpi, bad_input_on_one_rank_stops_every_rank) {
  auto domain = make_domain<2>({40, 40}, 1, rules(Boundary::fixed), 2);
  auto stencil = EbisuKokkos::presets::j2d5pt();
  const bool last = domain.rank() == domain.size() - 1;
  View2 u = domain.create_view<View2>("u");
  // the last rank's scratch is one cell short
  View2 scratch("scratch", domain.local_extent(0), domain.local_extent(1) - (last ? 1 : 0));
  fill_local(domain, u, 41);
  EXPECT_THROW(Mpi::parallel_stencil("bad", domain, EbisuKokkos::StencilPolicy<Host>(5), stencil, u, scratch),
               std::invalid_argument);
  View2 fresh = domain.create_view<View2>("fresh");
  fill_local(domain, fresh, 41);
  int changed = 0;
  for_each_cell(u, [&](auto i0, auto i1, auto) { changed += u(i0, i1) != fresh(i0, i1); });
  EXPECT_EQ(changed, 0);
}

TEST(mpi, bad_input_rejected_with_a_message) {
  auto domain = make_domain<2>({40, 40}, 1, rules(Boundary::fixed), 2);
  auto buffers = domain.create_buffers<View2>("u");
  const auto message = [&](auto&& call) -> std::string {
    try {
      call();
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "(nothing thrown)";
  };
  EXPECT_NE(message([&] {
              Mpi::parallel_stencil("r2", domain, EbisuKokkos::StencilPolicy<Host>(3), EbisuKokkos::presets::j2d9pt(),
                                    buffers);
            }).find("exceeds the domain's radius 1"),
            std::string::npos);
  EXPECT_NE(message([&] {
              Mpi::parallel_stencil("neg", domain, EbisuKokkos::StencilPolicy<Host>(-1), EbisuKokkos::presets::j2d5pt(),
                                    buffers);
            }).find("steps must be >= 0"),
            std::string::npos);
  EbisuKokkos::StencilPolicy<Host> periodic(3);
  periodic.set_boundary(0, Boundary::periodic);
  EXPECT_NE(message([&] {
              Mpi::parallel_stencil("rules", domain, periodic, EbisuKokkos::presets::j2d5pt(), buffers);
            }).find("takes its rules from the domain"),
            std::string::npos);
  View2 wrong("wrong", domain.local_extent(0) + 1, domain.local_extent(1));
  EXPECT_NE(message([&] { Mpi::exchange_halo(domain, Host(), wrong); }).find("local extent"), std::string::npos);
  if (domain.size() > 1) {
    // 40 cells over the ranks of index 0, ghost zones 30 deep: thicker than a block
    EXPECT_NE(message([&] { make_domain<2>({40, 40}, 1, rules(Boundary::fixed), 30); }).find("thinner than the ghost zone"),
              std::string::npos);
  }
}

}  // namespace
