// A/B timing of 2-D device tiling (forced), DoubleBuffer form; checks against the generic path first.
#include <ebisu_kokkos/ebisu_kokkos.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>
template <class S>
void run(const char* name, S st, int n, int steps, int depth) {
  using V = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::CudaSpace>;
  V a("a", n, n, n), b("b", n, n, n);
  Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::Cuda>(0, long(n) * n * n), KOKKOS_LAMBDA(long i) {
    a.data()[i] = 1.0 + 1e-3 * double(i % 97); b.data()[i] = a.data()[i]; });
  if (!std::getenv("AB_NOCHECK")) for (int cs : {37, 5}) {  // correctness against the generic path
    V c("c", n, n, n), d("d", n, n, n), e("e", n, n, n), f("f", n, n, n);
    Kokkos::deep_copy(c, a); Kokkos::deep_copy(e, a);
    EbisuKokkos::StencilPolicy<Kokkos::Cuda> p1(cs), p2(cs);
    p1.set_backend(EbisuKokkos::Backend::ebisu).set_strategy(EbisuKokkos::Strategy::device_tiling);
    if (depth > 0) p1.set_temporal_depth(depth);
    p2.set_backend(EbisuKokkos::Backend::generic);
    EbisuKokkos::DoubleBuffer<V> b1(c, d), b2(e, f);
    EbisuKokkos::parallel_stencil("chk1", p1, st, b1);
    EbisuKokkos::parallel_stencil("chk2", p2, st, b2);
    V r1 = b1.current(), r2 = b2.current();
    double m = 0;
    Kokkos::parallel_reduce(Kokkos::RangePolicy<Kokkos::Cuda>(0, long(n) * n * n), KOKKOS_LAMBDA(long i, double& x) {
      const double dd = r1.data()[i] - r2.data()[i]; x = dd < 0 ? (-dd > x ? -dd : x) : (dd > x ? dd : x); }, Kokkos::Max<double>(m));
    std::printf("CHECK %s %d T=%d max|diff| %.3e %s\n", name, n, cs, m, m < 1e-12 ? "ok" : "WRONG");
  }
  EbisuKokkos::DoubleBuffer<V> buf(a, b);
  EbisuKokkos::StencilPolicy<Kokkos::Cuda> pol(steps);
  pol.set_backend(EbisuKokkos::Backend::ebisu).set_strategy(EbisuKokkos::Strategy::device_tiling);
  if (depth > 0) pol.set_temporal_depth(depth);
  auto rep = EbisuKokkos::parallel_stencil("ab", pol, st, buf);
  Kokkos::fence();
  std::vector<double> t;
  for (int r = 0; r < (std::getenv("AB_REPS") ? std::atoi(std::getenv("AB_REPS")) : 7); ++r) {
    auto s = std::chrono::steady_clock::now();
    EbisuKokkos::parallel_stencil("ab", pol, st, buf);
    Kokkos::fence();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - s).count());
  }
  std::sort(t.begin(), t.end()); if (t.size() < 4) t.resize(4, t.back());
  const double cells = double(n - 2 * st.radius) * (n - 2 * st.radius) * (n - 2 * st.radius) * steps;
  std::printf("RESULT %s %d d%d %.1f GCells/s  us/step %.3f  [%s]\n", name, n, depth, cells / t[3] * 1e-9,
              t[3] / steps * 1e6, rep.plan.c_str());
}
int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  const int depth = std::getenv("AB_DEPTH") ? std::atoi(std::getenv("AB_DEPTH")) : 0;
  for (int a = 1; a < argc; ++a) {
    const int n = std::atoi(argv[a]);
    const int steps = std::getenv("AB_STEPS") ? std::atoi(std::getenv("AB_STEPS")) : n >= 128 ? 1500 : n >= 64 ? 6000 : 12000;
    run("j3d7pt", EbisuKokkos::presets::j3d7pt(), n, steps, depth);
    if (!std::getenv("AB_STARS")) {
      run("poisson", EbisuKokkos::presets::poisson(), n, steps, depth);
    }
  }
}
