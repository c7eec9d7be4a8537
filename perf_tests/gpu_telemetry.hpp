#ifndef EBISU_BENCH_GPU_TELEMETRY_HPP
#define EBISU_BENCH_GPU_TELEMETRY_HPP

// The GPU's SM clock, power draw and power-cap throttling during a timed
// repetition. A GPU at its power cap (an H200 at 700 W) moves its SM clock by
// hundreds of MHz within a run, so two timings compare fairly only next to the
// clocks they ran at. NVML is loaded at run time (dlopen), not linked: the
// harness builds and runs unchanged where the NVIDIA driver is absent, and
// then records nothing.

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

struct nvmlDevice_st;

namespace ebisu_bench {

/// Means over the samples taken during one repetition; NaN where no sample of that quantity succeeded.
struct TelemetrySummary {
  double sm_clock_mhz_mean = 0;
  double power_w_mean = 0;
  double power_capped_fraction = 0;  ///< of the samples, those whose clock the software power cap limited
  int samples = 0;
};

class GpuTelemetry {
 public:
  /// The NVML device with this PCI bus id (as cudaDeviceGetPCIBusId writes it). An empty id, a
  /// missing libnvidia-ml.so.1 or symbol, or a failing NVML call leaves the object disabled.
  explicit GpuTelemetry(const std::string& pci_bus_id,
                        std::chrono::microseconds period = std::chrono::milliseconds(5));
  ~GpuTelemetry();
  GpuTelemetry(const GpuTelemetry&) = delete;
  GpuTelemetry& operator=(const GpuTelemetry&) = delete;

  bool enabled() const { return m_device != nullptr; }
  /// Why it is disabled, or which device it samples.
  const std::string& status() const { return m_status; }
  std::chrono::microseconds period() const { return m_period; }

  /// Samples now and then every period on a thread of its own until stop(). A sampler still running
  /// (a repetition that threw before its stop()) is discarded. No-op when disabled.
  void start();
  /// Samples once more and returns the means since start(); samples == 0 when disabled or not started.
  TelemetrySummary stop();

 private:
  struct Nvml;
  struct Sums {
    double clock_mhz = 0, power_w = 0;
    int clock_samples = 0, power_samples = 0, reason_samples = 0, capped_samples = 0, samples = 0;
  };

  void sample();
  void sample_until_stopped();
  void join_sampler();

  std::string m_status;
  std::chrono::microseconds m_period;
  std::unique_ptr<Nvml> m_nvml;
  nvmlDevice_st* m_device = nullptr;

  std::thread m_sampler;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_stop_requested = false;
  bool m_running = false;  ///< between start() and stop()
  Sums m_sums;  ///< written by the sampler thread while it runs, by the caller otherwise
};

/// The process's telemetry of the GPU the default execution space runs on (disabled on host spaces);
/// made on the first call, which must come after Kokkos::initialize (it picks the CUDA device).
GpuTelemetry& gpu_telemetry();

}  // namespace ebisu_bench

#endif
