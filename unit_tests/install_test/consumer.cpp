#include <ebisu_kokkos/ebisu_kokkos.hpp>

#include <cmath>
#include <cstdio>

// A 1-D heat step through the installed package; checks one value by hand.
int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  Kokkos::View<double*> u("u", 5);
  auto h = Kokkos::create_mirror_view(u);
  for (int i = 0; i < 5; ++i) h(i) = i * i;  // 0 1 4 9 16
  Kokkos::deep_copy(u, h);
  const auto heat = EbisuKokkos::star_stencil<1, 1>({0.25, 0.5, 0.25});
  EbisuKokkos::parallel_stencil("consumer", EbisuKokkos::StencilPolicy<>(1), heat, u);
  Kokkos::deep_copy(h, u);
  // u(2) = 0.25*1 + 0.5*4 + 0.25*9 = 4.5; the edges stay.
  const bool ok = std::fabs(h(2) - 4.5) < 1e-14 && h(0) == 0 && h(4) == 16;
  std::printf("consumer: u(2) = %g (%s)\n", h(2), ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
