// Register counts of the 2-D SM-tiling kernels of j2d5pt / j2d9pt-gol (LayoutLeft, fixed frame), depths 10 and 8.
#include <ebisu_kokkos/ebisu_kokkos.hpp>
#include <cstdio>
namespace P = EbisuKokkos::presets;
namespace E = EbisuKokkos::Impl::Cuda::ebisu2d;
using S5 = decltype(P::j2d5pt());
using S9 = decltype(P::j2d9pt_gol());
int main() {
  const void* k[] = {
      reinterpret_cast<const void*>(E::Kernel<S5, double, false, 10, 1, 1>::function<false>()),
      reinterpret_cast<const void*>(E::Kernel<S5, double, false, 8, 1, 1>::function<false>()),
#ifdef KPROBE_GOL
      reinterpret_cast<const void*>(E::Kernel<S9, double, false, 10, 1, 1>::function<false>()),
      reinterpret_cast<const void*>(E::Kernel<S9, double, false, 8, 1, 1>::function<false>()),
#endif
  };
  std::printf("%p\n", k[0]);
}
