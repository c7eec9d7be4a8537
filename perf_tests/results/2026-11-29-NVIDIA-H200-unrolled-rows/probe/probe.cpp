// Depth-10 / depth-8 SM-tiling probe: GCells/s of forced plans, median of 5.
#include <ebisu_kokkos/ebisu_kokkos.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
#include <cstdlib>
#include <string>

template <class S>
void run(const char* name, const S& st, int n, int T, int depth, EbisuKokkos::Strategy strat, bool periodic = false) {
  using View = Kokkos::View<double**>;
  View u("u", n, n), v("v", n, n);
  Kokkos::parallel_for("init", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {n, n}),
                       KOKKOS_LAMBDA(int i, int j) { u(i, j) = 1.0 + 0.001 * ((i * 7 + j * 13) % 101); });
  EbisuKokkos::StencilPolicy<> pol(T);
  // depth > 0: forced SM tiling of that depth; -1: automatic; -100 - d: automatic with depth d
  pol.set_backend(depth >= 0 ? EbisuKokkos::Backend::ebisu : EbisuKokkos::Backend::automatic);
  if (depth >= 0) pol.set_strategy(strat);
  if (depth > 0) pol.set_temporal_depth(depth);
  if (depth <= -100) pol.set_temporal_depth(-100 - depth);
  if (periodic) pol.set_boundary(0, EbisuKokkos::Boundary::periodic).set_boundary(1, EbisuKokkos::Boundary::periodic);
  EbisuKokkos::StencilReport rep;
  std::vector<double> t;
  for (int r = 0; r < 6; ++r) {
    Kokkos::fence();
    auto a = std::chrono::steady_clock::now();
    rep = EbisuKokkos::parallel_stencil("probe", pol, st, u, v);
    Kokkos::fence();
    auto b = std::chrono::steady_clock::now();
    if (r > 0) t.push_back(std::chrono::duration<double>(b - a).count());
  }
  std::string reps;
  for (double x : t) reps += " " + std::to_string(x * 1e3).substr(0, 6);
  std::sort(t.begin(), t.end());
  const double med = t[t.size() / 2];
  std::printf("%s%-11s n=%5d T=%4d depth=%3d  %8.1f GCells/s  (%.3f ms; reps%s)  plan: %s\n", periodic ? "periodic " : "", name, n, T, depth,
              double(n) * n * T / med * 1e-9, med * 1e3, reps.c_str(), rep.plan.c_str());
  std::fflush(stdout);
}

struct BoxAverage {
  template <class N>
  KOKKOS_INLINE_FUNCTION auto operator()(const N& n) const -> typename N::value_type {
    return 0.2 * (n(-1, 0) + n(1, 0) + n(0, -1) + n(0, 1)) + 0.05 * (n(1, 1) + n(-1, -1)) + 0.1 * n(0, 0);
  }
};
struct VariableHeat2 {
  double dt;
  template <class S>
  KOKKOS_INLINE_FUNCTION S operator()(const EbisuKokkos::Neighbors<S, 2, 1>& u, const EbisuKokkos::Neighbors<S, 2, 1>& k) const {
    const S c = u(0, 0), kc = k(0, 0);
    const S sum = (k(-1, 0) + kc) * (u(-1, 0) - c) + (k(1, 0) + kc) * (u(1, 0) - c) + (k(0, -1) + kc) * (u(0, -1) - c) +
                  (k(0, 1) + kc) * (u(0, 1) - c);
    return c + S(0.5 * dt) * sum;
  }
};
// One read-only field f (values in [lo, hi]); depth > 0 forced SM tiling, -1 automatic.
template <bool Centre, class S>
void run_field(const char* name, const S& st, double lo, double hi, int n, int T, int depth) {
  using View = Kokkos::View<double**>;
  View u("u", n, n), v("v", n, n), f("f", n, n);
  Kokkos::parallel_for("init", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {n, n}), KOKKOS_LAMBDA(int i, int j) {
    u(i, j) = 1.0 + 0.001 * ((i * 7 + j * 13) % 101);
    f(i, j) = lo + (hi - lo) * ((i * 3 + j * 5) % 17) / 16.0;
  });
  EbisuKokkos::StencilPolicy<> pol(T);
  pol.set_backend(depth > 0 ? EbisuKokkos::Backend::ebisu : EbisuKokkos::Backend::automatic);
  if (depth > 0) pol.set_temporal_depth(depth).set_strategy(EbisuKokkos::Strategy::sm_tiling);
  EbisuKokkos::StencilReport rep;
  std::vector<double> t;
  for (int r = 0; r < 6; ++r) {
    Kokkos::fence();
    auto a = std::chrono::steady_clock::now();
    if constexpr (Centre) rep = EbisuKokkos::parallel_stencil("probe", pol, st, u, v, EbisuKokkos::fields(EbisuKokkos::centre_only(f)));
    else rep = EbisuKokkos::parallel_stencil("probe", pol, st, u, v, EbisuKokkos::fields(f));
    Kokkos::fence();
    auto b = std::chrono::steady_clock::now();
    if (r > 0) t.push_back(std::chrono::duration<double>(b - a).count());
  }
  std::sort(t.begin(), t.end());
  const double med = t[t.size() / 2];
  std::printf("%-14s n=%5d T=%4d depth=%3d  %8.1f GCells/s  (%.3f ms)  plan: %s\n", name, n, T, depth,
              double(n) * n * T / med * 1e-9, med * 1e3, rep.plan.c_str());
  std::fflush(stdout);
}

