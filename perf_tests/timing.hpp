#ifndef EBISU_BENCH_TIMING_HPP
#define EBISU_BENCH_TIMING_HPP

// Timing: Kokkos::fence() + steady clock around the work, repeated; and the
// device copy bandwidth that defines the per-step memory bound.

#include <Kokkos_Core.hpp>

#include <chrono>
#include <vector>

namespace ebisu_bench {

/// Seconds of one call of `work`, fenced on both sides.
template <class Work>
double time_fenced(Work&& work) {
  Kokkos::fence();
  const auto t0 = std::chrono::steady_clock::now();
  work();
  Kokkos::fence();
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

/// `reps` timings of `run`, each after an untimed `reset` (which restores the input).
template <class Reset, class Run>
std::vector<double> time_reps(int reps, Reset&& reset, Run&& run) {
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    reset();
    times.push_back(time_fenced(run));
  }
  return times;
}

double median(std::vector<double> v);
double minimum(const std::vector<double>& v);

struct CopyBandwidth {
  double bytes_per_buffer = 0;
  double best_gbs = 0;    ///< (read + write) bytes / s / 1e9, fastest copy
  double median_gbs = 0;
};

/// Large Kokkos::deep_copy between two Views of the default memory space.
CopyBandwidth measure_copy_bandwidth(double mib_per_buffer, int reps = 10);

}  // namespace ebisu_bench

#endif
