#include <ebisu_kokkos/impl/performance_model_in_place_tiling.hpp>

#include <cstdio>

namespace EbisuKokkos {
namespace Impl {

namespace {

// Fitted on the library's kernels (the column kept in registers where
// PlanIPT::keeps_column allows), in-place forced at 48^3, 64^3, 96^3 and
// 128^3 for j3d7pt, j3d13pt, j3d17pt, j3d27pt and poisson (H200, fp64,
// 2026-11-29; within 10% at 18 of the 20 points, j3d7pt 128^3 18% fast,
// docs/perf-notes-in-place-tiling.md v3):
//   t_step = 1.45 us + 0.0495 ns x (tile cells x shared accesses per cell)
//            + 0.081 ns x halo cells (+ 0.33 ns x halo cells decoded each step),
// where a cell costs one load per other column read, its store, one load per
// field point read and, unless the column stays in registers, its column's load.
constexpr double kStepFixedS = 1.45e-6;
constexpr double kSharedAccessS = 0.0495e-9;     // per 8-byte access, per block (one block per SM)
constexpr double kHaloCellS = 0.081e-9;          // per 8-byte halo cell: its store, the L2 trip, its load
constexpr double kDecodedHaloCellS = 0.33e-9;    // per halo cell decoded each step (no list)
constexpr double kLaunchS = 6e-6;             // cooperative launch, first load and last store
// A kernel that spills more than this per thread is not used: spills go to
// L2 (the shared-memory carve-out leaves L1 little room). The 32-cell kernels
// spill 20 B (poisson) and 48 B (j3d13pt) with CUDA 13.
constexpr int kMaxSpillBytes = 64;

long ceil_div(long a, long b) { return (a + b - 1) / b; }

}  // namespace

std::string PlanIPT::describe() const {
  char buf[300];
  if (!valid) {
    std::snprintf(buf, sizeof buf, "in-place tiling not possible: %s", why_not.c_str());
    return buf;
  }
  char listed[48] = "";
  if (halo_list) {
    std::snprintf(listed, sizeof listed, " (listed)");
  } else if (listed_halo_cells > 0) {
    std::snprintf(listed, sizeof listed, " (%ld listed)", listed_halo_cells);
  }
  std::snprintf(buf, sizeof buf,
                "in-place tiling: %d x %d x %d blocks of %d x %d x %d cells, %d threads of %d x %d cells, %ld KB "
                "shared, %ld halo cells per block%s, predicted %.1f GCells/s (step %.2f us)",
                tiles[0], tiles[1], tiles[2], cells_per_thread, KernelLimitsIPT::kWarps * columns_per_thread,
                KernelLimitsIPT::kFast, KernelLimitsIPT::kThreads, columns_per_thread, cells_per_thread,
                smem_bytes / 1024, halo_cells, listed, predicted_gcells_per_s, t_step_s * 1e6);
  return buf;
}

PlanIPT evaluate_plan_in_place_tiling(const DeviceModel& dev, const StencilShapeIPT& s, const long (&n)[3],
                                       int steps, const KernelLimitsIPT& k) {
  PlanIPT p;
  const int r = s.radius, pc = k.cells_per_thread, cc = k.columns_per_thread;
  p.cells_per_thread = pc;
  p.columns_per_thread = cc;
  p.radius = r;
  const long own[3] = {pc, KernelLimitsIPT::kWarps * cc, KernelLimitsIPT::kFast};
  const std::string shape = std::to_string(pc) + " x " + std::to_string(own[1]) + " x 32 cells";
  long blocks = 1;
  for (int a = 0; a < 3; ++a) {
    if (n[a] < 2 * r + 1) {
      p.why_not = "an extent of " + std::to_string(n[a]) + " has no interior at radius " + std::to_string(r);
      return p;
    }
    p.tiles[a] = static_cast<int>(ceil_div(n[a], own[a]));
    blocks *= p.tiles[a];
  }
  p.blocks = static_cast<int>(blocks);
  const long fields = PlanIPT::field_cells(r, pc, cc, s.neighbourhood_fields, s.centre_fields);
  p.smem_bytes = PlanIPT::shared_bytes(r, pc, cc, s.scalar_bytes, s.diagonals, fields);
  p.halo_list = PlanIPT::lists_halo(r, pc, cc, s.scalar_bytes, s.diagonals, fields);
  p.listed_halo_cells = PlanIPT::listed_cells(r, pc, cc, s.scalar_bytes, s.diagonals, fields);
  p.halo_cells = PlanIPT::shell_cells(r, pc, cc, s.diagonals);
  if (k.max_blocks <= 0 || p.smem_bytes > dev.smem_per_block_bytes) {
    p.why_not = "a tile of " + shape + (fields > 0 ? " with its read-only field tiles" : "") + " does not fit one SM";
    return p;
  }
  if (blocks > k.max_blocks) {
    p.why_not = "the domain needs " + std::to_string(blocks) + " blocks of " + shape + ", more than the " +
                std::to_string(k.max_blocks) + " that can be resident";
    return p;
  }
  if (k.local_bytes > kMaxSpillBytes) {
    p.why_not = "the kernel of " + std::to_string(cc) + " x " + std::to_string(pc) + " cells per thread spills " +
                std::to_string(k.local_bytes) + " B per thread";
    return p;
  }
  const long tile = own[0] * own[1] * own[2];
  const double byte_scale = s.scalar_bytes / 8.0;
  // Shared accesses per cell: one per other column read (a pair of columns
  // shares the loads of the columns both read and reads each other from
  // registers), the store, and the column's own load unless it stays in registers.
  const int column_load = PlanIPT::keeps_column(r, pc, cc, s.scalar_bytes, s.diagonals, s.points, fields) ? 0 : 1;
  const double off = cc == 2 ? s.off_columns_of_pair / 2.0 : s.off_columns;
  // Blocks beyond one per SM share its shared-memory pipe and its L2 port
  // (small kernels fit two or three per SM): an SM's step does the work of
  // all its blocks.
  const double per_sm = static_cast<double>(ceil_div(blocks, dev.sm_count > 0 ? dev.sm_count : 1));
  p.t_step_s = kStepFixedS +
               per_sm * (kSharedAccessS * byte_scale * static_cast<double>(tile) * (off + 1 + column_load + s.field_reads) +
                         kHaloCellS * byte_scale * static_cast<double>(p.halo_cells) +
                         kDecodedHaloCellS * static_cast<double>(p.halo_cells - p.listed_halo_cells));
  const double cells = static_cast<double>(n[0] - 2 * r) * (n[1] - 2 * r) * (n[2] - 2 * r);
  p.predicted_seconds = kLaunchS + steps * p.t_step_s;
  p.predicted_gcells_per_s = cells * steps / p.predicted_seconds * 1e-9;
  p.valid = true;
  return p;
}

PlanIPT choose_plan_in_place_tiling(const DeviceModel& dev, const StencilShapeIPT& s, const long (&n)[3], int steps,
                                     const std::vector<KernelLimitsIPT>& kernels) {
  PlanIPT best;
  best.why_not = "no kernel";
  for (const KernelLimitsIPT& k : kernels) {
    PlanIPT p = evaluate_plan_in_place_tiling(dev, s, n, steps, k);
    if (p.valid && (!best.valid || p.predicted_seconds < best.predicted_seconds)) best = p;
    if (!best.valid && !p.valid) best.why_not = p.why_not;  // the reason of the largest kernel tried last
  }
  return best;
}

}  // namespace Impl
}  // namespace EbisuKokkos
