// Depth-10 / depth-8 SM-tiling probe: GCells/s of forced plans, median of 5.
#include <ebisu_kokkos/ebisu_kokkos.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
#include <cstdlib>
#include <string>

template <class S>
void run(const char* name, const S& st, int n, int T, int depth, EbisuKokkos::Strategy strat) {
  using View = Kokkos::View<double**>;
  View u("u", n, n), v("v", n, n);
  Kokkos::parallel_for("init", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {n, n}),
                       KOKKOS_LAMBDA(int i, int j) { u(i, j) = 1.0 + 0.001 * ((i * 7 + j * 13) % 101); });
  EbisuKokkos::StencilPolicy<> pol(T);
  // depth > 0: forced SM tiling of that depth; -1: automatic; -100 - d: automatic with depth d
  pol.set_backend(depth > 0 ? EbisuKokkos::Backend::ebisu : EbisuKokkos::Backend::automatic);
  if (depth > 0) pol.set_temporal_depth(depth).set_strategy(strat);
  if (depth <= -100) pol.set_temporal_depth(-100 - depth);
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
  std::printf("%-11s n=%5d T=%4d depth=%3d  %8.1f GCells/s  (%.3f ms; reps%s)  plan: %s\n", name, n, T, depth,
              double(n) * n * T / med * 1e-9, med * 1e3, reps.c_str(), rep.plan.c_str());
  std::fflush(stdout);
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  using EbisuKokkos::Strategy;
  namespace P = EbisuKokkos::presets;
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
