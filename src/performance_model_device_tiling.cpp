#include <ebisu_kokkos/impl/performance_model_device_tiling.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <utility>
#include <vector>

namespace EbisuKokkos {
namespace Impl {

namespace {

// Calibration constants (H200, docs/perf-notes-device-tiling.md).
constexpr double kSmemEfficiency = 0.70;     // of the peak 128 B/clock/SM the compute phase reaches
constexpr double kStepFixedCycles = 200;     // the block barrier and the pipeline drain of a step
constexpr double kStepCyclesPerRun = 120;    // a run's window fill (shared-memory latency)
constexpr double kStepCyclesPerCell = 12;    // per cell of a thread's run (issue and latency not hidden)
// Store, barrier visibility and the L2 read round trips of an exchange (H200):
// v2's load-then-store halo loop measured ~5.9 us per exchange in all (2.5x
// the first estimate of 1.0 + 1.2 us); v3, four loads in flight, ~4.8 us; v7,
// halo offsets kept in registers and eight loads in flight, ~3.4 us with the
// barrier (fit over 2-D and 3-D depths 1-16, docs/perf-notes-device-tiling.md).
constexpr double kExchangeLatencyUs = 2.5;
// 3-D steps cost more than the 2-D-calibrated terms give (H200: v3 2.6x on
// average at 32^3 / 64^3, runs of 4-8 cells and narrow columns; v7, runs kept
// per thread and cells in groups, 1.55x).
constexpr double kStepScale3D = 1.55;
constexpr double kL2OverDram = 2.2;          // L2 bandwidth relative to the measured DRAM copy bandwidth
constexpr double kLaunchUs = 6.0;            // cooperative launch and the tail of the grid
constexpr double kDefaultGridSyncUs = 1.0;   // measured 0.98 us at 132 blocks on an H200
constexpr long kListEntryBytes = 8;          // an exchange list entry: tile index and global offset (ints)

long ceil_div(long a, long b) { return (a + b - 1) / b; }

}  // namespace

std::string PlanDT::describe() const {
  char buf[400];
  if (!valid) {
    std::snprintf(buf, sizeof buf, "device-tiling not possible: %s", why_not.c_str());
    return buf;
  }
  std::snprintf(buf, sizeof buf,
                "device-tiling: depth %d (halo %d), %d x %d x %d blocks of %d x %d x %d cells (owned %d x %d x %d), "
                "%d threads (%d columns x %d runs of %d), %ld KB shared, redundancy %.2f, predicted %.1f GCells/s "
                "(step %.2f us, exchange %.2f us)",
                depth, halo[0], tiles[0], tiles[1], tiles[2], local[0], local[1], local[2], own[0], own[1], own[2],
                threads, pencils, chunks, chunk_len, smem_bytes / 1024, redundancy, predicted_gcells_per_s,
                t_step_s * 1e6, t_exchange_s * 1e6);
  std::string d = buf;
  if (list_cells > 0) d += "; exchange lists of " + std::to_string(list_cells) + " cells";
  if (kept_run_cells > 0) d += "; runs kept in registers across steps";
  return d;
}

PlanDT evaluate_plan_device_tiling(const DeviceModel& dev, const StencilModel& s, const long (&n)[3], int steps,
                                   int depth, const int (&tiles)[3], const KernelLimitsDT& lim) {
  PlanDT p;
  p.depth = depth;
  const int r = s.radius;
  const bool has_mid = s.rank == 3;
  const int rr[3] = {r, has_mid ? r : 0, r};
  long owned_total = 1, local_total = 1, inner_total = 1;
  for (int a = 0; a < 3; ++a) {
    p.halo[a] = depth * rr[a];
    p.own[a] = static_cast<int>(ceil_div(n[a], tiles[a]));
    p.tiles[a] = static_cast<int>(ceil_div(n[a], p.own[a]));
    p.local[a] = p.own[a] + 2 * p.halo[a];
    owned_total *= p.own[a];
    local_total *= p.local[a];
    inner_total *= std::max(0, p.own[a] - 2 * p.halo[a]);
  }
  p.blocks = p.tiles[0] * p.tiles[1] * p.tiles[2];
  // The state tiles (one field: two copies, each step reads one and writes
  // the other), and one tile per read-only field.
  p.smem_bytes = static_cast<long>(lim.state_tiles + lim.field_tiles) * local_total * s.scalar_bytes;
  const int max_blocks = lim.max_blocks > 0 ? lim.max_blocks : dev.sm_count;
  if (p.blocks > max_blocks) {
    p.why_not = "more tiles than co-resident blocks";
    return p;
  }
  if (p.smem_bytes > dev.smem_per_block_bytes) {
    p.why_not = "tile does not fit in shared memory";
    return p;
  }
  // Work items: (column, run along the slow axis) pairs, about one per
  // thread; runs of at least 2R + 2 cells so that the window fill stays a
  // small part, and of at most kLongestRun cells. A thread computes its run in
  // groups of cells, one after the other: a run of 24 cells is a chain of six
  // groups, and a step waits for its longest chain. Measured (H100, fp64,
  // device tiling forced, docs/perf-notes-device-tiling.md v11): j2d5pt
  // 1024^2 in 540 runs of 24 on 512 threads 365 GCells/s, in runs of 8-12
  // (two or three per thread) 457-466; 768^2 runs of 16 -> 12: 319 -> 329.
  // Where the runs are short already, filling the block's threads wins: a
  // 32^3 tile in 392 runs of 5 ran 17.7 GCells/s, in 196 runs of 10 12.5,
  // and runs of 2 to 3 groups on fewer threads measured within +-5% at
  // 256^2 and 512^2, so those plans stay as they were.
  // Groups of 4: runs longer than a group are whole groups, since a run's
  // last 1-3 cells that do not fill a group each wait for their own latency
  // chain (H100: j2d5pt 384^2 runs of 6 -> 8 129.6 -> 148.8 GCells/s,
  // j3d7pt 64^3 59.9 -> 63.6, poisson 64^3 38.1 -> 43.1). Groups of 2 leave
  // at most one such cell, and rounding their runs up cost threads for
  // nothing (j2d9pt 512^2 runs of 11 -> 12 147 -> 137, Gray-Scott 512^2
  // 116 -> 112; perf-notes-device-tiling.md v12).
  constexpr int kLongestRun = 12;
  p.pencils = (p.local[1] - 2 * rr[1]) * (p.local[2] - 2 * rr[2]);
  const int rows = p.local[0] - 2 * rr[0];
  const int max_chunks = std::max(1, rows / (2 * r + 2));
  long chunks = std::max(1L, std::min<long>(max_chunks, ceil_div(lim.max_threads, p.pencils)));
  if (ceil_div(rows, chunks) > kLongestRun) chunks = ceil_div(rows, kLongestRun);
  p.chunk_len = static_cast<int>(ceil_div(rows, chunks));
  const int group = lim.group_cells;
  if (group >= 4 && p.chunk_len > group) p.chunk_len = static_cast<int>(ceil_div(p.chunk_len, group) * group);
  p.chunks = static_cast<int>(ceil_div(rows, p.chunk_len));
  const long items = static_cast<long>(p.pencils) * p.chunks;
  p.threads = static_cast<int>(std::min<long>(lim.max_threads, ceil_div(items, 32) * 32));
  if (items > static_cast<long>(KernelLimitsDT::kMaxRunsPerThread) * p.threads) {
    p.why_not = "more columns than the threads can keep";
    return p;
  }
  p.valid = true;

  // Exchange lists: the (tile, global) offsets of the cells an exchange
  // moves beyond those each thread keeps in registers (the halo), and of the
  // owned shell it stores, computed once per launch into the shared memory
  // the tiles leave free: an exchange then does no index arithmetic (at
  // 64^3 the per-row shell store and the per-cell halo slab path were half
  // of the kernel's instructions). The last block owns the fewest cells and
  // so has the most halo cells; its count bounds them all.
  long halo_max = 0, shell_max = 0;
  for (const bool last : {false, true}) {
    long owned = 1, inner = 1;
    for (int a = 0; a < 3; ++a) {
      const long own = last ? n[a] - static_cast<long>(p.tiles[a] - 1) * p.own[a] : p.own[a];
      owned *= own;
      inner *= std::max(0L, own - 2L * p.halo[a]);
    }
    halo_max = std::max(halo_max, local_total - owned);
    shell_max = std::max(shell_max, owned - inner);
  }
  const long tiles_bytes = p.smem_bytes;
  // The lists (entries, shared bytes) beside tiles of `bytes`, with `in_registers` halo cells per thread.
  auto lists = [&](long bytes, long in_registers) {
    if (!lim.exchange_lists) return std::pair<long, long>{0, bytes};
    const long wanted = shell_max + std::max(0L, halo_max - in_registers * p.threads);
    const long room = (dev.smem_per_block_bytes - bytes) / kListEntryBytes;
    const long cells = std::max(0L, std::min(wanted, room));
    return std::pair<long, long>{cells, bytes + cells * kListEntryBytes};
  };
  // Runs kept in registers: the padding rows after every tile, and no halo
  // offsets in registers, so only where the lists hold every halo cell (the
  // rest would take the slab path at each exchange: heat2d-var 1024^2 at
  // depth 4, with a field tile, ran 9% slower kept than streamed, H200).
  const long pad_bytes = static_cast<long>(lim.state_tiles + lim.field_tiles) * KernelLimitsDT::kKeptRunPadRows *
                         p.local[1] * p.local[2] * s.scalar_bytes;
  const auto kept_lists = lists(tiles_bytes + pad_bytes, KernelLimitsDT::kKeptRunHaloCellsInRegisters);
  const bool kept = lim.keeps_runs && items <= static_cast<long>(KernelLimitsDT::kKeptRuns) * p.threads &&
                    KernelLimitsDT::keeps_runs_of(p.chunk_len) &&
                    tiles_bytes + pad_bytes <= dev.smem_per_block_bytes && lim.exchange_lists &&
                    kept_lists.first >= halo_max;
  p.kept_run_cells = kept ? p.chunk_len : 0;
  const auto chosen = kept ? kept_lists : lists(tiles_bytes, lim.halo_cells_in_registers);
  p.list_cells = static_cast<int>(chosen.first);
  p.smem_bytes = chosen.second;

  // Step j of a round computes the tile less (j + 1) * radius on every side
  // (the cells the rest of the round needs): through shared memory (loads of
  // the off-column points, one centre-column load and one store per cell) or
  // through the FP units, or the issue of each thread's serial work, whichever
  // is slowest, plus the block barrier; averaged over the round.
  const double clock_hz = dev.clock_ghz * 1e9;
  // (Runs kept in registers: no load of the centre column's newest value.)
  const double a_sm = (lim.smem_accesses_per_cell > 0 ? lim.smem_accesses_per_cell : s.smem_accesses_per_cell() + 1) -
                      (p.kept_run_cells > 0 ? 1.0 : 0.0) + 2.0 * r / p.chunk_len;
  const double smem_bytes_per_s_sm = dev.smem_bandwidth_gbs * 1e9 / dev.sm_count * kSmemEfficiency;
  const double fp_per_sm = (s.scalar_bytes == 8 ? dev.fp64_gflops : dev.fp32_gflops) * 1e9 / dev.sm_count;
  // Each thread keeps its runs for the whole launch and the central runs
  // stay whole at every step: the serial part of a step is the same at each j.
  const double t_issue =
      static_cast<double>(ceil_div(items, p.threads)) * (kStepCyclesPerRun + kStepCyclesPerCell * p.chunk_len) /
      clock_hz;
  double step_sum = 0, computed_sum = 0;
  for (int j = 0; j < depth; ++j) {
    long computed = 1;
    for (int a = 0; a < 3; ++a) computed *= std::max(1, p.local[a] - 2 * rr[a] * (j + 1));
    const double t_smem = computed * a_sm * std::max(4, s.scalar_bytes) / smem_bytes_per_s_sm;
    const double t_fp = computed * s.flops / fp_per_sm;
    step_sum += std::max({t_smem, t_fp, t_issue}) + kStepFixedCycles / clock_hz;
    computed_sum += static_cast<double>(computed);
  }
  p.redundancy = computed_sum / depth / owned_total;
  p.t_step_s = step_sum / depth * (has_mid ? kStepScale3D : 1.0);

  // One exchange: the owned shell out, the halo in, both through L2.
  const double l2_per_sm = kL2OverDram * dev.dram_bandwidth_gbs * 1e9 / dev.sm_count;
  const double shell = static_cast<double>(owned_total - inner_total);
  const double halo = static_cast<double>(local_total - owned_total);
  const double sync_us = dev.grid_sync_us > 0 ? dev.grid_sync_us : kDefaultGridSyncUs;
  // Several state tiles: each one's shell and halo; their loads overlap only within one tile.
  p.t_exchange_s = (lim.grid_syncs_per_exchange * sync_us + lim.exchanged_tiles * kExchangeLatencyUs) * 1e-6 +
                   lim.exchanged_tiles * (shell + halo) * s.scalar_bytes / l2_per_sm;
  // The first load and the last store stream the whole domain through DRAM.
  const double domain_bytes = static_cast<double>(n[0]) * n[1] * n[2] * s.scalar_bytes;
  // (Several state tiles: every level is loaded and stored, the final store after one more grid barrier.)
  const double final_sync_s = lim.grid_syncs_per_exchange > 1 ? sync_us * 1e-6 : 0.0;
  p.t_edges_s = kLaunchUs * 1e-6 + final_sync_s +
                domain_bytes *
                    (lim.exchanged_tiles +
                     (lim.exchanged_tiles + lim.field_tiles) * static_cast<double>(local_total) / owned_total) /
                    (dev.dram_bandwidth_gbs * 1e9);

  const long rounds = ceil_div(steps, depth);
  p.predicted_seconds = steps * p.t_step_s + (rounds - 1) * p.t_exchange_s + p.t_edges_s;
  double interior = 1;
  for (int a = 0; a < 3; ++a) interior *= static_cast<double>(std::max<long>(0, n[a] - 2 * rr[a]));
  p.predicted_gcells_per_s = p.predicted_seconds > 0 ? interior * steps / p.predicted_seconds * 1e-9 : 0;
  return p;
}

PlanDT choose_plan_device_tiling(const DeviceModel& dev, const StencilModel& s, const long (&n)[3], int steps,
                                 const TuningKnobs& knobs, const KernelLimitsDT& lim) {
  PlanDT best;
  best.why_not = "no tiling fits";
  const int max_blocks = lim.max_blocks > 0 ? lim.max_blocks : dev.sm_count;
  // Distinct tilings only: tile counts that give the same owned extents are one tiling.
  auto counts = [&](long extent, int limit) {
    std::set<int> own;
    for (int t = 1; t <= limit && t <= extent; ++t) own.insert(static_cast<int>(ceil_div(extent, t)));
    std::vector<int> tiles;
    for (int o : own) tiles.push_back(static_cast<int>(ceil_div(extent, o)));
    return tiles;
  };
  std::vector<int> depths;
  if (knobs.temporal_depth > 0) {
    depths.push_back(std::min(knobs.temporal_depth, std::max(1, steps)));
  } else {
    // (Depth 16 never won in the v7 measurements: 256^2 to 1024^2 ran 9-40%
    // slower than at depth 12, the halo's redundant work growing faster than the
    // model's shared-memory term says.)
    for (int d : {1, 2, 3, 4, 5, 6, 8, 10, 12})
      if (d <= lim.max_depth && d <= std::max(1, steps)) depths.push_back(d);
  }
  const std::vector<int> t0 = counts(n[0], max_blocks);
  for (int a : t0) {
    const std::vector<int> t1 = counts(n[1], max_blocks / a);
    for (int b : t1) {
      const std::vector<int> t2 = counts(n[2], max_blocks / (a * b));
      for (int c : t2) {
        const int tiles[3] = {a, b, c};
        for (int d : depths) {
          const PlanDT p = evaluate_plan_device_tiling(dev, s, n, std::max(1, steps), d, tiles, lim);
          if (!p.valid) continue;
          if (!best.valid || p.predicted_seconds < best.predicted_seconds) best = p;
        }
      }
    }
  }
  if (!best.valid && knobs.temporal_depth > 0) best.why_not += " at the requested depth";
  if (best.valid && knobs.temporal_depth == 0) {
    // The model's depth is not always the fastest: the step's time grows with
    // the tile faster than counted, and the landscape is flat (H200, fp64,
    // same process: j2d9pt 512^2 depth 8 chosen, depth 4 11% faster; j2d9pt
    // 256^2 8 against 6 8%; j2d5pt 512^2 12 against 8 3.5%, 1024^2 8 against 6
    // 2.5%; docs/perf-notes-device-tiling.md, v17).
    int below = 0;
    for (int d : depths)
      if (d < best.depth) below = d;
    best.shallower_depths[0] = below;
    const double two_thirds = 2.0 * best.depth / 3.0;
    for (int d : depths)
      if (d < below && (best.shallower_depths[1] == 0 ||
                        std::abs(d - two_thirds) <= std::abs(best.shallower_depths[1] - two_thirds)))
        best.shallower_depths[1] = d;
  }
  return best;
}

}  // namespace Impl
}  // namespace EbisuKokkos
