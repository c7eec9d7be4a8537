// NVML through dlopen: the few declarations below stand in for nvml.h, so that
// neither the CUDA toolkit nor the driver is needed to build, and a host
// without the driver runs with telemetry disabled.

#include "gpu_telemetry.hpp"

#include "device_info.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <limits>
#include <system_error>

namespace ebisu_bench {

namespace {

using NvmlReturn = int;  // nvmlReturn_t
constexpr NvmlReturn nvml_success = 0;
constexpr int nvml_clock_sm = 1;                                  // NVML_CLOCK_SM
constexpr unsigned long long nvml_reason_sw_power_cap = 0x4ULL;  // nvmlClocksThrottleReasonSwPowerCap

using NvmlDevice = nvmlDevice_st*;

template <class F>
void resolve(void* library, const char* name, F& f) {
  f = reinterpret_cast<F>(dlsym(library, name));
}

}  // namespace

struct GpuTelemetry::Nvml {
  NvmlReturn (*init)() = nullptr;
  NvmlReturn (*shutdown)() = nullptr;
  NvmlReturn (*handle_by_pci_bus_id)(const char*, NvmlDevice*) = nullptr;
  NvmlReturn (*clock_info)(NvmlDevice, int, unsigned int*) = nullptr;
  NvmlReturn (*power_usage_mw)(NvmlDevice, unsigned int*) = nullptr;
  NvmlReturn (*throttle_reasons)(NvmlDevice, unsigned long long*) = nullptr;
  const char* (*error_string)(NvmlReturn) = nullptr;  // optional: only makes the reasons readable
  bool initialized = false;
};

GpuTelemetry::GpuTelemetry(const std::string& pci_bus_id, std::chrono::microseconds period)
    : m_period(period), m_nvml(new Nvml) {
  // Without a bus id (host execution space) any GPU NVML finds would be an unrelated one.
  if (pci_bus_id.empty()) {
    m_status = "no CUDA device in this run";
    return;
  }
  void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* why = dlerror();  // names the library and the reason
    m_status = why ? why : "libnvidia-ml.so.1 not found";
    return;
  }
  Nvml& n = *m_nvml;
  std::string missing;
  const auto require = [&](const char* name, auto& f) {
    resolve(library, name, f);
    if (!f && missing.empty()) missing = name;
  };
  resolve(library, "nvmlErrorString", n.error_string);
  require("nvmlInit_v2", n.init);
  require("nvmlShutdown", n.shutdown);
  require("nvmlDeviceGetHandleByPciBusId_v2", n.handle_by_pci_bus_id);
  require("nvmlDeviceGetClockInfo", n.clock_info);
  require("nvmlDeviceGetPowerUsage", n.power_usage_mw);
  // Renamed to clocks "event" reasons in newer drivers; either name does.
  resolve(library, "nvmlDeviceGetCurrentClocksThrottleReasons", n.throttle_reasons);
  if (!n.throttle_reasons) resolve(library, "nvmlDeviceGetCurrentClocksEventReasons", n.throttle_reasons);
  if (!n.throttle_reasons && missing.empty()) missing = "nvmlDeviceGetCurrentClocksThrottleReasons";
  if (!missing.empty()) {
    m_status = "libnvidia-ml.so.1 has no " + missing;
    return;
  }
  const auto failed = [&](const char* call, NvmlReturn code) {
    return std::string(call) + " failed: " + (n.error_string ? n.error_string(code) : "NVML code") + " (" +
           std::to_string(code) + ")";
  };
  if (const NvmlReturn code = n.init(); code != nvml_success) {
    m_status = failed("nvmlInit_v2", code);
    return;
  }
  n.initialized = true;
  NvmlDevice device = nullptr;
  if (const NvmlReturn code = n.handle_by_pci_bus_id(pci_bus_id.c_str(), &device); code != nvml_success) {
    m_status = failed(("nvmlDeviceGetHandleByPciBusId_v2(" + pci_bus_id + ")").c_str(), code);
    return;
  }
  m_device = device;
  char every[32];
  std::snprintf(every, sizeof(every), "%g ms", 1e-3 * static_cast<double>(m_period.count()));
  m_status = "NVML, PCI bus id " + pci_bus_id + ", sampled every " + every;
}

GpuTelemetry::~GpuTelemetry() {
  join_sampler();
  if (m_nvml->initialized) m_nvml->shutdown();
  // The library stays loaded: this runs at exit, where unloading the driver's library gains nothing.
}

void GpuTelemetry::start() {
  if (!enabled()) return;
  join_sampler();
  m_sums = Sums{};
  m_stop_requested = false;
  m_running = true;
  sample();
  try {
    m_sampler = std::thread([this] { sample_until_stopped(); });
  } catch (const std::system_error&) {
    // No thread: the samples at start and stop still bracket the repetition.
  }
}

TelemetrySummary GpuTelemetry::stop() {
  TelemetrySummary summary;
  if (!m_running) return summary;
  join_sampler();
  sample();
  m_running = false;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Sums& s = m_sums;
  summary.sm_clock_mhz_mean = s.clock_samples > 0 ? s.clock_mhz / s.clock_samples : nan;
  summary.power_w_mean = s.power_samples > 0 ? s.power_w / s.power_samples : nan;
  summary.power_capped_fraction =
      s.reason_samples > 0 ? static_cast<double>(s.capped_samples) / s.reason_samples : nan;
  summary.samples = s.samples;
  return summary;
}

void GpuTelemetry::sample() {
  const Nvml& n = *m_nvml;
  unsigned int clock_mhz = 0, power_mw = 0;
  unsigned long long reasons = 0;
  if (n.clock_info(m_device, nvml_clock_sm, &clock_mhz) == nvml_success) {
    m_sums.clock_mhz += clock_mhz;
    ++m_sums.clock_samples;
  }
  if (n.power_usage_mw(m_device, &power_mw) == nvml_success) {
    m_sums.power_w += 1e-3 * power_mw;
    ++m_sums.power_samples;
  }
  if (n.throttle_reasons(m_device, &reasons) == nvml_success) {
    m_sums.capped_samples += (reasons & nvml_reason_sw_power_cap) ? 1 : 0;
    ++m_sums.reason_samples;
  }
  ++m_sums.samples;
}

void GpuTelemetry::sample_until_stopped() {
  std::unique_lock<std::mutex> lock(m_mutex);
  while (!m_wake.wait_for(lock, m_period, [this] { return m_stop_requested; })) {
    // Unlocked while NVML answers, so that stop() is not held up by a sample.
    lock.unlock();
    sample();
    lock.lock();
  }
}

void GpuTelemetry::join_sampler() {
  if (!m_sampler.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_stop_requested = true;
  }
  m_wake.notify_one();
  m_sampler.join();
}

GpuTelemetry& gpu_telemetry() {
  static GpuTelemetry telemetry(query_device_info().pci_bus_id);
  return telemetry;
}

}  // namespace ebisu_bench
