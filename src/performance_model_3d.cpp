#include <ebisu_kokkos/impl/performance_model_3d.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace EbisuKokkos {
namespace Impl {

namespace {

// Fraction of the shared-memory / FP roofline one block reaches inside a level.
constexpr double kEfficiency = 0.70;
// Fixed cycles per level: the __syncthreads between levels.
constexpr double kLevelOverheadCycles = 60;
// Issue/latency bound of the current kernel, fitted to H200 measurements
// (docs/perf-notes-3d.md): with 9 warps per SM (2.25 per scheduler) the
// kernel issues an instruction every ~7 cycles per warp (ncu: fixed-latency
// dependency stalls), so one level-plane costs, per row a warp computes,
// kRowCycles + kPointCycles * points, plus kLevelPlaneCycles (slot
// arithmetic, loop control). Fit: j3d7pt 2970 and j3d27pt 4220 cycles per
// level-plane at 3 rows per warp.
constexpr double kRowCycles = 700;
constexpr double kPointCycles = 20.8;
constexpr double kLevelPlaneCycles = 430;
constexpr double kMeasuredWarps = 9;
// Kernel launch overhead (cooperative launch, flag reset).
constexpr double kLaunchOverheadUs = 6.0;
// Per step, after the synchronisation: the L2 round trip of the halo strips.
constexpr double kHaloLatencyUs = 0.6;
// Largest plane group (planes per level between two synchronisations).
constexpr int kMaxPlanes = 4;

long ceil_div(long a, long b) { return (a + b - 1) / b; }

double sync_us(const DeviceModel& d, SyncKind s) {
  const double grid = d.grid_sync_us > 0 ? d.grid_sync_us : 2.0;
  // Neighbour flags: one fenced store and one acquire poll through L2 per
  // neighbour, no all-to-all round: about 0.4 of a grid barrier.
  return s == SyncKind::grid_barrier ? grid : 0.4 * grid;
}

// Threads for a tile: warps own rows, lanes own columns; the fewest warp-slots
// (rows rounded up to whole rounds of warps), then the fewest rounds.
int choose_threads(int tile_x, int tile_y) {
  int best = 256;
  long best_slots = -1, best_rounds = 0;
  for (int t = 256; t <= 320; t += 32) {  // the measured range
    const int warps = t / 32;
    const long rounds = ceil_div(tile_y, warps) * ceil_div(tile_x, 32);
    const long slots = rounds * warps;
    if (best_slots < 0 || slots < best_slots || (slots == best_slots && rounds < best_rounds)) {
      best = t;
      best_slots = slots;
      best_rounds = rounds;
    }
  }
  return best;
}

int max_depth_for(const DeviceModel& d, const StencilModel& s, int tile_x, int tile_y, int planes) {
  const long one = smem_bytes_3d(1, s.radius, tile_x, tile_y, s.scalar_bytes, planes);
  const long avail = d.smem_per_block_bytes - 1024;  // static/reserved shared memory
  return one > 0 ? static_cast<int>(avail / one) : 0;
}

}  // namespace

long smem_bytes_3d(int depth, int radius, int tile_x, int tile_y, int scalar_bytes, int planes) {
  return static_cast<long>(depth) * (planes + 2 * radius) * (tile_x + 2L * radius) * (tile_y + 2L * radius) * scalar_bytes;
}

double predict_launch_seconds_3d(const DeviceModel& d, const StencilModel& s, const Plan3D& p, int depth,
                                 std::string* bottleneck) {
  const int r = s.radius;
  const double clk = d.clock_ghz * 1e9;
  const int warps = p.threads / 32;
  // Shared-memory wavefronts of one warp-wide access (128 B per cycle per SM).
  const double wave = std::max(1.0, 32.0 * s.scalar_bytes / 128.0);
  const double row_rounds = static_cast<double>(ceil_div(p.tile_y, warps)) * warps * ceil_div(p.tile_x, 32);
  // Accesses per cell update: every offset from shared memory, one store.
  const double smem_level = row_rounds * (s.points + 1) * wave;
  const double fp_per_sm_cycle = d.fp64_gflops > 0 ? (s.scalar_bytes == 8 ? d.fp64_gflops : d.fp32_gflops) /
                                                         (d.sm_count * d.clock_ghz)
                                                   : 128;
  const double fp_level = static_cast<double>(p.tile_x) * p.tile_y * s.flops / fp_per_sm_cycle;
  // Per plane step: the level-0 plane (tile + halo) lands in shared memory,
  // halo strips of the depth-1 intermediate levels are read back from L2.
  const double px = p.tile_x + 2.0 * r, py = p.tile_y + 2.0 * r;
  const double ring = px * py - static_cast<double>(p.tile_x) * p.tile_y;
  const int P = p.planes;
  const double load_cycles = P * ((px * py / 32.0) * wave + (depth - 1) * (2 * ring / 32.0) * wave * 2);
  // Rows (32-lane warp tasks) of the tile, normalised to the measured 9 warps
  // per SM: more warps are not assumed to help (not measured).
  const double rows = static_cast<double>(p.tile_y) * ceil_div(p.tile_x, 32);
  const double issue_level = rows / kMeasuredWarps * (kRowCycles + kPointCycles * s.points) + kLevelPlaneCycles;
  const double level_plane = std::max(smem_level / kEfficiency, issue_level);
  const double smem_t = (depth * (P * level_plane + kLevelOverheadCycles) + load_cycles / kEfficiency) / clk;
  const double fp_t = (depth * P * fp_level) / clk / kEfficiency;
  // Device memory per plane step: every block's tile + halo of the input, the output plane.
  const double dram_bytes = P * (static_cast<double>(p.blocks()) * px * py + static_cast<double>(p.nx) * p.ny) *
                            s.scalar_bytes;
  const double dram_t = dram_bytes / (d.dram_bandwidth_gbs * 1e9);
  const double sync_t = (sync_us(d, p.sync) + (depth > 1 ? kHaloLatencyUs : 0)) * 1e-6;
  const double work_t = std::max({smem_t, fp_t, dram_t});
  if (bottleneck) {
    if (sync_t > work_t) *bottleneck = "synchronisation";
    else if (work_t == smem_t && issue_level > smem_level / kEfficiency) *bottleneck = "instruction issue/latency";
    else if (work_t == dram_t) *bottleneck = "device memory";
    else if (work_t == fp_t) *bottleneck = "fp";
    else *bottleneck = "shared memory";
  }
  const double steps_per_launch = std::ceil((static_cast<double>(p.nz) + depth * (P + r)) / P);
  return steps_per_launch * (work_t + sync_t) + kLaunchOverheadUs * 1e-6;
}

Plan3D choose_plan_3d(const DeviceModel& d, const StencilModel& s, long nz, long ny, long nx, int steps,
                      const TuningKnobs& knobs, SyncKind sync, int planes) {
  Plan3D best;
  best.nx = nx;
  best.ny = ny;
  best.nz = nz;
  best.sync = sync;
  const int r = s.radius;
  if (nx < 2L * r + 1 || ny < 2L * r + 1 || nz < 2L * r + 1 || d.sm_count <= 0) return best;
  const double interior = static_cast<double>(nx - 2 * r) * (ny - 2 * r) * (nz - 2 * r);
  const int T = std::max(steps, 1);
  double best_time = -1;

  // Candidate decompositions: grid_x * grid_y <= SMs; tiles at least r wide
  // (halos then come from the 8 neighbours only).
  const long gx_max = std::min<long>(d.sm_count, nx / r);
  for (long gx = 1; gx <= gx_max; ++gx) {
    const long gy_max = std::min<long>(d.sm_count / gx, ny / r);
    for (long gy = 1; gy <= gy_max; ++gy) {
      Plan3D p = best;
      p.grid_x = static_cast<int>(gx);
      p.grid_y = static_cast<int>(gy);
      p.tile_x = static_cast<int>(ceil_div(nx, gx));
      p.tile_y = static_cast<int>(ceil_div(ny, gy));
      if (knobs.tile_width > 0) {
        // honour the knob: the decomposition whose largest tile is the knob's width
        if (ceil_div(nx, gx) != ceil_div(nx, ceil_div(nx, std::min<long>(std::max(knobs.tile_width, 2 * r), nx)))) continue;
      }
      if (knobs.tile_height > 0) {
        if (ceil_div(ny, gy) != ceil_div(ny, ceil_div(ny, std::min<long>(std::max(knobs.tile_height, 2 * r), ny)))) continue;
      }
      p.threads = knobs.threads > 0 ? std::min(512, std::max(32, knobs.threads / 32 * 32))
                                    : choose_threads(p.tile_x, p.tile_y);
     for (int P = planes > 0 ? planes : 1; P <= (planes > 0 ? planes : kMaxPlanes); ++P) {
      p.planes = P;
      const int dmax = max_depth_for(d, s, p.tile_x, p.tile_y, P);
      if (dmax < 1) continue;
      int dlo = 1, dhi = std::min(dmax, T);
      if (knobs.temporal_depth > 0) {
        if (knobs.temporal_depth > dmax) continue;
        dlo = dhi = std::min(knobs.temporal_depth, T);
      }
      for (int t = dlo; t <= dhi; ++t) {
        const int full = T / t, rem = T % t;
        double time = full * predict_launch_seconds_3d(d, s, p, t);
        if (rem > 0) time += predict_launch_seconds_3d(d, s, p, rem);
        if (best_time < 0 || time < best_time * (1 - 1e-9)) {
          best_time = time;
          best = p;
          best.valid = true;
          best.depth = t;
          best.launches = full + (rem > 0 ? 1 : 0);
          best.smem_bytes = smem_bytes_3d(t, r, p.tile_x, p.tile_y, s.scalar_bytes, P);
          best.predicted_gcells_per_s = interior * T / time * 1e-9;
          best.us_per_plane_step =
              (predict_launch_seconds_3d(d, s, best, t, &best.bottleneck) - kLaunchOverheadUs * 1e-6) /
              std::ceil((static_cast<double>(nz) + t * (P + r)) / P) * 1e6;
        }
      }
     }
    }
  }
  return best;
}

double predict_generic_gcells_3d(const DeviceModel& d, const StencilModel& s) {
  // One read and one write per cell-step at ~58% of the copy bandwidth for
  // j3d7pt, and slower as the stencil grows (L1 traffic): exponent fitted to
  // the generic path's 3-D presets on an H200 at 128^3-512^3 (157, 109-114,
  // 104-116, 63-67, 99-104 GCells/s for 7, 13, 17, 27, 19 points; the 27-point
  // box runs ~20% below the fit).
  const double j3d7pt = 0.58 * d.dram_bandwidth_gbs / (2.0 * s.scalar_bytes);
  return j3d7pt * std::pow(7.0 / std::max(s.points, 1), 0.45);
}

double predict_generic_seconds_3d(const DeviceModel& d, const StencilModel& s, long nz, long ny, long nx, int steps,
                                  bool copy_back_free) {
  const int r = s.radius;
  const double interior = static_cast<double>(nx - 2 * r) * (ny - 2 * r) * (nz - 2 * r);
  double t = steps * generic_step_seconds(interior / (predict_generic_gcells_3d(d, s) * 1e9), 3,
                                         steps >= kGenericGraphMinSteps);
  if (steps % 2 == 1 && !copy_back_free) t += 2.0 * nx * ny * nz * s.scalar_bytes / (d.dram_bandwidth_gbs * 1e9);
  return t;
}

std::string Plan3D::describe() const {
  if (!valid) return "ebisu-3d: no device tiling fits this problem";
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "ebisu-3d device tiling: depth %d, plane group %d, %d launch(es), SM tile %dx%d (x*y), device tile %ldx%ld "
                "streamed over z=%ld, grid %dx%d=%d blocks x %d threads, smem %ld B, sync %s, "
                "%.2f us/step, predicted %.1f GCells/s, bottleneck %s",
                depth, planes, launches, tile_x, tile_y, nx, ny, nz, grid_x, grid_y, blocks(), threads, smem_bytes,
                to_string(sync), us_per_plane_step, predicted_gcells_per_s, bottleneck.c_str());
  return buf;
}


