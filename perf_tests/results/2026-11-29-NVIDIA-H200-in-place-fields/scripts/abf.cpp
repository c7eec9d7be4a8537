// fp32 read-only fields at 96^3-128^3: in-place, SM tiling and automatic, the u' = u + dt div(k grad u)
// heat (star-declared functor, conductivity over the footprint) and j3d7pt with a centre-only source.
#include <ebisu_kokkos/ebisu_kokkos.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
struct Heat {
  float dt;
  KOKKOS_INLINE_FUNCTION float operator()(const EbisuKokkos::Neighbors<float, 3, 1>& u,
                                          const EbisuKokkos::Neighbors<float, 3, 1>& k) const {
    const float c = k(0, 0, 0), u0 = u(0, 0, 0);
    const float f = (c + k(-1, 0, 0)) * (u(-1, 0, 0) - u0) + (c + k(1, 0, 0)) * (u(1, 0, 0) - u0) +
                    (c + k(0, -1, 0)) * (u(0, -1, 0) - u0) + (c + k(0, 1, 0)) * (u(0, 1, 0) - u0) +
                    (c + k(0, 0, -1)) * (u(0, 0, -1) - u0) + (c + k(0, 0, 1)) * (u(0, 0, 1) - u0);
    return u0 + 0.5f * dt * f;
  }
};
using V = Kokkos::View<float***, Kokkos::LayoutRight, Kokkos::CudaSpace>;
template <class S, class F>
void run(const char* name, const S& st, const F& fieldarg, int n, int steps, EbisuKokkos::Strategy strategy,
         EbisuKokkos::Backend backend, V a0) {
  V a("a", n, n, n), b("b", n, n, n);
  std::vector<double> t;
  EbisuKokkos::StencilReport rep;
  for (int r = 0; r < 8; ++r) {
    Kokkos::deep_copy(a, a0);
    Kokkos::fence();
    EbisuKokkos::StencilPolicy<Kokkos::Cuda> pol(steps);
    pol.set_backend(backend).set_strategy(strategy);
    auto s = std::chrono::steady_clock::now();
    rep = EbisuKokkos::parallel_stencil("abf", pol, st, a, b, fieldarg);
    Kokkos::fence();
    if (r > 0) t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - s).count());
  }
  std::sort(t.begin(), t.end());
  double sum = 0;
  Kokkos::parallel_reduce(Kokkos::RangePolicy<Kokkos::Cuda>(0, long(n) * n * n),
                          KOKKOS_LAMBDA(long i, double& x) { x += a.data()[i]; }, sum);
  const double cells = double(n - 2) * (n - 2) * (n - 2) * steps;
  std::printf("RESULT %s %d %s %.1f GCells/s checksum %.6e [%s]\n", name, n, EbisuKokkos::to_string(rep.strategy),
              cells / t[3] * 1e-9, sum, rep.plan.substr(0, 160).c_str());
}
int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  using EbisuKokkos::Backend;
  using EbisuKokkos::Strategy;
  for (int a = 1; a < argc; ++a) {
    const int n = std::atoi(argv[a]);
    const int steps = 400;
    V u0("u0", n, n, n), k("k", n, n, n), f("f", n, n, n);
    Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::Cuda>(0, long(n) * n * n), KOKKOS_LAMBDA(long i) {
      u0.data()[i] = 1.0f + 1e-3f * float(i % 97);
      k.data()[i] = 0.5f + float(i % 7) / 7.0f;
      f.data()[i] = 1e-4f * float(i % 5);
    });
    const auto heat = EbisuKokkos::make_stencil<3, 1, EbisuKokkos::StarShape>(Heat{0.08f});
    const auto source = EbisuKokkos::with_source(EbisuKokkos::presets::j3d7pt());
    const auto kf = EbisuKokkos::fields(k);
    const auto ff = EbisuKokkos::fields(EbisuKokkos::centre_only(f));
    for (Strategy s : {Strategy::in_place_tiling, Strategy::sm_tiling, Strategy::device_tiling}) {
      run("heat-var", heat, kf, n, steps, s, Backend::ebisu, u0);
      run("j3d7pt-src", source, ff, n, steps, s, Backend::ebisu, u0);
    }
    run("heat-var", heat, kf, n, steps, Strategy::automatic, Backend::generic, u0);
    run("j3d7pt-src", source, ff, n, steps, Strategy::automatic, Backend::generic, u0);
    run("heat-var", heat, kf, n, steps, Strategy::automatic, Backend::automatic, u0);
    run("j3d7pt-src", source, ff, n, steps, Strategy::automatic, Backend::automatic, u0);
  }
}
