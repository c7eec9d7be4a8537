#include <ebisu_kokkos/impl/cuda/cuda_check.hpp>
#include <ebisu_kokkos/impl/cuda/device_properties.hpp>

#include <map>
#include <mutex>

namespace EbisuKokkos {
namespace Impl {
namespace Cuda {

namespace {

int attribute(cudaDeviceAttr attr, int device) {
  int v = 0;
  EBISU_CUDA_CHECK(cudaDeviceGetAttribute(&v, attr, device), "device_model");
  return v;
}

DeviceModel query(int device) {
  DeviceModel d;
  cudaDeviceProp prop{};
  EBISU_CUDA_CHECK(cudaGetDeviceProperties(&prop, device), "device_model");
  d.name = prop.name;
  d.sm_count = prop.multiProcessorCount;
  d.smem_per_block_bytes = static_cast<long>(prop.sharedMemPerBlockOptin);
  d.smem_per_sm_bytes = static_cast<long>(prop.sharedMemPerMultiprocessor);
  d.regs_per_sm = prop.regsPerMultiprocessor;
  // Clock fields left cudaDeviceProp in CUDA 13; the attributes remain (kHz).
  d.clock_ghz = attribute(cudaDevAttrClockRate, device) * 1e-6;
  const double mem_khz = attribute(cudaDevAttrMemoryClockRate, device);
  const double bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, device);
  // DDR peak times the ~85% a streaming copy reaches on HBM parts (4108 of
  // 4800 GB/s measured on an H200).
  d.dram_bandwidth_gbs = 0.85 * 2.0 * mem_khz * 1e3 * (bus_bits / 8.0) * 1e-9;
  d.smem_bandwidth_gbs = d.sm_count * 128.0 * d.clock_ghz;
  const int fp64_per_sm = prop.major >= 9 || (prop.major == 8 && prop.minor == 0) || prop.major == 7 ? 64 : 2;
  d.fp64_gflops = d.sm_count * fp64_per_sm * 2.0 * d.clock_ghz;
  d.fp32_gflops = d.sm_count * 128 * 2.0 * d.clock_ghz;
  d.grid_sync_us = 0;
  return d;
}

}  // namespace

const DeviceModel& device_model(int device) {
  static std::mutex mutex;
  static std::map<int, DeviceModel> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(device);
  if (it == cache.end()) it = cache.emplace(device, query(device)).first;
  return it->second;
}

}  // namespace Cuda
}  // namespace Impl
}  // namespace EbisuKokkos