// ------------------------------------------------------------ SM tiling --
namespace {
// Cost of one streamed plane (iteration) of a block, fitted to H200
// measurements of the kernel (16 points: five stencils x depths 1-4 at T = 240,
// docs/perf-notes-3d.md; largest error 23%, j3d27pt at depth 2 under-predicted):
// kSmIterCycles of fixed work (barrier, input stage, output stores, slot
// arithmetic) plus kSmWaveCycles per shared-memory wavefront of the cell-level
// updates (16 warps x depth x cells_y per iteration). Device memory: tile plus
// overlapped halo read per plane, output written, at kSmDramEff of the copy
// bandwidth. The two overlap imperfectly: time = max + kSmOverlap * min.
// Shapes whose register window takes more than 64 registers per thread run at
// the 128-register limit of a 512-thread block (fewer loads in flight):
// kSmRegisterPenalty on the compute time (fitted: j3d7pt depth 3).
constexpr double kSmIterCycles = 400;
constexpr double kSmWaveCycles = 1.0;
constexpr double kSmDramEff = 0.70;
constexpr double kSmOverlap = 0.25;
constexpr double kSmRegisterPenalty = 1.25;
constexpr double kSmLaunchUs = 4.0;

// Shared-memory accesses of one cell update: the off-column loads (points not
// in the thread's own x-y column; the y-neighbours inside the thread's
// cells_y cells come from registers) plus one store.
double sm_accesses_per_cell(const StencilModel& s, int cells_y) {
  const int r = s.radius;
  const double off = s.box_like ? s.points - (2.0 * r + 1) : 4.0 * r;
  const double y_share = s.box_like ? 0.25 : 0.5;  // of the off-column points at dx = 0
  return off * (1 - y_share) + off * y_share * std::min(1.0, (r + 1) / (2.0 * cells_y)) + 1;
}
}  // namespace

