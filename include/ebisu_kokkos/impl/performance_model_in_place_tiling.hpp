#ifndef EBISU_KOKKOS_IMPL_PERFORMANCE_MODEL_IN_PLACE_TILING_HPP
#define EBISU_KOKKOS_IMPL_PERFORMANCE_MODEL_IN_PLACE_TILING_HPP

// The model of the in-place tiling strategy (impl/cuda/ebisu_in_place_tiling.hpp):
// one persistent cooperative launch, each block owning a tile of
// P x 16C x 32 cells in shared memory whose 512 threads each update C
// adjacent columns of P cells in registers, one grid barrier per step. A step costs
//   a fixed part (grid barrier, the L2 round trip of the halo load, block barriers)
//   + the tile's shared-memory accesses (the column's own load, one load per
//     column the stencil reads besides the thread's own, one store)
//   + the halo cells the tile stores and loads through L2,
// constants fitted on an H200 (docs/perf-notes-in-place-tiling.md). Read-only
// fields add their tiles to the shared memory and their loads to the
// accesses. The search picks (P, C) among the compiled kernels.
// Pure C++: unit-tested without a GPU.

#include <ebisu_kokkos/impl/performance_model.hpp>

#include <string>
#include <vector>

namespace EbisuKokkos {
namespace Impl {

/// What the model needs to know about the stencil.
struct StencilShapeIPT {
  int radius = 1;
  int scalar_bytes = 8;
  int off_columns = 4;     ///< (middle, fast) columns read besides the cell's own
  bool diagonals = false;  ///< reads points off two axes at once: the halo includes edges and corners
  int points = 7;          ///< the stencil's points (whether the column stays in registers)
  int off_columns_of_pair = 6;  ///< columns two middle-adjacent columns read besides their own (j3d7pt: 6)
  int neighbourhood_fields = 0;  ///< read-only fields read over the footprint: a whole tile each
  int centre_fields = 0;         ///< read-only fields read at the cell only: the owned box each
  double field_reads = 0;        ///< shared-memory loads per cell update of the fields
};

/// One compiled kernel (one value of P and C).
struct KernelLimitsIPT {
  static constexpr int kThreads = 512;  ///< threads per block (__launch_bounds__)
  static constexpr int kWarps = 16;     ///< warps per block: one per C middle-axis rows of the tile
  static constexpr int kFast = 32;      ///< tile cells along the fast axis (a warp's lanes)
  int cells_per_thread = 32;            ///< P: the slow-axis cells of a thread's columns
  int columns_per_thread = 1;           ///< C: middle-adjacent columns per thread (the tile is 16C rows)
  int max_blocks = 0;                   ///< co-resident blocks of this kernel (0: it does not fit)
  int local_bytes = 0;                  ///< spilled bytes per thread (the model does not pick a spilling kernel)
};

struct PlanIPT {
  bool valid = false;
  std::string why_not;        ///< when !valid
  int cells_per_thread = 0;   ///< P
  int columns_per_thread = 1; ///< C
  int radius = 1;
  int tiles[3] = {1, 1, 1};   ///< blocks along each kernel axis (slow, middle, fast)
  int blocks = 0;
  long smem_bytes = 0;        ///< the shared tile, and the halo list where it fits
  long halo_cells = 0;        ///< shell cells a block loads per step
  bool halo_list = false;     ///< the shell's (tile index, source offset) pairs all listed in shared memory
  long listed_halo_cells = 0; ///< shell cells listed (all where halo_list; else as many as the room after the tile)
  double t_step_s = 0;
  double predicted_seconds = 0;
  double predicted_gcells_per_s = 0;
  /// Cells of a tile of P x 16C x 32 owned cells widened by `radius`.
  static constexpr long tile_cells(int radius, int p, int c) {
    return static_cast<long>(p + 2 * radius) * (KernelLimitsIPT::kWarps * c + 2 * radius) *
           (KernelLimitsIPT::kFast + 2 * radius);
  }
  static constexpr long kListEntryBytes = 8;  ///< a list entry: tile index and source offset (ints)
  /// Cells of the read-only fields' tiles: a field read over the footprint
  /// keeps a whole tile (halo included, loaded once through the boundary
  /// rules), one read at the cell only the P x 16C x 32 owned cells.
  static constexpr long field_cells(int radius, int p, int c, int neighbourhood_fields, int centre_fields) {
    return neighbourhood_fields * tile_cells(radius, p, c) +
           centre_fields * static_cast<long>(p) * KernelLimitsIPT::kWarps * c * KernelLimitsIPT::kFast;
  }
  /// The kernels list the halo where tile and list fit this budget (the
  /// opt-in shared memory of an H100 / H200: a compile-time choice, each
  /// kernel has one halo path); on GPUs with less, such a kernel does not fit.
  static constexpr long kListSharedBudget = 227 * 1024;
  static constexpr long shell_cells(int radius, int p, int c, bool diagonals) {
    const long own[3] = {p, KernelLimitsIPT::kWarps * c, KernelLimitsIPT::kFast};
    return diagonals ? (p + 2 * radius) * (own[1] + 2 * radius) * (own[2] + 2 * radius) - own[0] * own[1] * own[2]
                     : 2 * radius * (own[1] * own[2] + own[0] * own[2] + own[0] * own[1]);
  }
  /// The shell cells the kernel lists: all of them where the list fits beside
  /// the tile, else as many as the room left (radius 2 at 16 384 cells per
  /// block: 3,136 of 8,192 in fp64); the others are decoded at each exchange.
  static constexpr long listed_cells(int radius, int p, int c, int scalar_bytes, bool diagonals, long fields = 0) {
    const long room =
        (kListSharedBudget - (tile_cells(radius, p, c) + fields) * static_cast<long>(scalar_bytes)) / kListEntryBytes;
    const long shell = shell_cells(radius, p, c, diagonals);
    return room <= 0 ? 0 : room < shell ? room : shell;
  }
  static constexpr bool lists_halo(int radius, int p, int c, int scalar_bytes, bool diagonals, long fields = 0) {
    return listed_cells(radius, p, c, scalar_bytes, diagonals, fields) == shell_cells(radius, p, c, diagonals);
  }
  /// The shared memory of the kernel for (radius, P, C, scalar, field cells):
  /// its tile, the fields' tiles and its halo list.
  static constexpr long shared_bytes(int radius, int p, int c, int scalar_bytes, bool diagonals, long fields = 0) {
    return (tile_cells(radius, p, c) + fields) * static_cast<long>(scalar_bytes) +
           listed_cells(radius, p, c, scalar_bytes, diagonals, fields) * kListEntryBytes;
  }
  /// Whether the kernel keeps its columns in registers from one step to the
  /// next (one shared load per cell less): they are then live through the
  /// halo load, which fits 128 registers (ptxas, CUDA 13, sm_90, no spill)
  /// for 16 fp64 cells, or 32 with a listed halo and up to 19 points;
  /// j3d13pt (halo decoded) and j3d27pt spilled 84-148 B at 32 fp64 cells.
  static constexpr bool keeps_column(int radius, int p, int c, int scalar_bytes, bool diagonals, int points,
                                     long fields = 0) {
    return p * c * scalar_bytes <= 128 || (lists_halo(radius, p, c, scalar_bytes, diagonals, fields) && points <= 19);
  }
  std::string describe() const;
};

/// The fastest predicted kernel for `steps` steps over extents n (kernel axis order).
PlanIPT choose_plan_in_place_tiling(const DeviceModel& dev, const StencilShapeIPT& s, const long (&n)[3], int steps,
                                     const std::vector<KernelLimitsIPT>& kernels);

/// The model for one kernel (used by the search and the tests).
PlanIPT evaluate_plan_in_place_tiling(const DeviceModel& dev, const StencilShapeIPT& s, const long (&n)[3],
                                       int steps, const KernelLimitsIPT& kernel);

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
