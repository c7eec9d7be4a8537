// Registers and spills of the deepest 2-D SM-tiling kernels: presets and a box functor, double and float, both layouts, fixed and mapped sides.
#include <ebisu_kokkos/ebisu_kokkos.hpp>
#include <cstdio>
namespace P = EbisuKokkos::presets;
namespace E = EbisuKokkos::Impl::Cuda::ebisu2d;
struct BoxAverage {
  template <class N>
  KOKKOS_INLINE_FUNCTION auto operator()(const N& n) const -> typename N::value_type { return 0.25 * (n(-1, 0) + n(1, 0) + n(0, -1) + n(0, 1)) + 0.01 * n(1, 1); }
};
template <class S, class Scalar, bool L, int D, bool M>
const void* k() { return reinterpret_cast<const void*>(E::Kernel<S, Scalar, L, D, 1, 1>::template function<M>()); }
template <class S, int D>
void all(const void** out) {
  out[0] = k<S, double, false, D, false>(); out[1] = k<S, double, true, D, false>();
  out[2] = k<S, double, false, D, true>();  out[3] = k<S, float, false, D, false>();
}
int main() {
  using S5 = decltype(P::j2d5pt()); using S9 = decltype(P::j2d9pt()); using SG = decltype(P::j2d9pt_gol()); using S25 = decltype(P::j2d25pt());
  using SF = EbisuKokkos::FunctorStencil<2, 1, BoxAverage>;
  const void* p[40];
  all<S5, 10>(p); all<S5, 8>(p + 4); all<SG, 10>(p + 8); all<S9, 6>(p + 12); all<S25, 6>(p + 16); all<SF, 10>(p + 20); all<SF, 8>(p + 24);
  std::printf("%p\n", p[0]);
}
