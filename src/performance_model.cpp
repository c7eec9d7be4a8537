#include <ebisu_kokkos/impl/performance_model.hpp>

namespace EbisuKokkos {
namespace Impl {

DeviceModel reference_h200_model() {
  DeviceModel d;
  d.name = "NVIDIA H200 (reference figures)";
  d.sm_count = 132;
  d.clock_ghz = 1.98;
  d.smem_per_block_bytes = 227 * 1024;
  d.smem_per_sm_bytes = 228 * 1024;
  d.regs_per_sm = 65536;
  d.dram_bandwidth_gbs = 4108;  // measured device-to-device copy, read + write
  d.smem_bandwidth_gbs = d.sm_count * 128.0 * d.clock_ghz;
  d.fp64_gflops = d.sm_count * 64 * 2 * d.clock_ghz;
  d.fp32_gflops = d.sm_count * 128 * 2 * d.clock_ghz;
  d.grid_sync_us = 2.5;
  return d;
}

double StencilModel::smem_accesses_per_cell() const {
  // One store of the new value plus the loads of every offset that is not in
  // the thread's own column (those come from registers). For a star stencil
  // that is the 2r in-row neighbours (2-D) or the 4r in-plane ones (3-D); a
  // box-like stencil reads every non-centre-column offset.
  const int centre_column = 2 * radius + 1;
  const int off_column = box_like ? points - centre_column : 2 * radius * (rank - 1);
  return 1.0 + off_column;
}

}  // namespace Impl
}  // namespace EbisuKokkos
