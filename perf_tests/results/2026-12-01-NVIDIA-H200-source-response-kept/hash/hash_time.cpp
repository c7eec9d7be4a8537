// What the fields' hash costs on the device (session 35): EbisuKokkos' hash_fields on one 8352^2 fp64
// field against a one-mix variant and a plain sum (the read alone), medians of 21.
#include <ebisu_kokkos/impl/fields.hpp>
#include <ebisu_kokkos/impl/source_response_claim.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdio>
#include <vector>

struct OneMix {
  const double* data;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, std::uint64_t& sum) const {
    std::uint64_t bits = 0;
    memcpy(&bits, data + i, sizeof(double));
    sum += EbisuKokkos::Impl::mix_bits(bits + i * 0x9e3779b97f4a7c15ull);
  }
};
// Each iteration hashes W elements: j + k M for k < W (M = span / W: coalesced across threads).
template <int W>
struct StridedChunk {
  const double* data;
  std::size_t m;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t j, std::uint64_t& sum) const {
    std::uint64_t local = 0;
    for (int k = 0; k < W; ++k) {
      const std::size_t i = j + k * m;
      std::uint64_t bits = 0;
      memcpy(&bits, data + i, sizeof(double));
      local += EbisuKokkos::Impl::mix_bits(EbisuKokkos::Impl::mix_bits(bits) + i * 0x9e3779b97f4a7c15ull);
    }
    sum += local;
  }
};
// Each iteration hashes W consecutive elements.
template <int W>
struct ContiguousChunk {
  const double* data;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t j, std::uint64_t& sum) const {
    std::uint64_t local = 0;
    for (int k = 0; k < W; ++k) {
      const std::size_t i = j * W + k;
      std::uint64_t bits = 0;
      memcpy(&bits, data + i, sizeof(double));
      local += EbisuKokkos::Impl::mix_bits(EbisuKokkos::Impl::mix_bits(bits) + i * 0x9e3779b97f4a7c15ull);
    }
    sum += local;
  }
};
struct PlainSum {
  const double* data;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, double& sum) const { sum += data[i]; }
};

template <class F>
double median_ms(F&& f) {
  std::vector<double> t;
  for (int r = 0; r < 21; ++r) {
    Kokkos::fence();
    Kokkos::Timer timer;
    f();
    t.push_back(timer.seconds() * 1e3);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  for (int n : {4096, 8352, 16384}) {
    using View = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::CudaSpace>;
    using ConstView = Kokkos::View<const double**, Kokkos::LayoutRight, Kokkos::CudaSpace>;
    View f("f", n, n);
    Kokkos::deep_copy(f, 0.5);
    EbisuKokkos::Impl::FieldViews<ConstView, EbisuKokkos::Impl::CentreField> fields{{f}};
    std::uint64_t h = 0;
    std::shared_ptr<void> slot;
    const double ours = median_ms([&] { EbisuKokkos::Impl::hash_fields(Kokkos::Cuda(), fields, h, &slot); });
    // The same hash on the host (one parallel_reduce there): the partials regroup the same sum.
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
    host(n / 2, n / 3) = 0.25;  // and a changed value must change it
    Kokkos::View<const double**, Kokkos::LayoutRight, Kokkos::HostSpace> host_const = host;
    EbisuKokkos::Impl::FieldViews<decltype(host_const), EbisuKokkos::Impl::CentreField> host_fields{{host_const}};
    std::uint64_t changed = 0, same = 0;
    EbisuKokkos::Impl::hash_fields(Kokkos::DefaultHostExecutionSpace(), host_fields, changed);
    host(n / 2, n / 3) = 0.5;
    EbisuKokkos::Impl::hash_fields(Kokkos::DefaultHostExecutionSpace(), host_fields, same);
    std::printf("%5d^2: device hash %016llx, host %016llx (equal %d), one value changed %016llx (differs %d)\n", n,
                (unsigned long long)h, (unsigned long long)same, int(h == same), (unsigned long long)changed,
                int(changed != h));
    std::uint64_t s1 = 0;
    const double one = median_ms([&] {
      Kokkos::parallel_reduce(Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<std::size_t>>(0, f.span()),
                              OneMix{f.data()}, s1);
    });
    double s2 = 0;
    const double plain = median_ms([&] {
      Kokkos::parallel_reduce(Kokkos::RangePolicy<Kokkos::Cuda>(0, static_cast<int>(f.span())), PlainSum{f.data()}, s2);
    });
    const double gb = f.span() * 8.0 / 1e9;
    const std::size_t span = f.span();  // n^2: a multiple of 16 for these n
    std::uint64_t a = 0, b = 0, c = 0, d = 0;
    const double s8 = median_ms([&] {
      Kokkos::parallel_reduce(Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<std::size_t>>(0, span / 8),
                              StridedChunk<8>{f.data(), span / 8}, a);
    });
    const double s16 = median_ms([&] {
      Kokkos::parallel_reduce(Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<std::size_t>>(0, span / 16),
                              StridedChunk<16>{f.data(), span / 16}, b);
    });
    const double c4 = median_ms([&] {
      Kokkos::parallel_reduce(Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<std::size_t>>(0, span / 4),
                              ContiguousChunk<4>{f.data()}, c);
    });
    const double c16 = median_ms([&] {
      Kokkos::parallel_reduce(Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<std::size_t>>(0, span / 16),
                              ContiguousChunk<16>{f.data()}, d);
    });
    std::printf("%5d^2: strided 8 %.3f ms (%.2f TB/s), strided 16 %.3f ms (%.2f TB/s), contiguous 4 %.3f ms, contiguous 16 %.3f ms; equal: %d %d %d %d\n",
                n, s8, gb / s8, s16, gb / s16, c4, c16, int(a == a), int(b == a), int(c == a), int(d == a));
    std::printf("%5d^2 (%.0f MB): hash_fields (partials) %.3f ms (%.2f TB/s), one-pass one mix %.3f ms, plain sum %.3f ms (%.2f TB/s)\n", n,
                gb * 1e3, ours, gb / ours, one, plain, gb / plain);
  }
  return 0;
}
