#ifndef EBISU_KOKKOS_IMPL_PERFORMANCE_MODEL_DEVICE_TILING_HPP
#define EBISU_KOKKOS_IMPL_PERFORMANCE_MODEL_DEVICE_TILING_HPP

// The model of the device-tiling strategy (impl/cuda/ebisu_device_tiling.hpp):
// one persistent cooperative launch whose blocks each keep one tile of the
// domain, widened by a halo of H = depth * radius cells, in shared memory for
// all steps, and exchange only that halo through L2 every `depth` steps.
//
// Per round of `depth` steps a block pays
//   depth x (shared-memory / FP time of its whole widened tile + a fixed step cost)
//   + one exchange: write its owned cells within H of its faces, grid barrier,
//     read its halo (L2 traffic and latency);
// plus the initial load and the final store of the tile. Deeper rounds mean
// fewer barriers but more redundant halo work: the search picks the depth and
// the tiling (blocks along each axis) with the smallest predicted time.
// Pure C++: unit-tested without a GPU.

#include <ebisu_kokkos/impl/performance_model.hpp>
#include <ebisu_kokkos/policy.hpp>

#include <string>

namespace EbisuKokkos {
namespace Impl {

/// Backend::automatic divides the 3-D device-tiling prediction by this before
/// ranking it: the model over-predicts it on mid-size cubes (H100, fp64,
/// 96^3: j3d7pt predicted 134 GCells/s, measured 90-100, while the plain
/// loop ran 126 and the generic path was predicted at 81). The margin only
/// orders: a plan predicted, without it, within kModelSureRatio of the leader is timed.
constexpr double kDeviceTilingMargin3D = 1.4;

/// What the compiled device-tiling kernel can do.
struct KernelLimitsDT {
  static constexpr int kMaxRunsPerThread = 4;  ///< runs (column x chunk) a kernel thread keeps
  static constexpr int kKeptRuns = 2;          ///< runs a thread can keep in registers across steps
  /// Whether the kernel has an instantiation keeping runs of exactly `cells` cells.
  static constexpr bool keeps_runs_of(int cells) { return cells == 8 || cells == 12; }
  static constexpr int kKeptRunHaloCellsInRegisters = 0;  ///< halo_cells_in_registers of those instantiations
  /// Rows of padding those instantiations leave after every tile: a column's
  /// last run may read that far past the tile's end (values it never stores).
  static constexpr int kKeptRunPadRows = 3;
  int max_threads = 512;       ///< __launch_bounds__ of the kernel
  int max_blocks = 0;          ///< co-resident blocks (0: one per SM)
  int max_depth = 16;          ///< deepest halo searched
  double smem_accesses_per_cell = 0;  ///< exact shared-memory accesses per cell update (0: from the stencil)
  int field_tiles = 0;         ///< read-only field tiles kept beside the two state copies
  int state_tiles = 2;         ///< state tiles: each field's levels and its spare (one field: two copies)
  int exchanged_tiles = 1;     ///< state tiles whose halo every exchange refreshes (fields x levels)
  int grid_syncs_per_exchange = 1;  ///< 2 when the exchange cannot alternate buffers (several fields or levels)
  int group_cells = 4;         ///< cells of a run a thread updates together
  int halo_cells_in_registers = 8;  ///< halo cells per thread whose offsets stay in registers
  bool exchange_lists = true;  ///< the kernel can keep exchange cell lists in spare shared memory
  /// Kernel instantiations keep each thread's runs in registers from step to
  /// step when they are at most kKeptRuns runs of a length keeps_runs_of: a
  /// cell update then loads no value of its own column from shared memory.
  bool keeps_runs = false;
};

/// Extents in the kernel's axis order: 0 = slow (each thread streams a run of
/// it through a register window), 1 = middle (1 in 2-D), 2 = fast (contiguous).
struct PlanDT {
  bool valid = false;
  std::string why_not;        ///< when !valid
  int depth = 1;              ///< steps between halo exchanges
  int halo[3] = {0, 0, 0};    ///< depth * radius along tiled axes
  int tiles[3] = {1, 1, 1};   ///< blocks along each axis
  int own[3] = {1, 1, 1};     ///< owned cells per block along each axis (the last block may own fewer)
  int local[3] = {1, 1, 1};   ///< own + 2 halo: the block's shared-memory tile
  int blocks = 0;
  int threads = 0;
  int pencils = 0;            ///< computed (middle x fast) columns of the tile
  int chunks = 0;             ///< runs along the slow axis per column
  int chunk_len = 0;          ///< slow-axis cells per run; the threads loop over the (column, run) pairs
  int kept_run_cells = 0;     ///< chunk_len where the runs stay in registers across steps, else 0
  /// Where the search chose the depth: the searched depth just below it and
  /// the one nearest two thirds of it below that (0: none), which
  /// Backend::automatic also times (the model's depth landscape is flat near
  /// its choice, and a shallower depth measured up to 11% faster).
  int shallower_depths[2] = {0, 0};
  long smem_bytes = 0;        ///< the state tiles, one per read-only field, and the exchange lists
  int list_cells = 0;         ///< exchange cells whose (tile, global) offsets a list in shared memory keeps
  double redundancy = 1;      ///< computed cells / owned cells per step
  double t_step_s = 0, t_exchange_s = 0, t_edges_s = 0;  ///< per step, per exchange, load + store once
  double predicted_seconds = 0;
  double predicted_gcells_per_s = 0;
  std::string describe() const;
};

/// Chooses depth and tiling for `steps` steps over extents n (kernel axis
/// order; n[1] == 1 for 2-D). knobs.temporal_depth (0 = model) fixes the depth.
PlanDT choose_plan_device_tiling(const DeviceModel& dev, const StencilModel& s, const long (&n)[3], int steps,
                                 const TuningKnobs& knobs, const KernelLimitsDT& limits);

/// The model for one fully specified tiling (used by the search and the tests).
PlanDT evaluate_plan_device_tiling(const DeviceModel& dev, const StencilModel& s, const long (&n)[3], int steps,
                                   int depth, const int (&tiles)[3], const KernelLimitsDT& limits);

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
