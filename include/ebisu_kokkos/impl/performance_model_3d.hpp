#ifndef EBISU_KOKKOS_IMPL_PERFORMANCE_MODEL_3D_HPP
#define EBISU_KOKKOS_IMPL_PERFORMANCE_MODEL_3D_HPP

// The 3-D device-tiling plan of the EBISU backend (paper sections 4.2-4.3, 5).
//
// The whole GPU works on one device tile: the x-y plane is split into
// grid_x * grid_y SM tiles (one block per SM, co-resident, launched
// cooperatively) and every block streams its column of planes along z. A
// launch fuses `depth` time steps: level s (1..depth) runs (radius + 1) planes
// behind level s-1 (lazy streaming), so every dependency crosses exactly one
// block-to-block synchronisation per plane step. Each level keeps a circular
// queue of 2r+1 planes (tile plus an r-wide halo) in shared memory; the halo
// of an intermediate level comes from the neighbouring SM tiles through global
// memory (L2), the halo of level 0 straight from the input View.
//
// The model: time per step (each level advances `planes` planes) = max(shared
// memory / FP / instruction-issue time of the slowest SM, device-memory time
// of the whole device tile) + the cost of one synchronisation (grid barrier,
// or neighbour flags) and the halo round trip; a launch is
// ceil((nz + depth*(planes+r)) / planes) steps plus the launch overhead. The
// issue term is fitted to measurements of the current kernel on an H200.
// Pure C++.

#include <ebisu_kokkos/impl/performance_model.hpp>
#include <ebisu_kokkos/policy.hpp>

#include <string>
#include <vector>

namespace EbisuKokkos {
namespace Impl {

enum class SyncKind { grid_barrier, neighbor_flags };

inline const char* to_string(SyncKind s) {
  return s == SyncKind::grid_barrier ? "grid.sync" : "neighbour-flags";
}

struct Plan3D {
  bool valid = false;        ///< false: no tiling fits (use the generic backend)
  int depth = 1;             ///< time steps fused per launch
  int planes = 1;            ///< planes each level advances per synchronisation (plane group)
  int launches = 0;          ///< launches for `steps` (the last takes the remainder)
  int tile_x = 0, tile_y = 0;  ///< largest SM tile (cells along x, y)
  int grid_x = 0, grid_y = 0;  ///< SM tiles along x, y (grid = grid_x * grid_y blocks)
  int threads = 256;         ///< threads per block
  long smem_bytes = 0;       ///< dynamic shared memory per block at `depth`
  SyncKind sync = SyncKind::neighbor_flags;
  double predicted_gcells_per_s = 0;  ///< for all `steps`
  double us_per_plane_step = 0;       ///< model time of one plane step (all levels)
  std::string bottleneck;    ///< "shared memory", "fp", "device memory" or "synchronisation"
  long nx = 0, ny = 0, nz = 0;

