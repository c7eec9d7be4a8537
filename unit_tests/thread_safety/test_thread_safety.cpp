// The host paths under ThreadSanitizer (EbisuKokkos_ENABLE_THREAD_SANITIZER;
// CI's tsan stage): every way several OpenMP threads share one call's work -
// the generic step's rows (2-D, 3-D, with read-only fields, on several state
// fields and time levels), the blocked path's tiles and runs (1-D to 3-D,
// periodic and mirror sides, fields), and Backend::automatic's measured choice
// (timing runs on a copy, the process-wide cache) - small enough to run under
// the sanitizer in seconds. The sanitizer fails the test on any race report;
// the results must also equal bit for bit the same call on Kokkos::Serial
// (each cell's arithmetic is the same on every path and thread count).
#include <ebisu_kokkos/ebisu_kokkos.hpp>

#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <string>
#include <type_traits>

namespace {

using EbisuKokkos::Backend;
using EbisuKokkos::Boundary;

template <int Rank>
using Data = std::conditional_t<Rank == 1, double*, std::conditional_t<Rank == 2, double**, double***>>;
template <class Space, class Layout, int Rank>
using View = Kokkos::View<Data<Rank>, Layout, Space>;

template <class V>
V allocate(const std::string& label, const int (&n)[3]) {
  if constexpr (V::rank == 1) {
    return V(label, n[0]);
  } else if constexpr (V::rank == 2) {
    return V(label, n[0], n[1]);
  } else {
    return V(label, n[0], n[1], n[2]);
  }
}

// A field of distinct, non-trivial values (so a wrong neighbour changes the answer).
template <class V>
void fill(const V& v, double shift) {
  auto h = Kokkos::create_mirror_view(v);
  double* p = h.data();
  for (std::size_t i = 0; i < h.span(); ++i) p[i] = 0.5 + shift + static_cast<double>((i * 37 + 11) % 101) / 101.0;
  Kokkos::deep_copy(v, h);
}

template <class V>
auto host_copy(const V& v) {
  auto h = Kokkos::create_mirror_view(v);
  Kokkos::deep_copy(h, v);
  return h;
}

// Runs call(space views...) on OpenMP and on Serial from the same data and
// compares the results bit for bit. Call(u, scratch, extra...) returns the report.
template <class Layout, int Rank, class Call>
void compare_with_serial(const std::string& name, const int (&n)[3], int extra_views, const Call& call) {
  using VO = View<Kokkos::OpenMP, Layout, Rank>;
  using VS = View<Kokkos::Serial, Layout, Rank>;
  auto make = [&](auto tag, int k) {
    auto v = allocate<typename decltype(tag)::type>("v" + std::to_string(k), n);
    fill(v, 0.1 * k);
    return v;
  };
  struct O { using type = VO; };
  struct S { using type = VS; };
  VO o[4] = {make(O{}, 0), make(O{}, 1), make(O{}, 2), make(O{}, 3)};
  VS s[4] = {make(S{}, 0), make(S{}, 1), make(S{}, 2), make(S{}, 3)};
  const EbisuKokkos::StencilReport ro = call(Kokkos::OpenMP(), o);
  const EbisuKokkos::StencilReport rs = call(Kokkos::Serial(), s);
  for (int k = 0; k < 1 + extra_views; ++k) {
    const auto a = host_copy(o[k]);
    const auto b = host_copy(s[k]);
    std::size_t diff = 0;
    for (std::size_t i = 0; i < a.span(); ++i) diff += a.data()[i] != b.data()[i] ? 1 : 0;
    EXPECT_EQ(diff, 0u) << name << ": view " << k << " differs from Serial in " << diff << " cells; OpenMP plan: "
                        << ro.plan << "; Serial plan: " << rs.plan;
  }
}

template <int Rank>
struct VariableHeat {  // u' = u + div(k grad u), k read over the footprint
  template <class S>
  KOKKOS_INLINE_FUNCTION S operator()(const EbisuKokkos::Neighbors<S, Rank, 1>& u,
                                      const EbisuKokkos::Neighbors<S, Rank, 1>& k) const {
    S flux = 0;
    for (int a = 0; a < Rank; ++a) {
      const int d[3] = {a == 0, a == 1, a == 2};
      flux += S(0.05) * ((k(d[0], d[1], d[2]) + k(0, 0, 0)) * (u(d[0], d[1], d[2]) - u(0, 0, 0)) -
                         (k(-d[0], -d[1], -d[2]) + k(0, 0, 0)) * (u(0, 0, 0) - u(-d[0], -d[1], -d[2])));
    }
    return u(0, 0, 0) + flux;
  }
};

struct Leapfrog2D {
  template <class S>
  KOKKOS_INLINE_FUNCTION S operator()(const EbisuKokkos::Neighbors<S, 2, 1>& u,
                                      const EbisuKokkos::Neighbors<S, 2, 1>& u_prev) const {
    return S(2) * u(0, 0) - u_prev(0, 0) + S(0.2) * (u(1, 0) + u(-1, 0) + u(0, 1) + u(0, -1) - S(4) * u(0, 0));
  }
};

}  // namespace