SmTileShape3D sm_tile_shape_3d(int depth, int radius, int zreach, int scalar_bytes, int export_planes,
                               int field_queues, int state_fields, int state_levels, bool older_around,
                               int centre_rings) {
  SmTileShape3D s;
  s.depth = depth;
  s.state_fields = state_fields;
  s.state_levels = state_levels;
  const int levels_in = state_fields * state_levels;
  s.cells_y = sm3d_cells_y(depth, radius, zreach, field_queues + centre_rings, levels_in);
  s.threads_x = s.cells_y == 4 ? 64 : 32;
  s.threads_y = sm3d_threads / s.threads_x;
  s.tile_x = s.threads_x;
  s.tile_y = s.threads_y * s.cells_y;
  // Per field: one stream per step of the launch and per older input level (Sm3dStreams).
  const int lag = radius + 1;
  s.queue_planes = 2 * zreach + 2 + (older_around ? (state_levels - 1) * lag : 0);
  const long streams = static_cast<long>(state_fields) * (depth + state_levels - 1);
  const long plane = (s.tile_x + 2L * radius) * (s.tile_y + 2L * radius);
  s.export_planes = export_planes;
  // Partial sums: the raw queue holds 2r edge rows per thread row (+ pads).
  const long raw_plane =
      export_planes > 0 ? (s.threads_y + 2L) * 2 * radius * (s.tile_x + 2L * radius) : plane;
  const int prefetch = sm3d_prefetch_for(export_planes > 0, levels_in);
  s.smem_bytes = (streams * (s.queue_planes * raw_plane + export_planes * plane) +
                  static_cast<long>(prefetch + 1) * levels_in * s.cells_y * sm3d_threads +
                  static_cast<long>(field_queues) * sm3d_field_queue_planes(depth, radius, prefetch) * plane +
                  static_cast<long>(centre_rings) * sm3d_centre_ring_planes(depth, radius, prefetch) * s.cells_y *
                      sm3d_threads) *
                 scalar_bytes;
  s.blocks_per_sm = 1;
  return s;
}

