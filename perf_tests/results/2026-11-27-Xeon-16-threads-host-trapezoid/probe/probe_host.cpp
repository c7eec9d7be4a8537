// Host 3-D blocking probe: a preset at Z x Y x X, forced blocked plans over depth x tile, against the
// bench's hand loop, the generic path and automatic. Args: stencil Z Y X T depths(csv) tiles(csv of HxW, 0x0 = model's)
#include <ebisu_kokkos/ebisu_kokkos.hpp>
#include <Kokkos_Core.hpp>
#include "openmp_loop_variant.hpp"
#include <omp.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

using View = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;

template <class F> double median_s(int reps, F f) {
  std::vector<double> t;
  f();
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <class Stencil>
void probe(const Stencil& st, long z, long y, long x, int T, const std::vector<int>& depths,
           const std::vector<std::pair<int, int>>& tiles) {
  View u("u", z, y, x), s("s", z, y, x);
  Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, z), [=](long i) {
    for (long j = 0; j < y; ++j) for (long k = 0; k < x; ++k) { u(i, j, k) = 1.0 + 0.001 * ((i * 7 + j * 3 + k) % 101); s(i, j, k) = u(i, j, k); }
  });
  constexpr int R = Stencil::radius;
  const double cells = double(z - 2 * R) * (y - 2 * R) * (x - 2 * R) * T;
  std::vector<double> c(Stencil::num_points);
  for (int k = 0; k < Stencil::num_points; ++k) c[k] = st.coefficient(k);
  auto loop = ebisu_bench::openmp_loop<typename Stencil::points, double, 3, R>(u, s, c, T);
  std::printf("threads %d %ldx%ldx%ld T %d\n", omp_get_max_threads(), z, y, x, T);
  std::printf("hand-loop %.2f GCells/s\n", cells / median_s(5, loop) * 1e-9);
  auto run = [&](EbisuKokkos::Backend b, int depth, int th, int tw, std::string* plan) {
    EbisuKokkos::StencilPolicy<Kokkos::DefaultHostExecutionSpace> p(T);
    p.set_backend(b);
    if (depth) p.set_temporal_depth(depth);
    if (th) p.set_tile_height(th);
    if (tw) p.set_tile_width(tw);
    EbisuKokkos::DoubleBuffer<View> buf(u, s);
    return cells / median_s(5, [&] {
             auto r = EbisuKokkos::parallel_stencil("probe", p, st, buf);
             if (plan) *plan = r.plan;
           }) * 1e-9;
  };
  std::string plan;
  std::printf("generic %.2f\n", run(EbisuKokkos::Backend::generic, 0, 0, 0, nullptr));
  const double automatic = run(EbisuKokkos::Backend::automatic, 0, 0, 0, &plan);  // before plan is read
  std::printf("automatic %.2f | %s\n", automatic, plan.c_str());
  for (int d : depths)
    for (auto& t : tiles) {
      const double g = run(EbisuKokkos::Backend::ebisu, d, t.first, t.second, &plan);
      std::printf("d%d tile %3dx%3d %.2f | %s\n", d, t.first, t.second, g, plan.substr(0, 190).c_str());
      std::fflush(stdout);
    }
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  if (argc < 8) { std::fprintf(stderr, "args: stencil Z Y X T depths tiles\n"); return 2; }
  const std::string name = argv[1];
  const long z = std::atol(argv[2]), y = std::atol(argv[3]), x = std::atol(argv[4]);
  const int T = std::atoi(argv[5]);
  std::vector<int> depths;
  { std::stringstream ss(argv[6]); std::string tok; while (std::getline(ss, tok, ',')) depths.push_back(std::atoi(tok.c_str())); }
  std::vector<std::pair<int, int>> tiles;
  { std::stringstream ss(argv[7]); std::string tok; while (std::getline(ss, tok, ',')) { int h = 0, w = 0; std::sscanf(tok.c_str(), "%dx%d", &h, &w); tiles.push_back({h, w}); } }
  std::printf("stencil %s\n", name.c_str());
  if (name == "j3d7pt") probe(EbisuKokkos::presets::j3d7pt(), z, y, x, T, depths, tiles);
  else if (name == "j3d27pt") probe(EbisuKokkos::presets::j3d27pt(), z, y, x, T, depths, tiles);
  else if (name == "poisson") probe(EbisuKokkos::presets::poisson(), z, y, x, T, depths, tiles);
  else if (name == "j3d13pt") probe(EbisuKokkos::presets::j3d13pt(), z, y, x, T, depths, tiles);
  else if (name == "j3d17pt") probe(EbisuKokkos::presets::j3d17pt(), z, y, x, T, depths, tiles);
  else { std::fprintf(stderr, "unknown stencil\n"); return 2; }
  return 0;
}
