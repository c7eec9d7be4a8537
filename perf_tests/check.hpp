#ifndef EBISU_BENCH_CHECK_HPP
#define EBISU_BENCH_CHECK_HPP

// Correctness checks: the maximum relative difference between two results on
// the device, and a serial host computation of the T steps for small domains
// (an oracle independent of every timed variant).

#include "variant.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <vector>

namespace ebisu_bench {

template <class Scalar>
struct RelDiff {
  using Flat = Kokkos::View<const Scalar*, Kokkos::DefaultExecutionSpace::memory_space,
                            Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Flat a, b;
  KOKKOS_INLINE_FUNCTION void operator()(long i, double& m) const {
    const double x = a(i), y = b(i);
    const double diff = x > y ? x - y : y - x;
    double scale = y < 0 ? -y : y;
    scale = scale > 1e-300 ? scale : 1e-300;
    double r = diff / scale;
    if (!(r <= 1e300)) r = 1e300;  // NaN or inf: a failure, never ignored by the max
    m = r > m ? r : m;
  }
};

/// max_i |a_i - b_i| / |b_i| over n cells of two device arrays (1e300 for NaN / inf).
template <class Scalar>
double max_rel_diff(const void* a, const void* b, long n) {
  using Space = Kokkos::DefaultExecutionSpace;
  RelDiff<Scalar> f{typename RelDiff<Scalar>::Flat(static_cast<const Scalar*>(a), n),
                    typename RelDiff<Scalar>::Flat(static_cast<const Scalar*>(b), n)};
  double result = 0;
  Kokkos::parallel_reduce("ebisu_bench::max_rel_diff", Kokkos::RangePolicy<Space, Kokkos::IndexType<long>>(0, n), f,
                          Kokkos::Max<double>(result));
  return result;
}

/// T serial steps on the host with run-time offsets, compared with `result`
/// (a device array in the View's layout).
template <class Scalar, class Stencil, class View>
double host_oracle_max_rel_diff(const Stencil& stencil, const View& input, const void* result, int steps) {
  constexpr int rank = static_cast<int>(View::rank);
  constexpr int r = Stencil::radius;
  constexpr int np = Stencil::num_points;
  // create_mirror (not _view): always a separate copy, also when input lives on the host.
  auto a = Kokkos::create_mirror(Kokkos::HostSpace(), input);
  auto b = Kokkos::create_mirror(Kokkos::HostSpace(), input);
  Kokkos::deep_copy(a, input);
  Kokkos::deep_copy(b, input);
  long e[3] = {1, 1, 1}, lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  for (int d = 0; d < rank; ++d) {
    e[d] = static_cast<long>(input.extent(d));
    lo[d] = r;
    hi[d] = e[d] - r;
  }
  long stride[3] = {0, 0, 0};
  for (int d = 0; d < rank; ++d) stride[d] = static_cast<long>(a.stride(d));
  std::vector<long> off(np);
  std::vector<Scalar> coef(np);
  for (int k = 0; k < np; ++k) {
    off[k] = 0;
    for (int d = 0; d < rank; ++d) off[k] += Stencil::offset(k, d) * stride[d];
    coef[k] = static_cast<Scalar>(stencil.coefficient(k));
  }
  Scalar* src = a.data();
  Scalar* dst = b.data();
  for (int s = 0; s < steps; ++s) {
    for (long i2 = lo[2]; i2 < hi[2]; ++i2)
      for (long i1 = lo[1]; i1 < hi[1]; ++i1)
        for (long i0 = lo[0]; i0 < hi[0]; ++i0) {
          const long c = i0 * stride[0] + i1 * stride[1] + i2 * stride[2];
          Scalar v = 0;
          for (int k = 0; k < np; ++k) v += coef[k] * src[c + off[k]];
          dst[c] = v;
        }
    std::swap(src, dst);
  }
  // Compare on the host: copy the device result into a mirror of the same layout.
  auto res = Kokkos::create_mirror(Kokkos::HostSpace(), input);
  Kokkos::View<const Scalar*, typename View::memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>> flat(
      static_cast<const Scalar*>(result), input.size());
  Kokkos::View<Scalar*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> res_flat(res.data(), input.size());
  Kokkos::deep_copy(res_flat, flat);
  double m = 0;
  for (size_t i = 0; i < input.size(); ++i) {
    const double x = res_flat(i), y = src[i];
    double d = (x > y ? x - y : y - x) / std::max(y < 0 ? -y : y, 1e-300);
    if (!(d <= 1e300)) d = 1e300;
    m = std::max(m, d);
  }
  return m;
}

}  // namespace ebisu_bench

#endif