double predict_sm_launch_seconds_3d(const DeviceModel& d, const StencilModel& s, long nz, long ny, long nx,
                                    const SmTileShape3D& sh, std::string* bottleneck) {
  const int r = s.radius, t = sh.depth;
  const long ox = sh.tile_x - 2L * t * r, oy = sh.tile_y - 2L * t * r;
  if (ox <= 0 || oy <= 0) return 1e30;
  const long tiles = ceil_div(nx, ox) * ceil_div(ny, oy);
  const long blocks = static_cast<long>(d.sm_count) * std::max(1, sh.blocks_per_sm);
  const double per_block = std::ceil(static_cast<double>(tiles) * nz / blocks);
  const double pieces = std::ceil(per_block / nz) + 1;  // a run spans at most this many tiles
  const double iters = per_block + pieces * (t * r + t * (r + 1));
  const int warps = sm3d_threads / 32;
  const double cell_levels = static_cast<double>(t) * sh.cells_y;  // per thread per iteration
  const double wave = std::max(1.0, 32.0 * s.scalar_bytes / 128.0);
  // Several state fields: each field's neighbourhood is read and its new value stored (an older level
  // read at the centre comes from registers).
  const int nsf = std::max(1, sh.state_fields), nl = std::max(1, sh.state_levels);
  const double accesses =
      nsf * (sh.smem_accesses_per_cell > 0 ? sh.smem_accesses_per_cell : sm_accesses_per_cell(s, sh.cells_y)) +
      sh.field_reads_per_cell;
  const double smem = warps * cell_levels * accesses * wave * kSmWaveCycles;
  // The planes of the windows a thread keeps live: 2r+1 per field and step, (r+1) more per older level.
  const double window_regs =
      static_cast<double>(nsf) * (t * (2 * r + 1) + (nl - 1) * t * (r + 1)) * sh.cells_y * s.scalar_bytes / 4.0;
  const double iter_cycles = (smem + kSmIterCycles) * std::max(1, sh.blocks_per_sm) *
                             (window_regs > 64 ? kSmRegisterPenalty : 1.0);
  const double compute_t = iters * iter_cycles / (d.clock_ghz * 1e9);
  // DRAM: every tile-plane reads its (in-domain) tile once, writes its output.
  const double rx = std::min<double>(sh.tile_x, nx), ry = std::min<double>(sh.tile_y, ny);
  // Read-only fields: one more read of the tile per field.
  // Several state fields: every input level read, min(depth, levels) new levels of every field written.
  const double bytes =
      static_cast<double>(tiles) * nz * (rx * ry) * s.scalar_bytes * (nsf * nl + sh.read_only_fields) +
      static_cast<double>(nx) * ny * nz * s.scalar_bytes * nsf * std::min(t, nl);
  const double dram_t = bytes / (d.dram_bandwidth_gbs * 1e9 * kSmDramEff);
  if (bottleneck) *bottleneck = dram_t > compute_t ? "device memory" : (smem > kSmIterCycles ? "shared memory" : "per-plane overhead");
  return std::max(compute_t, dram_t) + kSmOverlap * std::min(compute_t, dram_t) + kSmLaunchUs * 1e-6;
}

