// Host 3-D blocking probe: j3d7pt / poisson at N^3, forced blocked plans over depth x tile, against a plain loop.
#include <ebisu_kokkos/ebisu_kokkos.hpp>
#include <Kokkos_Core.hpp>
#include <omp.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>

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

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  const long n = argc > 1 ? std::atol(argv[1]) : 256;
  const int T = argc > 2 ? std::atoi(argv[2]) : 16;
  View u("u", n, n, n), s("s", n, n, n);
  Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, n), [=](long i) {
    for (long j = 0; j < n; ++j) for (long k = 0; k < n; ++k) { u(i, j, k) = 1.0 + 0.001 * ((i * 7 + j * 3 + k) % 101); s(i, j, k) = u(i, j, k); }
  });
  const double cells = double(n - 2) * (n - 2) * (n - 2) * T;
  // plain: omp parallel for + simd over raw pointers
  auto plain = [&] {
    double* a = u.data(); double* b = s.data();
    for (int t = 0; t < T; ++t) {
#pragma omp parallel for schedule(static)
      for (long i = 1; i < n - 1; ++i)
        for (long j = 1; j < n - 1; ++j) {
          const double* c = a + (i * n + j) * n;
          double* o = b + (i * n + j) * n;
#pragma omp simd
          for (long k = 1; k < n - 1; ++k)
            o[k] = 0.1 * c[k] + 0.11 * c[k - 1] + 0.12 * c[k + 1] + 0.13 * c[k - n] + 0.14 * c[k + n] + 0.15 * c[k - n * n] + 0.16 * c[k + n * n];
        }
      std::swap(a, b);
    }
  };
  std::printf("threads %d n %ld T %d\n", omp_get_max_threads(), n, T);
  std::printf("plain-loop %.2f GCells/s\n", cells / median_s(5, plain) * 1e-9);
  auto st = EbisuKokkos::presets::j3d7pt();
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
  std::printf("automatic %.2f\n", run(EbisuKokkos::Backend::automatic, 0, 0, 0, &plan));
  std::printf("   %s\n", plan.c_str());
  const int depths[] = {2, 3, 4, 6, 8};
  const int tiles[][2] = {{0, 0}, {8, 256}, {16, 64}, {16, 128}, {16, 256}, {32, 32}, {32, 128}, {64, 64}, {32, 256}};
  for (int d : depths)
    for (auto& t : tiles) {
      const double g = run(EbisuKokkos::Backend::ebisu, d, t[0], t[1], &plan);
      std::printf("d%d tile %3dx%3d %.2f | %s\n", d, t[0], t[1], g, plan.substr(0, 150).c_str());
      std::fflush(stdout);
    }
  return 0;
}
