#ifndef EBISU_BENCH_TIMING_HPP
#define EBISU_BENCH_TIMING_HPP

// Timing: Kokkos::fence() + steady clock around the work, repeated; and the
// device copy bandwidth that defines the per-step memory bound.

#include "gpu_telemetry.hpp"

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

/// As above, and the GPU's telemetry of each timed `run` appended to `telemetry` (nothing when
/// `gpu` is disabled). The sampler starts and stops outside the timed region: its thread's start
/// and join are not part of the time.
template <class Reset, class Run>
std::vector<double> time_reps(int reps, Reset&& reset, Run&& run, GpuTelemetry& gpu,
                              std::vector<TelemetrySummary>& telemetry) {
  if (!gpu.enabled()) return time_reps(reps, reset, run);
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    reset();
    Kokkos::fence();  // so that the samples see the run only, not the reset's kernels
    gpu.start();
    try {
      times.push_back(time_fenced(run));
    } catch (...) {
      gpu.stop();  // the sampler would otherwise poll on through the next variants' warm-ups
      throw;
    }
    telemetry.push_back(gpu.stop());
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