TEST(thread_safety, generic_rows_2d_and_3d_with_a_field) {
  compare_with_serial<Kokkos::LayoutRight, 2>("j2d5pt", {131, 97, 1}, 0, [](auto space, auto& v) {
    EbisuKokkos::StencilPolicy<decltype(space)> policy(space, 6);
    policy.set_backend(Backend::generic);
    return EbisuKokkos::parallel_stencil("ts", policy, EbisuKokkos::presets::j2d5pt(), v[0], v[1]);
  });
  compare_with_serial<Kokkos::LayoutLeft, 3>("variable heat 3-D", {29, 33, 31}, 0, [](auto space, auto& v) {
    EbisuKokkos::StencilPolicy<decltype(space)> policy(space, 5);
    policy.set_backend(Backend::generic).set_boundary(0, Boundary::periodic);
    return EbisuKokkos::parallel_stencil("ts", policy, EbisuKokkos::make_stencil<3, 1>(VariableHeat<3>{}), v[0], v[1],
                                         EbisuKokkos::fields(v[2]));
  });
}

TEST(thread_safety, blocked_tiles_1d_2d_3d) {
  compare_with_serial<Kokkos::LayoutRight, 1>("j1d3pt", {20011, 1, 1}, 0, [](auto space, auto& v) {
    EbisuKokkos::StencilPolicy<decltype(space)> policy(space, 9);
    policy.set_backend(Backend::ebisu);
    return EbisuKokkos::parallel_stencil("ts", policy, EbisuKokkos::presets::j1d3pt(), v[0], v[1]);
  });
  compare_with_serial<Kokkos::LayoutRight, 2>("j2d9pt", {150, 140, 1}, 0, [](auto space, auto& v) {
    EbisuKokkos::StencilPolicy<decltype(space)> policy(space, 7);
    policy.set_backend(Backend::ebisu).set_temporal_depth(3).set_tile_width(48).set_boundary(1, Boundary::mirror);
    return EbisuKokkos::parallel_stencil("ts", policy, EbisuKokkos::presets::j2d9pt(), v[0], v[1]);
  });
  compare_with_serial<Kokkos::LayoutLeft, 3>("j3d7pt + source", {40, 36, 44}, 0, [](auto space, auto& v) {
    EbisuKokkos::StencilPolicy<decltype(space)> policy(space, 9);
    policy.set_backend(Backend::ebisu).set_boundary(2, Boundary::periodic);
    return EbisuKokkos::parallel_stencil("ts", policy, EbisuKokkos::with_source(EbisuKokkos::presets::j3d7pt()), v[0],
                                         v[1], EbisuKokkos::fields(EbisuKokkos::centre_only(v[2])));
  });
}

TEST(thread_safety, state_time_levels_on_the_generic_rows) {
  compare_with_serial<Kokkos::LayoutRight, 2>("leapfrog", {64, 70, 1}, 3, [](auto space, auto& v) {
    EbisuKokkos::StencilPolicy<decltype(space)> policy(space, 10);
    EbisuKokkos::TimeLevels<std::decay_t<decltype(v[0])>, 2> wave(v[0], v[1], v[2]);
    const auto report = EbisuKokkos::parallel_stencil("ts", policy, EbisuKokkos::make_stencil<2, 1>(Leapfrog2D{}), wave);
    Kokkos::deep_copy(v[3], wave.current());  // the newest level, wherever the ring left it
    return report;
  });
}

TEST(thread_safety, measured_choice_times_on_a_copy) {
  for (int call = 0; call < 2; ++call) {  // the second call finds the choice in the cache
    compare_with_serial<Kokkos::LayoutRight, 3>("j3d7pt measured", {48, 48, 48}, 0, [&](auto space, auto& v) {
      EbisuKokkos::StencilPolicy<decltype(space)> policy(space, 16);
      policy.set_selection(EbisuKokkos::Selection::measured);
      const auto report = EbisuKokkos::parallel_stencil("ts", policy, EbisuKokkos::presets::j3d7pt(), v[0], v[1]);
      if (std::is_same_v<decltype(space), Kokkos::OpenMP>) {
        EXPECT_NE(report.plan.find(call == 0 ? "measured choice (measured" : "measured choice (cached"),
                  std::string::npos)
            << report.plan;
      }
      return report;
    });
  }
}
