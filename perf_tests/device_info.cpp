// Host name, CPU model and memory; the GPU is asked in device_info_cuda.cpp.

#include "device_info.hpp"

#include <Kokkos_Core.hpp>

#include <fstream>
#include <string>
#include <type_traits>
#include <unistd.h>

namespace ebisu_bench {

namespace {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown CPU";
}

}  // namespace

DeviceInfo query_device_info() {
  DeviceInfo info;
  char host[256] = {0};
  info.host = gethostname(host, sizeof(host) - 1) == 0 ? host : "unknown";
#ifdef KOKKOS_ENABLE_CUDA
  if (std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::Cuda> && query_cuda_device(info)) return info;
#endif
  info.kind = "host";
  info.name = cpu_model();
  info.memory_bytes = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
  info.details = std::to_string(Kokkos::DefaultExecutionSpace().concurrency()) + " threads";
  return info;
}

}  // namespace ebisu_bench
