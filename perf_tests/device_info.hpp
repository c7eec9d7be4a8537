#ifndef EBISU_BENCH_DEVICE_INFO_HPP
#define EBISU_BENCH_DEVICE_INFO_HPP

// Where the benchmark runs: host name, device name and memory.

#include <string>

namespace ebisu_bench {

struct DeviceInfo {
  std::string host;
  std::string name;          ///< GPU name (CUDA) or CPU model name
  std::string kind;          ///< "cuda" | "host"
  double memory_bytes = 0;   ///< device memory (CUDA) or physical memory (host)
  std::string details;       ///< e.g. "sm_90, 132 SMs"
  std::string pci_bus_id;    ///< CUDA: e.g. "0000:41:00.0", how NVML finds the same GPU; host: empty
};

/// Fills in the host name and the device the default execution space runs on.
DeviceInfo query_device_info();

/// CUDA device properties of the current device (device_info_cuda.cpp, the only
/// file with CUDA headers); false when this build has no CUDA.
bool query_cuda_device(DeviceInfo& info);

}  // namespace ebisu_bench

#endif
