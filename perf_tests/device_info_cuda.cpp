// The GPU's name, memory and PCI bus id. With graph_capture_cuda.cpp, the only files of the harness with CUDA headers.

#include "device_info.hpp"

#include <Kokkos_Macros.hpp>

#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime_api.h>

#include <string>

namespace ebisu_bench {

bool query_cuda_device(DeviceInfo& info) {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) return false;
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) return false;
  info.kind = "cuda";
  info.name = prop.name;
  info.memory_bytes = static_cast<double>(prop.totalGlobalMem);
  info.details = "device " + std::to_string(device) + ", sm_" + std::to_string(prop.major) +
                 std::to_string(prop.minor) + ", " + std::to_string(prop.multiProcessorCount) + " SMs, " +
                 std::to_string(prop.totalGlobalMem >> 20) + " MiB";
  char bus_id[32] = {0};
  if (cudaDeviceGetPCIBusId(bus_id, sizeof(bus_id), device) == cudaSuccess) info.pci_bus_id = bus_id;
  return true;
}

}  // namespace ebisu_bench

#else

namespace ebisu_bench {
bool query_cuda_device(DeviceInfo&) { return false; }
}  // namespace ebisu_bench

#endif
