// Bad input gets an exception that names the problem, and leaves the caller's
// data untouched.
#include "support/run_case.hpp"

#include <cstdint>

namespace ebisu_test {

using Space = TEST_EXECSPACE;
using View2 = Kokkos::View<double**, Kokkos::LayoutRight, Space::memory_space>;

// Expects std::invalid_argument whose message contains `needle`, and u unchanged.
template <class F>
void expect_rejected(F&& call, const View2& u, const std::string& needle) {
  const Field before = download(u);
  try {
    call();
    ADD_FAILURE() << "no exception; expected one mentioning '" << needle << "'";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("parallel_stencil"), std::string::npos) << e.what();
  }
  Kokkos::fence();
  EXPECT_EQ(relative_error(download(u), before), 0.0) << "the caller's data changed";
}

inline View2 random_view(const std::string& label, int n0, int n1, unsigned seed) {
  View2 v(label, n0, n1);
  upload(v, random_field({n0, n1, 1}, seed));
  return v;
}

}  // namespace ebisu_test

using ebisu_test::expect_rejected;
using ebisu_test::random_view;
using ebisu_test::Space;
using ebisu_test::View2;

TEST(TEST_CATEGORY, rejects_negative_steps) {
  View2 u = random_view("u", 10, 10, 1), s("s", 10, 10);
  expect_rejected(
      [&] { EbisuKokkos::parallel_stencil("neg", EbisuKokkos::StencilPolicy<Space>(-1), EbisuKokkos::presets::j2d5pt(), u, s); },
      u, "steps must be >= 0");
}

TEST(TEST_CATEGORY, rejects_mismatched_extents) {
  View2 u = random_view("u", 10, 12, 2), s("s", 12, 10);
  expect_rejected(
      [&] { EbisuKokkos::parallel_stencil("ext", EbisuKokkos::StencilPolicy<Space>(3), EbisuKokkos::presets::j2d5pt(), u, s); },
      u, "extents (10, 12) but scratch has extents (12, 10)");
}

TEST(TEST_CATEGORY, rejects_aliased_views) {
  View2 u = random_view("u", 10, 10, 3);
  expect_rejected(
      [&] { EbisuKokkos::parallel_stencil("same", EbisuKokkos::StencilPolicy<Space>(3), EbisuKokkos::presets::j2d5pt(), u, u); },
      u, "alias");
  EbisuKokkos::DoubleBuffer<View2> same(u, u);
  expect_rejected(
      [&] { EbisuKokkos::parallel_stencil("pair", EbisuKokkos::StencilPolicy<Space>(3), EbisuKokkos::presets::j2d5pt(), same); },
      u, "alias");
  EXPECT_EQ(same.current().data(), u.data());
  // Two overlapping windows of one allocation.
  View2 big = random_view("big", 20, 10, 4);
  View2 top = Kokkos::subview(big, Kokkos::make_pair(0, 10), Kokkos::ALL);
  View2 mid = Kokkos::subview(big, Kokkos::make_pair(5, 15), Kokkos::ALL);
  expect_rejected(
      [&] { EbisuKokkos::parallel_stencil("overlap", EbisuKokkos::StencilPolicy<Space>(3), EbisuKokkos::presets::j2d5pt(), top, mid); },
      big, "alias");
}

TEST(TEST_CATEGORY, rejects_radius_too_large_for_domain) {
  View2 u = random_view("u", 4, 30, 5), s("s", 4, 30);
  expect_rejected(
      [&] { EbisuKokkos::parallel_stencil("r2", EbisuKokkos::StencilPolicy<Space>(1), EbisuKokkos::presets::j2d9pt(), u, s); },
      u, "radius 2 is too large for u's extent 4 along index 0");
}

TEST(TEST_CATEGORY, rejects_unallocated_views) {
  View2 u = random_view("u", 8, 8, 6);
  View2 empty = EbisuKokkos::Impl::unallocated_view<View2>();  // View2() (see impl/compat.hpp)
  expect_rejected(
      [&] { EbisuKokkos::parallel_stencil("empty", EbisuKokkos::StencilPolicy<Space>(1), EbisuKokkos::presets::j2d5pt(), u, empty); },
      u, "scratch is not allocated");
  EbisuKokkos::DoubleBuffer<View2> unset;  // default-constructed: two unallocated Views
  expect_rejected(
      [&] { EbisuKokkos::parallel_stencil("unset", EbisuKokkos::StencilPolicy<Space>(1), EbisuKokkos::presets::j2d5pt(), unset); },
      u, "u is not allocated");
}

// More than 2^31 cells is fine (cuda/test_large_domains.cpp), but one index
// runs in 32 bits. Unmanaged Views over addresses that are never touched:
// the check comes before anything reads or writes.
TEST(TEST_CATEGORY, rejects_an_extent_beyond_2_31) {
  using Huge = Kokkos::View<double*, Space::memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const std::size_t n = (std::size_t(1) << 31) + 7;
  Huge u(reinterpret_cast<double*>(std::uintptr_t(1) << 40), n), s(reinterpret_cast<double*>(std::uintptr_t(3) << 40), n);
  try {
    EbisuKokkos::parallel_stencil("huge", EbisuKokkos::StencilPolicy<Space>(1), EbisuKokkos::presets::j1d3pt(), u, s);
    ADD_FAILURE() << "no exception for an extent of " << n;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("extent 2147483655 along index 0 exceeds 2^31-1"), std::string::npos)
        << e.what();
  }
}

