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

/// Model time (seconds) of one launch of a plan at depth `depth`.
double predict_launch_seconds_3d(const DeviceModel& device, const StencilModel& stencil, const Plan3D& plan,
                                 int depth, std::string* bottleneck = nullptr);

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
