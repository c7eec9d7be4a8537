#ifndef EBISU_KOKKOS_IMPL_PERFORMANCE_MODEL_2D_HPP
#define EBISU_KOKKOS_IMPL_PERFORMANCE_MODEL_2D_HPP

// The EBISU practical-attainable-performance model for the 2-D SM-tiling
// kernel (paper sections 5-6), specialised to how ebisu_2d.hpp works:
//
//  - a block of `threads` threads owns a tile of TW = threads * cols_per_thread
//    contiguous columns (each thread `cols_per_thread` adjacent columns) and
//    streams rows along the slow axis through `depth` pipelined stages;
//  - overlapped halo along the fast axis: a tile computes TW - 2*depth*r valid
//    columns (valid fraction V = (TW - 2 t r) / TW);
//  - a persistent grid: exactly (SMs x blocks per SM) blocks, each taking an
//    equal run of rows of the strip-major list of (strip, row) work, so there
//    is no wave-quantisation tail; a run that crosses a strip boundary pays a
//    second pipeline fill;
//  - time per block = max(T_gm, T_sm, T_cmp) + barrier overhead per streamed row.
// Pure C++: unit-tested without a GPU.

#include <ebisu_kokkos/impl/performance_model.hpp>
#include <ebisu_kokkos/policy.hpp>

#include <string>

namespace EbisuKokkos {
namespace Impl {

/// What the compiled 2-D kernel can do (compile-time constants of the kernel
/// instantiation plus its register count read at run time).
struct KernelLimits2D {
  int cols_per_thread = 2;   ///< adjacent columns per thread (ILP along the fast axis)
  int max_threads = 256;     ///< __launch_bounds__ of the kernel
  int max_depth = 12;        ///< register windows compiled in (runtime depth <= this)
  int regs_per_thread = 0;   ///< 0: estimated from the stencil
  int regs_by_depth[16] = {};  ///< registers of the depth-d instantiation (0: regs_per_thread)
  int queue_slots = 0;       ///< rows per stage queue in shared memory; 0: 2k+2 from the stencil
  int planes_per_stage = 0;  ///< shared-memory planes (threads + pads values) per stage; 0: queue_slots * cols
  double smem_accesses_per_cell = 0;  ///< the kernel's exact a_sm; 0: estimated from the stencil
  unsigned depth_mask = ~0u; ///< compiled depths (bit d set: depth d available)
  int prefetch_rows = 3;     ///< input rows in flight (a ring of prefetch_rows + 1 rows in shared memory)
  /// Read-only fields, each streamed through a queue of prefetch_rows + depth (r+1) + r + 1 rows in
  /// shared memory (loaded once per launch, read by every stage).
  int read_only_fields = 0;
  double field_accesses_per_cell = 0;  ///< shared-memory reads of the field queues per cell update
  /// Depths (bit d) whose read-only fields (centre-only) ride in registers instead: a ring of
  /// prefetch_rows + 1 rows per field in shared memory, written and read once per loaded row.
  unsigned register_field_depths = 0;
  /// Several state fields or levels (state.hpp): every field's levels are read and its new levels
  /// written, and each field has one stream (window and queue of planes_per_stage / state_fields
  /// planes) per step of a launch and per older input level.
  int state_fields = 1;
  int state_levels = 1;
};

/// The kernel limits the 2-D backend compiles for a stencil (shared with the kernel).
KernelLimits2D default_kernel_limits_2d(const StencilModel& s);

struct Plan2D {
  int depth = 1;             ///< time steps fused per launch
  int threads = 0;           ///< threads per block
  int cols_per_thread = 1;
  int tile_width = 0;        ///< TW = threads * cols_per_thread, halo included
  int strip_width = 0;       ///< valid (output) columns per strip
  int strips = 0;
  int blocks = 0;            ///< grid size (persistent: one run of rows each)
  int blocks_per_sm = 1;
  long rows_per_block = 0;   ///< length of each block's run in the strip-major row list
  int queue_slots = 2;
  int planes_per_stage = 4;  ///< shared-memory planes per stage (row queue or partial-sum buffers)
  long smem_bytes = 0;       ///< dynamic shared memory per block
  double valid_fraction = 1; ///< strip_width*strips / (tile_width*strips) along the fast axis, incl. rounding
  double y_efficiency = 1;   ///< useful stage-rows / computed stage-rows along the streamed axis
  double smem_accesses_per_cell = 0;  ///< a_sm with register streaming and cols_per_thread
  double t_gm_s = 0, t_sm_s = 0, t_cmp_s = 0, t_sync_s = 0;  ///< per launch
  double predicted_seconds = 0;        ///< per launch
  double predicted_gcells_per_s = 0;   ///< interior cells * depth / predicted_seconds
  std::string bottleneck;    ///< "dram", "smem", "fp" (+ "+sync" when barriers matter)
  std::string describe() const;
};

/// Chooses depth, tile and grid for one launch of `steps` (<= the remaining
/// steps) over an n_slow x n_fast domain. knobs (0 = model chooses) override.
Plan2D choose_plan_2d(const DeviceModel& dev, const StencilModel& s, long n_slow, long n_fast, int steps,
                      const TuningKnobs& knobs, const KernelLimits2D& limits);
Plan2D choose_plan_2d(const DeviceModel& dev, const StencilModel& s, long n_slow, long n_fast, int steps,
                      const TuningKnobs& knobs);

/// Evaluates the model for fully specified parameters (used by the search and tests).
Plan2D evaluate_plan_2d(const DeviceModel& dev, const StencilModel& s, long n_slow, long n_fast, int depth,
                        int threads, int strips, const KernelLimits2D& limits);

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