PlanSM3D choose_plan_3d_sm(const DeviceModel& d, const StencilModel& s, long nz, long ny, long nx, int steps,
                           const TuningKnobs& knobs, const SmTileShape3D* shapes, int max_depth, bool copy_back_free) {
  PlanSM3D best;
  best.nx = nx;
  best.ny = ny;
  best.nz = nz;
  const int r = s.radius;
  if (nx < 2L * r + 1 || ny < 2L * r + 1 || nz < 2L * r + 1 || d.sm_count <= 0) return best;
  const int T = std::max(steps, 1);
  auto usable = [&](int t) {
    return t >= 1 && t <= max_depth && shapes[t].smem_bytes > 0 && shapes[t].smem_bytes <= d.smem_per_block_bytes &&
           shapes[t].tile_x > 2 * t * r && shapes[t].tile_y > 2 * t * r;
  };
  double best_time = -1;
  int dlo = 1, dhi = std::min(max_depth, T);
  if (knobs.temporal_depth > 0) {
    // The deepest depth that fits, not above the knob (the partial-sum
    // kernels, for one, do not fit depth 4 in shared memory).
    int t = std::min({knobs.temporal_depth, max_depth, T});
    while (t > 1 && !usable(t)) --t;
    dlo = dhi = t;
  }
  unsigned usable_depths = 0;
  for (int t = 1; t <= max_depth && t < 32; ++t) usable_depths |= usable(t) ? 1u << t : 0u;
  // An odd number of launches leaves a (u, scratch) call's result in the scratch View: one copy back.
  // Several state fields or levels settle their levels through the level pool, and the DoubleBuffer
  // and State forms flip their selector: no copy (as in 2-D).
  int state_levels = 1;
  for (int t = 1; t <= max_depth && t < 32; ++t) {
    if (usable(t)) {
      state_levels = std::max(1, shapes[t].state_fields) * std::max(1, shapes[t].state_levels);
      break;
    }
  }
  const double copy_back_seconds =
      state_levels > 1 || copy_back_free ? 0.0 : 2.0 * nx * ny * nz * s.scalar_bytes / (d.dram_bandwidth_gbs * 1e9);
  const auto launch_seconds = [&](int t) { return predict_sm_launch_seconds_3d(d, s, nz, ny, nx, shapes[t]); };
  for (int t = dlo; t <= dhi; ++t) {
    if (!usable(t)) continue;
    // The main depth and a short tail (split_launches: the remainder, or the remainder and up to
    // two main launches given back for an even count); a forced depth keeps the tail at or below it.
    const unsigned tails = knobs.temporal_depth > 0 ? usable_depths & ((2u << t) - 1u) : usable_depths;
    const LaunchSplit split = split_launches(T, t, tails, launch_seconds, copy_back_seconds);
    bool tail_usable = true;
    for (int k : split.tail) tail_usable = tail_usable && usable(k);
    if (!tail_usable) continue;  // (depth 1 unusable and no tail of usable depths covers the steps)
    const double time = split.seconds;
    const int launches = split.launches();
    if (best_time < 0 || time < best_time * (1 - 1e-9)) {
      best_time = time;
      best.valid = true;
      best.launch_depths.assign(split.main_launches, t);
      best.launch_depths.insert(best.launch_depths.end(), split.tail.begin(), split.tail.end());
      // The plan's depth is its deepest launch's (a split may give every main launch back).
      const int m = *std::max_element(best.launch_depths.begin(), best.launch_depths.end());
      best.depth = m;
      best.launches = launches;
      best.shape = shapes[m];
      best.out_x = shapes[m].tile_x - 2 * m * r;
      best.out_y = shapes[m].tile_y - 2 * m * r;
      best.tiles_x = static_cast<int>(ceil_div(nx, best.out_x));
      best.tiles_y = static_cast<int>(ceil_div(ny, best.out_y));
      best.blocks = d.sm_count * std::max(1, shapes[m].blocks_per_sm);
      best.predicted_seconds = time;
      const double interior = static_cast<double>(nx - 2 * r) * (ny - 2 * r) * (nz - 2 * r);
      best.predicted_gcells_per_s = interior * T / time * 1e-9;
      predict_sm_launch_seconds_3d(d, s, nz, ny, nx, shapes[m], &best.bottleneck);
    }
  }
  if (best.valid && knobs.temporal_depth <= 0) {
    for (int t = best.depth + 1; t <= std::min(max_depth, T); ++t) {
      if (usable(t)) {
        best.deeper_depth = t;
        break;
      }
    }
  }
  return best;
}

