// Fixed-frame j2d5pt 8352^2 timing, forced SM tiling at depths 8 and 10 and automatic: one binary per header tree.
#include <ebisu_kokkos/ebisu_kokkos.hpp>
#include <cstdio>
#include <string>
using View = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::CudaSpace>;
int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 8352, steps = 100;
    View u("u", n, n), v("v", n, n);
    Kokkos::parallel_for("init", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {n, n}), KOKKOS_LAMBDA(int i, int j) {
      u(i, j) = 0.001 * ((i * 7 + j * 13) % 101); v(i, j) = u(i, j); });
    const std::string mode = argc > 2 ? argv[2] : "fixed";  // fixed, p (periodic), m (mirror); "s" suffix: equal weights
    const bool equal = mode.size() > 1 && mode.back() == 's';
    const EbisuKokkos::LinearStencil<2, 1, EbisuKokkos::StarShape> stencil =
        equal ? EbisuKokkos::LinearStencil<2, 1, EbisuKokkos::StarShape>{0.2, 0.2, 0.2, 0.2, 0.2} : EbisuKokkos::presets::j2d5pt();
    const EbisuKokkos::Boundary rule = mode[0] == 'p' ? EbisuKokkos::Boundary::periodic
                                       : mode[0] == 'm' ? EbisuKokkos::Boundary::mirror : EbisuKokkos::Boundary::fixed;
    for (int depth : {0, 8, 10}) {
      auto run = [&]() {
        EbisuKokkos::StencilPolicy<Kokkos::Cuda> policy(Kokkos::Cuda(), steps);
        policy.set_boundary(0, rule).set_boundary(1, rule);
        if (depth) policy.set_backend(EbisuKokkos::Backend::ebisu).set_strategy(EbisuKokkos::Strategy::sm_tiling).set_temporal_depth(depth);
        EbisuKokkos::DoubleBuffer<View> buf(u, v);
        auto r = EbisuKokkos::parallel_stencil("fixed", policy, stencil, buf);
        Kokkos::fence();
        return r;
      };
      run();
      double best = 1e9, sum = 0;
      for (int i = 0; i < 7; ++i) { Kokkos::Timer t; run(); const double s = t.seconds(); best = std::min(best, s); sum += s; }
      std::printf("%s %s depth %2d: best %.3f ms (%.1f GCells/s), mean %.3f ms\n", argc > 1 ? argv[1] : "", mode.c_str(), depth, best * 1e3, double(n) * n * steps / best * 1e-9, sum / 7 * 1e3);
    }
  }
  Kokkos::finalize();
}
