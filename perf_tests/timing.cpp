// Statistics and the copy-bandwidth measurement.

#include "timing.hpp"

#include <algorithm>

namespace ebisu_bench {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double minimum(const std::vector<double>& v) { return v.empty() ? 0 : *std::min_element(v.begin(), v.end()); }

CopyBandwidth measure_copy_bandwidth(double mib_per_buffer, int reps) {
  using Space = Kokkos::DefaultExecutionSpace;
  const size_t n = static_cast<size_t>(mib_per_buffer * 1024 * 1024 / sizeof(double));
  Kokkos::View<double*, Space::memory_space> src("ebisu_bench::bw_src", n), dst("ebisu_bench::bw_dst", n);
  Kokkos::deep_copy(src, 1.0);
  Kokkos::deep_copy(dst, src);  // warm-up
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) times.push_back(time_fenced([&] { Kokkos::deep_copy(dst, src); }));
  CopyBandwidth bw;
  bw.bytes_per_buffer = static_cast<double>(n * sizeof(double));
  bw.best_gbs = 2 * bw.bytes_per_buffer / minimum(times) / 1e9;
  bw.median_gbs = 2 * bw.bytes_per_buffer / median(times) / 1e9;
  return bw;
}

}  // namespace ebisu_bench