// 3-D: LayoutLeft (x fastest), the paper's 2560 x 288 x 384; depth > 0 forced SM tiling of that depth, -1 automatic.
template <class S>
void run3(const char* name, const S& st, int nx, int ny, int nz, int T, int depth, bool periodic = false) {
  using View = Kokkos::View<double***, Kokkos::LayoutLeft>;
  View u("u", nx, ny, nz), v("v", nx, ny, nz);
  Kokkos::parallel_for("init", Kokkos::MDRangePolicy<Kokkos::Rank<3>>({0, 0, 0}, {nx, ny, nz}),
                       KOKKOS_LAMBDA(int i, int j, int k) { u(i, j, k) = 1.0 + 0.001 * ((i * 7 + j * 13 + k * 5) % 101); });
  EbisuKokkos::StencilPolicy<> pol(T);
  pol.set_backend(depth > 0 ? EbisuKokkos::Backend::ebisu : EbisuKokkos::Backend::automatic);
  if (depth > 0) pol.set_temporal_depth(depth).set_strategy(EbisuKokkos::Strategy::sm_tiling);
  if (periodic) for (int a = 0; a < 3; ++a) pol.set_boundary(a, EbisuKokkos::Boundary::periodic);
  EbisuKokkos::StencilReport rep;
  std::vector<double> t;
  for (int r = 0; r < 6; ++r) {
    Kokkos::fence();
    auto a = std::chrono::steady_clock::now();
    rep = EbisuKokkos::parallel_stencil("probe", pol, st, u, v);
    Kokkos::fence();
    auto b = std::chrono::steady_clock::now();
    if (r > 0) t.push_back(std::chrono::duration<double>(b - a).count());
  }
  std::sort(t.begin(), t.end());
  const double med = t[t.size() / 2];
  std::printf("%s%-8s %dx%dx%d T=%4d depth=%3d  %8.1f GCells/s  (%.3f ms)  plan: %s\n", periodic ? "periodic " : "", name, nx, ny,
              nz, T, depth, double(nx) * ny * nz * T / med * 1e-9, med * 1e3, rep.plan.c_str());
  std::fflush(stdout);
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  using EbisuKokkos::Strategy;
  namespace P = EbisuKokkos::presets;
  if (std::getenv("PROBE_R2")) {
    for (int n : {4096, 8192}) {
      const int T = n == 4096 ? 600 : 240;
      for (int d : {6, -1}) run("j2d9pt", P::j2d9pt(), n, T, d, Strategy::sm_tiling);
    }
    for (int d : {8, -1}) run("j2d5pt", P::j2d5pt(), 8192, 240, d, Strategy::sm_tiling, true);
    for (int d : {8, -1}) run("j2d5pt", P::j2d5pt(), 8192, 240, d, Strategy::sm_tiling);
    return 0;
  }
  if (std::getenv("PROBE_3D")) {
    for (int d : {4, -1}) run3("j3d7pt", P::j3d7pt(), 2560, 288, 384, 120, d);
    for (int d : {2, -1}) run3("j3d13pt", P::j3d13pt(), 2560, 288, 384, 120, d);
    for (int d : {2, -1}) run3("j3d17pt", P::j3d17pt(), 2560, 288, 384, 120, d);
    for (int d : {2, -1}) run3("j3d27pt", P::j3d27pt(), 2560, 288, 384, 120, d);
    for (int d : {2, -1}) run3("poisson", P::poisson(), 2560, 288, 384, 120, d);
    for (int d : {-1}) run3("j3d7pt", P::j3d7pt(), 512, 512, 512, 120, d);
    for (int d : {-1}) run3("poisson", P::poisson(), 512, 512, 512, 120, d);
    for (int d : {-1}) run3("poisson", P::poisson(), 2560, 288, 384, 120, d, true);
    for (int d : {-1}) run3("j3d7pt", P::j3d7pt(), 256, 256, 256, 480, d);
    return 0;
  }
  if (std::getenv("PROBE_CHAINS")) {
    for (int n : {256, 512, 1024}) {
      const int T = n == 1024 ? 4800 : 10000;
      for (int d : {0, -1}) run("j2d25pt", P::j2d25pt(), n, T, d, Strategy::device_tiling);
    }
    for (int d : {4, 6, -1}) run("j2d25pt", P::j2d25pt(), 8192, 120, d, Strategy::sm_tiling);
    for (int d : {0}) run("j2d25pt", P::j2d25pt(), 2048, 480, d, Strategy::sm_tiling);
    return 0;
  }
  if (std::getenv("PROBE_FIELDS")) {
    const auto heat = EbisuKokkos::make_stencil<2, 1, EbisuKokkos::StarShape>(VariableHeat2{0.1});
    const auto box = EbisuKokkos::make_stencil<2, 1, EbisuKokkos::BoxShape>(BoxAverage{});
    for (int d : {8, -1}) run("j2d5pt", P::j2d5pt(), 8192, 240, d, Strategy::sm_tiling);
    for (int d : {8, 4, -1}) run_field<true>("j2d5pt-source", EbisuKokkos::with_source(P::j2d5pt()), -0.01, 0.01, 8192, 240, d);
    for (int d : {8, 4, -1}) run_field<false>("heat2d-var", heat, 0.5, 1.5, 8192, 240, d);
    for (bool per : {false, true})
      for (int d : {8, -1}) run("box-functor", box, 8192, 240, d, Strategy::sm_tiling, per);
    return 0;
  }
  if (std::getenv("PROBE_BPS")) {
    for (const char* bps : {"3", "2", "1"}) {
      setenv("EBISU_PROBE_BPS", bps, 1);
      std::printf("-- blocks per SM at most %s\n", bps);
      for (int d : {8, 10}) run("j2d5pt", P::j2d5pt(), 2048, 960, d, Strategy::sm_tiling);
      run("j2d5pt", P::j2d5pt(), 4096, 480, 10, Strategy::sm_tiling);
      run("j2d9pt-gol", P::j2d9pt_gol(), 2048, 960, 8, Strategy::sm_tiling);
    }
    unsetenv("EBISU_PROBE_BPS");
    return 0;
  }
  if (std::getenv("PROBE_BOX")) {
    for (int n : {2048, 8192}) {
      const int T = n == 2048 ? 960 : 240;
      for (int d : {8, -1}) run("j2d9pt-gol", P::j2d9pt_gol(), n, T, d, Strategy::sm_tiling);
      for (int d : {4, -1}) run("j2d25pt", P::j2d25pt(), n, T / 2, d, Strategy::sm_tiling);
      for (int d : {6, -1}) run("j2d9pt", P::j2d9pt(), n, T, d, Strategy::sm_tiling);
    }
    for (int d : {8, -1}) run("j2d9pt-gol", P::j2d9pt_gol(), 8192, 240, d, Strategy::sm_tiling, true);
    return 0;
  }
  if (std::getenv("PROBE_ONLY")) {
    run("j2d5pt", P::j2d5pt(), 2048, 960, 10, Strategy::sm_tiling);
    return 0;
  }
  if (std::getenv("PROBE_GOL")) {
    for (int d : {-1, 8, -1, -108, 8}) run("j2d9pt-gol", P::j2d9pt_gol(), 8192, 240, d, Strategy::sm_tiling);
    return 0;
  }
  for (int n : {2048, 8192}) {
    const int T = n == 2048 ? 960 : 240;
    for (int d : {10, 8, -1}) run("j2d5pt", P::j2d5pt(), n, T, d, Strategy::sm_tiling);
    for (int d : {10, 8, -1}) run("j2d9pt-gol", P::j2d9pt_gol(), n, T, d, Strategy::sm_tiling);
  }
}
