#include <ebisu_kokkos/impl/performance_model_2d.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace EbisuKokkos {
namespace Impl {

namespace {

// Calibration constants of the 2-D kernel, fitted to 18 H200 measurements of
// v5 (docs/perf-notes-2d.md; rms error 6%): a cell update costs
// points + 2r + a_sm + 3 FMA-issue slots (the stencil's FMAs, the window
// shifts, the shared-memory accesses, the boundary select) at ~95% of the
// FP64 FMA rate; the L1/shared-memory pipe carries the exchange plus ~3 bytes
// per device-memory byte (cp.async into the ring and back, 8-byte accesses at
// a 16-byte stride); the second-largest of the compute / L1 / DRAM times is
// 20% exposed; each streamed row adds ~230 cycles per block (barrier,
// pipeline refill), which a second resident block hides.
constexpr double kSyncCyclesPerRow = 230.0;   // fixed cost per streamed row (per block)
constexpr double kCellOverheadOps = 3.0;      // other instructions per cell update, in FMA slots
constexpr double kFpEfficiency = 0.95;        // fraction of the FMA issue rate reached
constexpr double kOverlapLoss = 0.2;          // fraction of the second-largest time not overlapped
constexpr double kL1BytesPerDramByte = 3.0;   // L1-pipe bytes per device-memory byte
constexpr double kLaunchOverheadS = 3e-6;     // launch + first-row latency
constexpr double kSmemEfficiency = 0.90;      // fraction of peak shared-memory bandwidth reached

long ceil_div(long a, long b) { return (a + b - 1) / b; }
int round_up(int a, int m) { return ((a + m - 1) / m) * m; }

int queue_slots(const StencilModel& s, const KernelLimits2D& lim) {
  if (lim.queue_slots > 0) return lim.queue_slots;
  const int k = s.box_like ? s.radius : 0;
  return 2 * k + 2;
}

int regs_estimate(const StencilModel& s, const KernelLimits2D& lim, int depth) {
  if (depth >= 0 && depth < 16 && lim.regs_by_depth[depth] > 0) return lim.regs_by_depth[depth];
  if (lim.regs_per_thread > 0) return lim.regs_per_thread;
  const int words = s.scalar_bytes >= 8 ? 2 : 1;
  return std::min(255, words * lim.cols_per_thread * (2 * s.radius + 1) * lim.max_depth + 40);
}

int stage_planes(const StencilModel& s, const KernelLimits2D& lim) {
  return lim.planes_per_stage > 0 ? lim.planes_per_stage : queue_slots(s, lim) * lim.cols_per_thread;
}

// Shared-memory accesses per cell update with register streaming and
// cols_per_thread adjacent columns per thread, unless the kernel says: one
// store, plus the loads of the 2r columns of the neighbouring threads (centre
// row only for a star, all 2r+1 rows for a box), shared by the thread's columns.
double smem_accesses(const StencilModel& s, const KernelLimits2D& lim) {
  if (lim.smem_accesses_per_cell > 0) return lim.smem_accesses_per_cell;
  const int rows = s.box_like ? 2 * s.radius + 1 : 1;
  return 1.0 + static_cast<double>(2 * s.radius * rows) / lim.cols_per_thread;
}

}  // namespace

KernelLimits2D default_kernel_limits_2d(const StencilModel& s) {
  KernelLimits2D k;
  k.cols_per_thread = 2;
  k.max_threads = 256;
  k.max_depth = s.radius == 1 ? 10 : 6;
  k.regs_per_thread = 0;
  k.queue_slots = 0;
  k.depth_mask = s.radius == 1 ? ((1u << 1) | (1u << 2) | (1u << 4) | (1u << 8) | (1u << 10))
                               : ((1u << 1) | (1u << 2) | (1u << 4) | (1u << 6));
  return k;
}

namespace {

// max_blocks_per_sm > 0: at most that many blocks per SM (see choose_plan_2d).
Plan2D evaluate_plan_2d_capped(const DeviceModel& dev, const StencilModel& s, long ns, long nf, int t, int threads,
                               int strips, const KernelLimits2D& lim, int max_blocks_per_sm) {
  Plan2D p;
  const int R = s.radius;
  const int cx = lim.cols_per_thread;
  const double bytes = s.scalar_bytes;
  p.depth = t;
  p.threads = threads;
  p.cols_per_thread = cx;
  p.tile_width = threads * cx;
  p.strips = strips;
  p.strip_width = static_cast<int>(ceil_div(nf, strips));
  p.queue_slots = queue_slots(s, lim);
  p.planes_per_stage = stage_planes(s, lim);
  const int padm = (R + cx - 1) / cx;
  const bool fields_in_registers = t < 32 && ((lim.register_field_depths >> t) & 1u) != 0;
  const long field_queue_rows = lim.prefetch_rows + static_cast<long>(t) * (R + 1) + R + 1;
  const int levels_in = lim.state_fields * lim.state_levels;
  const int levels_out = lim.state_fields * std::min(t, lim.state_levels);
  p.smem_bytes = (static_cast<long>(t + lim.state_levels - 1) * p.planes_per_stage * (threads + 2 * padm) +
                  static_cast<long>(lim.prefetch_rows + 1) * cx * threads * levels_in +
                  lim.read_only_fields * (fields_in_registers ? (lim.prefetch_rows + 1L) * cx * threads
                                                              : field_queue_rows * cx * (threads + 2 * padm))) *
                 s.scalar_bytes;
  p.smem_accesses_per_cell = smem_accesses(s, lim);
  const long w_out = static_cast<long>(p.tile_width) - 2L * t * R;
  if (w_out < p.strip_width || p.smem_bytes > dev.smem_per_block_bytes || threads > lim.max_threads || t < 1) {
    p.predicted_gcells_per_s = 0;
    p.bottleneck = "infeasible";
    return p;
  }
  const int regs = round_up(regs_estimate(s, lim, t), 8);
  const int by_regs = dev.regs_per_sm / std::max(1, regs * round_up(threads, 32));
  const int by_smem = static_cast<int>(dev.smem_per_sm_bytes / (p.smem_bytes + 1024));
  p.blocks_per_sm = std::max(1, std::min({by_regs, by_smem, 2048 / threads, 32}));
  if (max_blocks_per_sm > 0) p.blocks_per_sm = std::min(p.blocks_per_sm, max_blocks_per_sm);

  // Persistent grid over the strip-major list of rows.
  const long total_rows = static_cast<long>(strips) * ns;
  const long min_run = std::max<long>(8, 2L * t * (2 * R + 1));
  const long slots = static_cast<long>(dev.sm_count) * p.blocks_per_sm;
  p.blocks = static_cast<int>(std::max<long>(1, std::min(slots, total_rows / min_run)));
  p.rows_per_block = ceil_div(total_rows, p.blocks);
  // A grid smaller than the slots shares the SMs among fewer blocks.
  p.blocks_per_sm = static_cast<int>(std::min<long>(p.blocks_per_sm, ceil_div(p.blocks, dev.sm_count)));
  const long L = p.rows_per_block;
  const long pieces = L <= ns ? ((ns % L) == 0 ? 1 : 2) : ceil_div(L, ns) + 1;

  // Work of the busiest block: every stage s computes len + 2(t-s)r rows per
  // piece, the load stage len + 2tr, barriers once per streamed row.
  const double stage_rows = static_cast<double>(t) * L + pieces * static_cast<double>(R) * t * (t - 1);
  const double load_rows = static_cast<double>(L) + pieces * 2.0 * t * R;
  const double iterations = static_cast<double>(L) + pieces * static_cast<double>(t) * (2 * R + 1);
  const double last_rows = static_cast<double>(L);
  const double tw = p.tile_width;
  const double fields = lim.read_only_fields;
  // Register fields: no read per stage; each loaded row is read back from the ring once.
  const double field_reads = fields_in_registers ? 0.0 : lim.field_accesses_per_cell;
  const double smem_b = bytes * tw *
                        (stage_rows * (p.smem_accesses_per_cell - lim.state_fields + field_reads) +
                         (stage_rows - last_rows) * lim.state_fields +
                         load_rows * (levels_in + (fields_in_registers ? 2.0 : 1.0) * fields));
  const double dram_b =
      bytes * (load_rows * tw * (levels_in + fields) + static_cast<double>(L) * p.strip_width * levels_out);
  // Global loads (cp.async into the ring, then read back) and stores go
  // through the same L1/shared-memory pipe as the exchange.
  const double l1_b = smem_b + kL1BytesPerDramByte * dram_b;
  const double fma_slots =
      stage_rows * tw *
      (lim.state_fields * (s.points + 2 * R) + p.smem_accesses_per_cell + field_reads + kCellOverheadOps);

  const double sm_bw = dev.smem_bandwidth_gbs * 1e9 / dev.sm_count * kSmemEfficiency;
  // FMAs per second per SM (a FMA counts 2 flops in the peak rates).
  const double fma_sm =
      (s.scalar_bytes >= 8 ? dev.fp64_gflops : dev.fp32_gflops) * 1e9 / 2 / dev.sm_count * kFpEfficiency;
  p.t_sm_s = p.blocks_per_sm * l1_b / sm_bw;
  p.t_cmp_s = p.blocks_per_sm * fma_slots / fma_sm;
  p.t_gm_s = p.blocks * dram_b / (dev.dram_bandwidth_gbs * 1e9);
  p.t_sync_s = iterations * kSyncCyclesPerRow / (dev.clock_ghz * 1e9);
  const double core = std::max({p.t_sm_s, p.t_cmp_s, p.t_gm_s});
  // The next-largest term is not fully hidden behind the largest (one or two
  // blocks per SM stream rows and compute them in lockstep).
  const double second = std::max(std::min(p.t_sm_s, p.t_cmp_s), std::min(std::max(p.t_sm_s, p.t_cmp_s), p.t_gm_s));
  p.predicted_seconds = core + kOverlapLoss * second + p.t_sync_s / p.blocks_per_sm + kLaunchOverheadS;
  p.bottleneck = core == p.t_sm_s ? "smem" : core == p.t_gm_s ? "dram" : "fp";
  if (p.t_sync_s > 0.25 * core) p.bottleneck += "+sync";

  const double interior = static_cast<double>(std::max<long>(0, ns - 2 * R)) * std::max<long>(0, nf - 2 * R);
  p.predicted_gcells_per_s = interior * t / p.predicted_seconds * 1e-9;
  p.valid_fraction = static_cast<double>(nf) / (static_cast<double>(strips) * tw);
  p.y_efficiency = static_cast<double>(t) * ns * strips / (stage_rows * p.blocks);
  return p;
}

}  // namespace

Plan2D evaluate_plan_2d(const DeviceModel& dev, const StencilModel& s, long ns, long nf, int t, int threads,
                        int strips, const KernelLimits2D& lim) {
  return evaluate_plan_2d_capped(dev, s, ns, nf, t, threads, strips, lim, 0);
}

Plan2D choose_plan_2d(const DeviceModel& dev, const StencilModel& s, long ns, long nf, int steps,
                      const TuningKnobs& knobs, const KernelLimits2D& lim) {
  const int R = s.radius;
  const int cx = lim.cols_per_thread;
  int t_lo = 1, t_hi = std::max(1, std::min(lim.max_depth, steps));
  if (knobs.temporal_depth > 0) t_lo = t_hi = std::max(1, std::min({knobs.temporal_depth, lim.max_depth, std::max(1, steps)}));
  // Only compiled depths: the largest allowed one not above t_hi when forced.
  auto allowed = [&](int t) { return t < 32 && ((lim.depth_mask >> t) & 1u) != 0; };
  if (t_lo == t_hi) {
    while (t_lo > 1 && !allowed(t_lo)) --t_lo;
    t_hi = t_lo;
  }
  int th_lo = 32, th_hi = lim.max_threads;
  if (knobs.threads > 0) {
    th_lo = th_hi = std::min(lim.max_threads, round_up(knobs.threads, 32));
  } else if (knobs.tile_width > 0) {
    th_lo = th_hi = std::min(lim.max_threads, round_up(static_cast<int>(ceil_div(knobs.tile_width, cx)), 32));
  }
  // Blocks of a whole number of 4-warp groups: a block's warps then spread
  // evenly over the SM's four schedulers, and the per-row barrier is not held
  // up by one overloaded scheduler (measured on an H200: 160- and 192-thread
  // blocks ran 20-35% slower than 128- and 256-thread ones at the same depth).
  const int th_step = knobs.threads > 0 || knobs.tile_width > 0 || th_hi < 128 ? 32 : 128;
  if (th_step == 128) th_lo = 128;
  Plan2D best;
  bool have = false;
  // Deepest first: a tie goes to the deeper plan (fewer launches; measured
  // faster on the H200 where the model could not tell, e.g. j2d9pt-gol depth 8
  // vs 4 at 755 GCells/s predicted: 829 vs 697 measured).
  for (int t = t_hi; t >= t_lo; --t) {
    if (t > 1 && !allowed(t)) continue;
    for (int th = th_lo; th <= th_hi; th += th_step) {
      const long w_out = static_cast<long>(th) * cx - 2L * t * R;
      if (w_out < 1) continue;
      const long strips = ceil_div(nf, w_out);
      // Every block count per SM up to what fits: where a block's run of
      // rows is short, fewer and longer runs pay fewer pipeline fills (H200,
      // j2d5pt 2048^2 depth 8: 2 blocks per SM 679, 3 633 GCells/s; at 4096^2
      // depth 10, 3 per SM stay ahead, 936 against 918).
      const Plan2D widest = evaluate_plan_2d_capped(dev, s, ns, nf, t, th, static_cast<int>(strips), lim, 0);
      if (widest.bottleneck == "infeasible") continue;
      for (int bps = widest.blocks_per_sm; bps >= 1; --bps) {
        const Plan2D p = bps == widest.blocks_per_sm
                             ? widest
                             : evaluate_plan_2d_capped(dev, s, ns, nf, t, th, static_cast<int>(strips), lim, bps);
        if (!have || p.predicted_gcells_per_s > best.predicted_gcells_per_s * 1.0001) {
          best = p;
          have = true;
        }
      }
    }
  }
  if (!have) {
    // Always return something runnable: depth 1, widest tile.
    const int th = lim.max_threads;
    const long w_out = std::max<long>(1, static_cast<long>(th) * cx - 2L * R);
    best = evaluate_plan_2d(dev, s, ns, nf, 1, th, static_cast<int>(ceil_div(nf, w_out)), lim);
  }
  return best;
}

Plan2D choose_plan_2d(const DeviceModel& dev, const StencilModel& s, long ns, long nf, int steps,
                      const TuningKnobs& knobs) {
  return choose_plan_2d(dev, s, ns, nf, steps, knobs, default_kernel_limits_2d(s));
}

std::string Plan2D::describe() const {
  char buf[640];
  std::snprintf(buf, sizeof buf,
                "ebisu-2d: depth %d, tile %d cols (%d threads x %d), %d strips of %d valid cols (V=%.3f), "
                "%d blocks (%d/SM, persistent, %ld rows each, y-eff %.3f), smem %ld B (%d planes/stage), "
                "a_sm %.2f; predicted %.1f GCells/s (T_gm %.1f us, T_sm %.1f us, T_cmp %.1f us, sync %.1f us; "
                "bound: %s)",
                depth, tile_width, threads, cols_per_thread, strips, strip_width, valid_fraction, blocks,
                blocks_per_sm, rows_per_block, y_efficiency, smem_bytes, planes_per_stage, smem_accesses_per_cell,
                predicted_gcells_per_s, t_gm_s * 1e6, t_sm_s * 1e6, t_cmp_s * 1e6, t_sync_s * 1e6,
                bottleneck.c_str());
  return buf;
}

}  // namespace Impl
}  // namespace EbisuKokkos
