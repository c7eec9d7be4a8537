#ifndef EBISU_KOKKOS_IMPL_PERFORMANCE_MODEL_HPP
#define EBISU_KOKKOS_IMPL_PERFORMANCE_MODEL_HPP

// The practical-attainable-performance model of the EBISU paper (section 5):
// a roofline over device memory, shared memory and the FP units, scaled by the
// valid fraction lost to redundant halo work (SM tiling) or to grid barriers
// (device tiling). It chooses temporal depth and tile sizes. Plain C++ with no
// CUDA dependency, so it is unit-tested on any machine.

#include <functional>
#include <string>
#include <vector>

namespace EbisuKokkos {
namespace Impl {

/// What the model needs to know about a GPU (read at run time, or made up in tests).
struct DeviceModel {
  std::string name;
  int sm_count = 0;
  double clock_ghz = 0;                 ///< SM clock
  long smem_per_block_bytes = 0;        ///< opt-in maximum dynamic shared memory per block
  long smem_per_sm_bytes = 0;
  int regs_per_sm = 0;
  double dram_bandwidth_gbs = 0;        ///< achievable device-memory bandwidth (read + write)
  double smem_bandwidth_gbs = 0;        ///< all SMs together
  double fp64_gflops = 0;
  double fp32_gflops = 0;
  double grid_sync_us = 0;              ///< cost of one cooperative grid barrier
};

/// An H200-like device, for tests and for reading the model without a GPU.
DeviceModel reference_h200_model();

/// What the model needs to know about a stencil.
struct StencilModel {
  int rank = 2;
  int radius = 1;
  int points = 5;          ///< offsets read per update
  int flops = 10;          ///< per cell update
  int scalar_bytes = 8;
  bool box_like = false;   ///< reads off-centre rows/planes at off-centre columns (needs shared memory for them)
  /// Shared-memory accesses per cell update with redundant register streaming
  /// (the paper's a_sm): centre-column neighbours come from registers.
  double smem_accesses_per_cell() const;
};

/// On Kokkos::Cuda the generic path records a chunk of this many steps as a
/// CUDA graph and replays it when a call runs at least kGenericGraphMinSteps
/// steps (recording costs ~6 us per step of the chunk, once per call).
constexpr int kGenericGraphChunkSteps = 32;
constexpr int kGenericGraphMinSteps = 4 * kGenericGraphChunkSteps;

/// Seconds of one step of the generic path whose memory traffic alone would
/// take `memory_seconds`. An ordinary dispatch costs a few microseconds of
/// host-side work that overlaps the previous kernel, so small domains are
/// launch-bound (H200: 256^2 and 32^3 run one step per ~4 us); a replayed
/// graph node costs ~1.5 us (2-D) to ~2.2 us (3-D) more than its memory time.
double generic_step_seconds(double memory_seconds, int rank, bool graph_replayed);

/// The generic path's time for `steps` steps of a 2-D domain (n_slow x n_fast),
/// fitted to the plain per-step variants on an H200 (docs/perf-notes-device-tiling.md).
/// An odd count leaves the result in scratch: one copy back unless copy_back_free.
double predict_generic_seconds_2d(const DeviceModel& device, const StencilModel& stencil, long n_slow,
                                  long n_fast, int steps, bool copy_back_free = false);

/// How a call's steps split into launches: `main_launches` of the main depth,
/// then the launches of `tail`, deepest first.
struct LaunchSplit {
  int main_launches = 0;
  std::vector<int> tail;
  double seconds = 0;  ///< predicted, the odd-count penalty included
  int launches() const { return main_launches + static_cast<int>(tail.size()); }
};

/// The split of `steps` with the least predicted time: launches of
/// `main_depth`, and a tail of at most four launches of usable depths (bit d of
/// `usable_depths`) covering the remainder and up to two main launches given
/// back. An odd number of launches leaves a (u, scratch) call's result in the
/// scratch View, so an odd split also pays `odd_count_seconds` (the copy
/// back); e.g. 100 steps at depth 8 with depths {1, 2, 4, 8, 10}: 10 x 8 +
/// 10 + 10 (12 launches) instead of 12 x 8 + 4 (13). `seconds_of(d)`: one
/// launch of depth d. main_depth must be usable.
LaunchSplit split_launches(int steps, int main_depth, unsigned usable_depths,
                           const std::function<double(int)>& seconds_of, double odd_count_seconds);

/// Launch depths covering `steps` greedily: `depth` while it fits, then the
/// deepest usable depth (bit d of `usable_depths`; depth 1 always runs) not
/// above what is left. The backends' fallback where a plan's split does not
/// cover a call's steps (a plan made for another step count).
std::vector<int> greedy_launch_depths(int steps, int depth, unsigned usable_depths);

template <class Stencil>
StencilModel stencil_model(int scalar_bytes) {
  StencilModel m;
  m.rank = Stencil::rank;
  m.radius = Stencil::radius;
  m.points = Stencil::num_points;
  m.flops = Stencil::flops_per_cell;
  m.scalar_bytes = scalar_bytes;
  m.box_like = Stencil::num_points > 1 + 2 * Stencil::rank * Stencil::radius;
  return m;
}

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