PlanSM3D choose_plan_3d_sm(const DeviceModel& d, const StencilModel& s, long nz, long ny, long nx, int steps,
                           const TuningKnobs& knobs) {
  const int maxd = sm3d_max_depth(s.radius);
  SmTileShape3D shapes[8];
  for (int t = 1; t <= maxd && t < 8; ++t) shapes[t] = sm_tile_shape_3d(t, s.radius, s.box_like ? s.radius : 0, s.scalar_bytes);
  return choose_plan_3d_sm(d, s, nz, ny, nx, steps, knobs, shapes, maxd);
}

std::string PlanSM3D::describe() const {
  if (!valid) return "ebisu-3d SM tiling: no tile fits this problem";
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "ebisu-3d SM tiling (2.5-D): depth %d, %d launch(es), tile %dx%d (x*y, %dx%d threads x %d cells) -> "
                "%dx%d valid, %dx%d tiles streamed over z=%ld, %d blocks, smem %ld B, predicted %.1f GCells/s, "
                "bottleneck %s",
                depth, launches, shape.tile_x, shape.tile_y, shape.threads_x, shape.threads_y, shape.cells_y, out_x,
                out_y, tiles_x, tiles_y, nz, blocks, shape.smem_bytes, predicted_gcells_per_s, bottleneck.c_str());
  std::string text = buf;
  // A tail of other depths: which, e.g. "24 x depth 4 + 2 + 2".
  const auto main_launches = std::count(launch_depths.begin(), launch_depths.end(), depth);
  if (main_launches != static_cast<long>(launch_depths.size())) {
    text += "; launches " + std::to_string(main_launches) + " x depth " + std::to_string(depth);
    for (int t : launch_depths)
      if (t != depth) text += " + " + std::to_string(t);
  }
  return text;
}

}  // namespace Impl
}  // namespace EbisuKokkos