TEST(TEST_CATEGORY, rejects_wrong_number_of_coefficients) {
  EXPECT_THROW((EbisuKokkos::star_stencil<2, 1>({0.25, 0.25, 0.5})), std::invalid_argument);
}

TEST(TEST_CATEGORY, forced_ebisu_backend_is_an_error_where_unavailable) {
  View2 u = random_view("u", 16, 16, 7), s("s", 16, 16);
  using Stencil = decltype(EbisuKokkos::presets::j2d5pt());
  if constexpr (!EbisuKokkos::ebisu_available<Space, Stencil, View2>) {
    EbisuKokkos::StencilPolicy<Space> policy(3);
    policy.set_backend(EbisuKokkos::Backend::ebisu);
    expect_rejected([&] { EbisuKokkos::parallel_stencil("forced", policy, EbisuKokkos::presets::j2d5pt(), u, s); }, u,
                    "Backend::ebisu was requested");
  } else {
    // 1-D: the host blocked path, and segment tiling on GPUs.
    Kokkos::View<double*, Space::memory_space> u1("u1", 64), s1("s1", 64);
    EbisuKokkos::StencilPolicy<Space> policy(3);
    policy.set_backend(EbisuKokkos::Backend::ebisu);
    EXPECT_EQ(EbisuKokkos::parallel_stencil("forced1d", policy, EbisuKokkos::presets::j1d3pt(), u1, s1).backend,
              EbisuKokkos::Backend::ebisu);
  }
}

TEST(TEST_CATEGORY, allocating_overload_and_unmanaged_views) {
  const ebisu_test::Field init = ebisu_test::random_field({12, 15, 1}, 8);
  const auto stencil = EbisuKokkos::presets::j2d5pt();
  const auto ref = ebisu_test::reference_run(init, 2, 1, ebisu_test::update_of("j2d5pt", stencil), 5);

  View2 u("u", 12, 15);
  ebisu_test::upload(u, init);
  EbisuKokkos::parallel_stencil("alloc", EbisuKokkos::StencilPolicy<Space>(Space(), 5), stencil, u);
  Kokkos::fence();
  EXPECT_LE(ebisu_test::relative_error(ebisu_test::download(u), ref), 1e-12);

  // Unmanaged Views over caller-owned allocations work the same.
  View2 a("a", 12, 15), b("b", 12, 15);
  ebisu_test::upload(a, init);
  Kokkos::View<double**, Kokkos::LayoutRight, Space::memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>> ua(
      a.data(), 12, 15),
      ub(b.data(), 12, 15);
  EbisuKokkos::parallel_stencil("unmanaged", EbisuKokkos::StencilPolicy<Space>(Space(), 5), stencil, ua, ub);
  Kokkos::fence();
  EXPECT_LE(ebisu_test::relative_error(ebisu_test::download(a), ref), 1e-12);
}

TEST(TEST_CATEGORY, report_names_the_backend_and_plan) {
  View2 u = random_view("u", 64, 64, 9), s("s", 64, 64);
  const auto stencil = EbisuKokkos::presets::j2d5pt();
  using Stencil = decltype(stencil);
  EbisuKokkos::StencilPolicy<Space> policy(Space(), 10);
  const auto report = EbisuKokkos::parallel_stencil("report", policy, stencil, u, s);
  Kokkos::fence();
  if (EbisuKokkos::ebisu_available<Space, Stencil, View2> && EbisuKokkos::Impl::runs_on_host<Space>) {
    // Two 64^2 fields fit in any core's L2: automatic keeps the plain path and says why ...
    EXPECT_EQ(report.backend, EbisuKokkos::Backend::generic) << report.plan;
    EXPECT_NE(report.plan.find("host blocking not used"), std::string::npos) << report.plan;
    // ... and Backend::ebisu blocks: one parallel dispatch per `depth` steps.
    policy.set_backend(EbisuKokkos::Backend::ebisu);
    const auto forced = EbisuKokkos::parallel_stencil("report", policy, stencil, u, s);
    Kokkos::fence();
    EXPECT_EQ(forced.backend, EbisuKokkos::Backend::ebisu) << forced.plan;
    EXPECT_GE(forced.temporal_depth, 2);
    EXPECT_EQ(forced.launches, (10 + forced.temporal_depth - 1) / forced.temporal_depth) << forced.plan;
    EXPECT_NE(forced.plan.find("host temporal blocking"), std::string::npos) << forced.plan;
  } else if (EbisuKokkos::ebisu_available<Space, Stencil, View2>) {
    EXPECT_EQ(report.backend, EbisuKokkos::Backend::ebisu) << report.plan;
    EXPECT_GE(report.temporal_depth, 1);
    EXPECT_GT(report.predicted_gcells_per_s, 0.0);
  } else {
    EXPECT_EQ(report.backend, EbisuKokkos::Backend::generic);
    EXPECT_EQ(report.launches, 10);
  }
  EXPECT_FALSE(report.plan.empty());
}