  int blocks() const { return grid_x * grid_y; }
  std::string describe() const;
};

/// Shared memory (bytes) of one block: depth levels x (planes + 2r) queue slots x (tile + 2r halo)^2.
long smem_bytes_3d(int depth, int radius, int tile_x, int tile_y, int scalar_bytes, int planes = 1);

/// Chooses depth, SM tiles and threads for a (nz, ny, nx) domain (x contiguous,
/// z streamed) and `steps` time steps. Knobs that are non-zero are honoured;
/// planes > 0 fixes the plane group.
Plan3D choose_plan_3d(const DeviceModel& device, const StencilModel& stencil, long nz, long ny, long nx, int steps,
                      const TuningKnobs& knobs, SyncKind sync = SyncKind::neighbor_flags, int planes = 0);

/// The plain-Kokkos (generic backend) rate the 3-D kernel has to beat, for
/// Backend::automatic: one dispatch per step, fitted to H200 measurements.
double predict_generic_gcells_3d(const DeviceModel& device, const StencilModel& stencil);

/// The same for `steps` steps of a (nz, ny, nx) domain, in seconds, including
/// the copy back into u after an odd number of steps (both backends ping-pong
/// between u and the scratch View): what Backend::automatic compares.
/// Backend::automatic runs 3-D SM tiling only when the model predicts it at
/// least this much faster than the generic path. At 128^3 (z split into ~9
/// short runs per tile column) the model over-predicts SM tiling by up to 36%
/// (H200: j3d17pt 96 predicted, 82 measured; poisson 105 / 86) while the
/// graph-replayed generic path runs 104-116 GCells/s; from 256^3 on SM tiling
/// is predicted 1.5-2.9x the generic path and measured 1.4-2.6x.
constexpr double kSmTilingMargin3D = 1.25;

/// As predict_generic_seconds_2d, for a 3-D domain.
double predict_generic_seconds_3d(const DeviceModel& device, const StencilModel& stencil, long nz, long ny, long nx,
                                  int steps, bool copy_back_free = false);

/// Model time (seconds) of one launch of a plan at depth `depth`.
double predict_launch_seconds_3d(const DeviceModel& device, const StencilModel& stencil, const Plan3D& plan,
                                 int depth, std::string* bottleneck = nullptr);


// ---------------------------------------------------------------------------
// SM tiling (2.5-D), the kernel Backend::ebisu runs for 3-D problems (see
// ebisu_3d.hpp): every block owns an overlapped x-y tile (threads_x x
// threads_y threads, cells_y cells per thread along y) and streams a run of
// planes along z with `depth` fused steps; no inter-block synchronisation.
// The tile shape is a compile-time function of depth and radius shared by the
// kernel and the model (below).

/// Cells along y per thread (register window: depth*(2r+1)*cells_y values per
/// thread) and threads along x (a block is always sm3d_threads threads): 4 cells
/// (tile 64 x 32) while the window fits the 128 registers of a 512-thread block
/// without spills (ptxas, fp64: star stencils up to depth*(2r+1) = 9, box-like
/// ones - their coefficients take registers too - up to 6), else 2 (tile 32 x 32).
/// Kernels that stream read-only fields through shared-memory plane queues or
/// centre rings (FieldQueues counts both) always take the 32 x 32 tile: a queue holds
/// sm3d_field_queue_planes planes, which fit beside the state's only for the
/// smaller plane. So do kernels of several state fields or levels
/// (state_levels = fields x levels > 1): every field has a window and a plane
/// queue per step of the launch, older levels longer ones.
/// A struct of constants so that device code can use it (no host-function call).
template <int Depth, int Radius, int ZReach, int FieldQueues = 0, int StateLevels = 1>
struct Sm3dShape {
  static constexpr int cells_y = FieldQueues == 0 && StateLevels == 1 &&
                                         (Depth * (2 * Radius + 1) <= 6 || (ZReach == 0 && Depth * (2 * Radius + 1) <= 9))
                                     ? 4
                                     : 2;
  static constexpr int threads_x = cells_y == 4 ? 64 : 32;
};
constexpr int sm3d_cells_y(int depth, int radius, int zreach, int field_queues = 0, int state_levels = 1) {
  return field_queues == 0 && state_levels == 1 &&
                 (depth * (2 * radius + 1) <= 6 || (zreach == 0 && depth * (2 * radius + 1) <= 9))
             ? 4
             : 2;
}
/// Several state fields of several levels: every field has one stream of planes per step a launch
/// holds (its input levels, loaded together, and the outputs of levels 1 .. depth-1); level s reads
/// level l of a field from the stream of step s-1-l, l (r+1) planes further back than its newest
/// level, so a stream keeps (levels-1)(r+1) planes more in its register window and its queue.
/// OlderAround: some older level is read over its neighbourhood (otherwise older levels are read at
/// the cell only, from the window, and the queues keep just 2K + 2 planes).
template <int Radius, int ZReach, int Depth, int Levels, bool OlderAround = true>
struct Sm3dStreams {
  static constexpr int lag = Radius + 1;
  static constexpr int window = 2 * Radius + 1 + (Levels - 1) * lag;                     // register planes per stream
  static constexpr int queue = 2 * ZReach + 2 + (OlderAround ? (Levels - 1) * lag : 0);  // queue planes (one being written)
  static constexpr int per_field = Depth + Levels - 1;
};
/// Planes of one read-only field's shared-memory queue: the planes in flight,
/// the planes between level 1's newest read and level `depth`'s oldest
/// (depth (r+1) + r), and the one being read.
template <int Depth, int Radius, int Prefetch>
struct Sm3dFieldQueue {
  static constexpr int planes = Prefetch + Depth * (Radius + 1) + Radius + 1;
};
constexpr int sm3d_field_queue_planes(int depth, int radius, int prefetch) {
  return prefetch + depth * (radius + 1) + radius + 1;
}
/// Planes of a centre ring (a field read at the cell only, kept per thread):
/// the planes in flight and the depth (r+1) planes between level 1's read and
/// level `depth`'s. A thread reads its ring before it requests the plane that
/// overwrites the oldest, so no plane more is needed.
template <int Depth, int Radius, int Prefetch>
struct Sm3dCentreRing {
  static constexpr int planes = Prefetch + Depth * (Radius + 1);
};
constexpr int sm3d_centre_ring_planes(int depth, int radius, int prefetch) {
  return prefetch + depth * (radius + 1);
}
constexpr int sm3d_threads = 512;
constexpr int sm3d_prefetch = 4;  ///< input planes in flight (cp.async ring of prefetch+1 planes)
constexpr int sm3d_prefetch_partial_sums = 3;  ///< the same for kernels exchanging partial sums (less room)
/// The same for kernels of several state fields or levels: every level has a ring (and every field
/// a queue per step), so fewer planes in flight leave room for one more step.
constexpr int sm3d_prefetch_states = 2;
/// The planes in flight of a kernel (partial sums: export_planes > 0; state_levels = fields x levels).
constexpr int sm3d_prefetch_for(bool partial_sums, int state_levels) {
  return partial_sums ? sm3d_prefetch_partial_sums : (state_levels > 1 ? sm3d_prefetch_states : sm3d_prefetch);
}
template <bool PartialSums, int StateLevels>
struct Sm3dPrefetch {  // (the same as a constant device code can use)
  static constexpr int planes = sm3d_prefetch_for(PartialSums, StateLevels);
};
/// Deepest compiled depth for a radius.
constexpr int sm3d_max_depth(int radius) { return radius == 1 ? 4 : 2; }

struct SmTileShape3D {
  int depth = 1;
  int threads_x = 0, threads_y = 0, cells_y = 1;
  int tile_x = 0, tile_y = 0;  ///< cells of one tile incl. the overlapped halo (depth*r each side)
  int queue_planes = 2;        ///< shared-memory queue slots per level (2K+2)
  int export_planes = 0;       ///< partial-sum planes per level (one per x offset; 0: row-queue mode)
  double smem_accesses_per_cell = 0;  ///< the kernel's exact count (partial-sum mode); 0: estimated
  long smem_bytes = 0;
  int blocks_per_sm = 1;       ///< co-resident blocks (the kernel side fills it from the occupancy API)
  int read_only_fields = 0;    ///< read through L1 / L2 by every level, from DRAM once per launch
  double field_reads_per_cell = 0;  ///< their loads per cell update (counted like shared-memory accesses)
  int state_fields = 1;        ///< fields updated together (each with its own window and queues)
  int state_levels = 1;        ///< time levels per field read by a step
};

/// The shape the kernel compiles for (depth, radius, z reach K of the off-column points).
/// export_planes: partial-sum planes per level (one per x offset of the stencil), 0 in row-queue mode;
/// with partial sums the row queue keeps only each thread row's 2r edge cells.
/// field_queues: read-only fields read over the footprint, each streamed through a queue of planes.
/// state_fields x state_levels: the state a step reads (Sm3dStreams; older_around: some older level
/// is read over its neighbourhood). centre_rings: fields read at the cell only, each kept in a
/// thread-private ring of planes (Sm3dCentreRing).
SmTileShape3D sm_tile_shape_3d(int depth, int radius, int zreach, int scalar_bytes, int export_planes = 0,
                               int field_queues = 0, int state_fields = 1, int state_levels = 1,
                               bool older_around = true, int centre_rings = 0);

struct PlanSM3D {
  bool valid = false;
  int depth = 1;
  int launches = 0;
  std::vector<int> launch_depths;  ///< each launch's depth, in order (the main depth, then a short tail)
  /// The next usable depth above `depth` where the depth is the model's own choice (0: none or forced);
  /// Backend::automatic times it beside the model's plan (the model underrates deep plans on some sizes).
  int deeper_depth = 0;
  SmTileShape3D shape;
  int out_x = 0, out_y = 0;      ///< valid output cells per tile
  int tiles_x = 0, tiles_y = 0;
  int blocks = 0;                ///< persistent grid: SMs x blocks_per_sm
  double predicted_gcells_per_s = 0;
  double predicted_seconds = 0;  ///< all steps
  std::string bottleneck;
  long nx = 0, ny = 0, nz = 0;
  std::string describe() const;
};

/// Model time (seconds) of one SM-tiling launch of depth shape.depth.
double predict_sm_launch_seconds_3d(const DeviceModel& device, const StencilModel& stencil, long nz, long ny, long nx,
                                    const SmTileShape3D& shape, std::string* bottleneck = nullptr);

/// Chooses the depth of the SM-tiling kernel; shapes[t] (t = 1..max_depth) are
/// the compiled shapes (smem_bytes 0 or above the device limit: not usable).
/// copy_back_free: the call takes its result in either buffer (DoubleBuffer,
/// State), so an odd number of launches costs no copy back.
PlanSM3D choose_plan_3d_sm(const DeviceModel& device, const StencilModel& stencil, long nz, long ny, long nx,
                           int steps, const TuningKnobs& knobs, const SmTileShape3D* shapes, int max_depth,
                           bool copy_back_free = false);

/// Convenience for host code and tests: the plan with the shapes sm_tile_shape_3d
/// gives (zreach: r for box-like stencils, 0 for stars; one block per SM).
PlanSM3D choose_plan_3d_sm(const DeviceModel& device, const StencilModel& stencil, long nz, long ny, long nx,
                           int steps, const TuningKnobs& knobs = {});

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
