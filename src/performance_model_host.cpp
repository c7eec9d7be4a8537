#include <ebisu_kokkos/impl/performance_model_host.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>

namespace EbisuKokkos {
namespace Impl {

namespace {

long ceil_div(long a, long b) { return (a + b - 1) / b; }

// /sys/devices/system/cpu/cpu0/cache/indexN/size ("48K", "2048K", "32M"), 0 if absent.
long sys_cache_bytes(int level, bool data) {
  for (int i = 0; i < 8; ++i) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
    std::ifstream lv(dir + "level"), ty(dir + "type"), sz(dir + "size");
    int l = 0;
    std::string type, size;
    if (!(lv >> l) || !(ty >> type) || !(sz >> size)) continue;
    if (l != level || (data && type == "Instruction")) continue;
    long v = std::atol(size.c_str());
    if (size.back() == 'K') v *= 1024;
    if (size.back() == 'M') v *= 1024 * 1024;
    return v;
  }
  return 0;
}

long cache_bytes(int level, long fallback) {
#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE) && defined(_SC_LEVEL3_CACHE_SIZE)
  const long v = sysconf(level == 1 ? _SC_LEVEL1_DCACHE_SIZE : level == 2 ? _SC_LEVEL2_CACHE_SIZE : _SC_LEVEL3_CACHE_SIZE);
  if (v > 0) return v;
#endif
  const long s = sys_cache_bytes(level, level == 1);
  return s > 0 ? s : fallback;
}

// Measured on the 2-core development machine (docs/perf-notes-host.md): the
// rings may fill this share of L2; the rest holds the streamed input/output.
constexpr double kL2Share = 0.5;
// 3-D plans weigh depth against redundancy (below) and may fill more of L2: on
// the 16-core Xeon (2 MB L2 per core) j3d7pt 384^3 at depth 8 ran fastest with
// 1.4 MB of rings per thread (8.15 GCells/s, against 7.12 with 1.3 MB and 6.51
// with 0.75 MB; 2026-11-27, perf_tests/results/2026-11-27-Xeon-16-threads-host-trapezoid/).
constexpr double kL2Share3D = 0.75;
// Time per owned cell update of a 3-D plan, in ns of one thread of that Xeon
// with all 16 cores busy (fitted to the same probe, fp64, AVX-512):
//   compute: (kPointNs x points + kUpdateNs) x computed / owned updates x (1 + kRowCells / row),
//            a row costing kRowCells more cells (window set-up, edge copies, vector tails);
//   memory:  kMemoryNsPerByte x bytes read and written per owned update (59 GB/s over 16 threads).
// Fitted: j3d7pt 0.98 ns, poisson 2.8 ns, j3d27pt 3.5 ns per computed cell; the plan's predicted
// GCells/s were within 15% of the measured ones at every depth (2-8) and tile shape probed.
constexpr double kPointNs = 0.126;
constexpr double kUpdateNs = 0.1;
constexpr double kRowCells = 16;
constexpr double kMemoryNsPerByte = 0.27;
// Redundancy above which the blocked path stops paying against the plain one
// by rule of thumb, and up to which Backend::automatic still times it against
// the plain path (16 Xeon threads, 2026-11-25: j3d7pt 128^3 at redundancy 1.69
// ran 1.7x the plain path; j3d27pt 256^3 at 1.49 ran 0.88x: a box stencil is
// compute-bound there, which no cache-size rule sees).
constexpr double kMaxRedundancy = 1.5;
constexpr double kMaxTimedRedundancy = 2.0;
// The buffers (and fields) count as cache-resident, where the plain sweep is not
// memory-bound and blocking only adds work, when they fill at most this share of
// the cores' L2 caches together (16 Xeon threads of 2 MB: two 128^3 fp64 buffers,
// exactly the 32 MB of L2, ran blocked at 1.7x the plain path).
constexpr double kResidentL2Share = 0.5;

bool cache_resident(double bytes, const HostMachine& m) {
  return bytes <= kResidentL2Share * static_cast<double>(m.l2_bytes) * m.threads;
}
// Buffers within this share of the shared L3 make the plain sweep L3-bound, not
// DRAM-bound, and whether blocking still pays depends on the threads' share of
// L3 bandwidth: on 16 Xeon threads j3d7pt 128^3 ran 1.7x the plain path blocked
// and 256^3 (268 MB of a 300 MB L3) 1.09x; on 2 threads of the same CPU family
// j3d7pt 64x96x128 ran 0.51x (2026-11-27). Automatic then blocks only where it
// measured that blocking pays (the call's steps permitting a timing run).
constexpr double kResidentL3Share = 0.5;

bool l3_resident(double bytes, const HostMachine& m) {
  return bytes <= kResidentL3Share * static_cast<double>(m.l3_bytes);
}
const char* const kL3Reason = "the fields fit in L3 (blocked only where measured faster)";

// Cells a tile of `t` cells along an axis of n cells loads with its halo h:
// clipped at fixed sides, up to h beyond a periodic side (wrap-around cells),
// up to the radius beyond a mirror side (ghosts refilled every step).
long loaded_width(long n, long t, long h, int r, const Boundary (&side)[2]) {
  long beyond = 0;
  for (Boundary b : side) beyond += b == Boundary::periodic ? h : b == Boundary::mirror ? std::min<long>(r, h) : 0;
  return std::min(n + beyond, t + 2 * h);
}

// Computed / owned cells of a cross-section tile over the `depth` stages of a
// launch: stage k computes the owned tile widened by (depth - k) R per side
// (the trapezoid of ebisu_host.hpp), within the loaded width.
double cross_section_redundancy(long tf, long wf, long tm, long wm, bool has_mid, int depth, int r) {
  double cells = 0;
  for (int k = 1; k <= depth; ++k) {
    const long keep = static_cast<long>(depth - k) * r;
    cells += static_cast<double>(std::min(wf, tf + 2 * keep)) * (has_mid ? std::min(wm, tm + 2 * keep) : 1);
  }
  return cells / depth / (static_cast<double>(tf) * tm);
}

// What a call reads and writes besides its stencil: the state's fields and
// time levels (state.hpp; one of one for a plain call) and the read-only fields.
struct CallShape {
  int fields;        // read-only
  int state_fields;  // updated together
  int levels;        // time levels per state field
  int read() const { return state_fields * levels + fields; }      // Views a step reads
  int buffers() const { return state_fields * (levels + 1) + fields; }  // Views of the call
  double bytes(double cells, const StencilModel& s) const { return buffers() * cells * s.scalar_bytes; }
};

// Memory traffic per owned cell update. Plain path: every step reads every
// level of every state field and each read-only field and writes each state
// field. Blocked: every `depth` steps a work item reads its loaded cells of
// those and writes its owned cells of the new levels.
void count_traffic(PlanHost& p, const StencilModel& s, const CallShape& c) {
  p.field_rings = c.fields;
  p.plain_bytes_per_update = (c.read() + c.state_fields) * static_cast<double>(s.scalar_bytes);
  const int stored = c.state_fields * std::min(c.levels, p.depth);
  p.bytes_per_update = (c.read() * p.loaded_per_owned + stored) * s.scalar_bytes / p.depth;
}

// Planes (rows in 2-D) a work item keeps (ebisu_host.hpp): per state field a
// ring of (levels + 1) R + 1 for each input level but the newest and each
// stage but the last, the last stage's output plane, and one ring of
// (depth + 1) R + 1 per read-only field.
long ring_planes(int d, int r, const CallShape& c) {
  const long per_stage = static_cast<long>(c.levels + 1) * r + 1;
  return c.state_fields * ((static_cast<long>(d) + c.levels - 1) * per_stage + 1) +
         static_cast<long>(c.fields) * ((d + 1) * r + 1);
}

// 1-D: a ring of levels + 1 tiles per state field plus its halos and one tile
// per read-only field in half of L2, at least 16 halos long, and at least 4 tiles per thread where the line allows.
PlanHost plan_line(const HostMachine& m, const StencilModel& s, long n, int steps, int depth,
                   const TuningKnobs& knobs, bool forced, const BoundaryRules& edges, const CallShape& c) {
  PlanHost p;
  p.depth = depth;
  const long h = static_cast<long>(depth) * s.radius;
  const long tiles = c.buffers();
  const long fit = std::max(1L, static_cast<long>(kL2Share * m.l2_bytes) / (tiles * s.scalar_bytes) - 2 * h);
  long tile = knobs.tile_width > 0 ? knobs.tile_width : std::min(fit, std::max(16 * h, ceil_div(n, 4L * m.threads)));
  tile = std::max(1L, std::min(tile, n));
  p.tile[0] = static_cast<int>(tile);
  p.items_per_axis[0] = static_cast<int>(ceil_div(n, tile));
  p.items = p.items_per_axis[0];
  const long w = loaded_width(n, tile, h, s.radius, edges.side[0]);
  p.ring_bytes = tiles * w * s.scalar_bytes;
  p.redundancy = p.loaded_per_owned = static_cast<double>(w) / tile;
  count_traffic(p, s, c);
  p.blocked = true;
  p.reason = forced ? "Backend::ebisu" : "model";
  if (!forced) {
    p.worth_timing = true;
    if (steps < 2) {
      p.blocked = p.worth_timing = false;
      p.reason = "fewer than two steps";
    } else if (cache_resident(c.bytes(n, s), m)) {
      p.blocked = p.worth_timing = false;
      p.reason = "the field fits in the cores' L2 caches";
    } else if (p.items < m.threads) {
      p.blocked = p.worth_timing = false;
      p.reason = "too few work items for the threads";
    } else if (p.bytes_per_update >= p.plain_bytes_per_update) {
      p.blocked = p.worth_timing = false;
      p.reason = "no memory traffic saved";
    } else if (p.redundancy > kMaxRedundancy) {
      p.blocked = false;
      p.worth_timing = p.redundancy <= kMaxTimedRedundancy;
      p.reason = "tiles too small for the halo";
    } else if (l3_resident(c.bytes(n, s), m)) {
      p.blocked = false;
      p.reason = kL3Reason;
    }
  }
  if (knobs.threads > 0) p.reason += "; threads knob ignored (one thread per work item)";
  return p;
}

// Runs of the slow axis (n0 cells) per cross-section tile, for `cross` tiles:
// at least 4 items per thread, each run at least 8 halos long so the pipeline
// fill stays small; down to 2 halos where that is what it takes to give every
// thread an item. Among up to 4x that many runs, the count that ends soonest:
// every thread runs ceil(items / threads) items of (run + 2 halos) rows, so
// 72 items on 16 threads (4.5 each) take as long as 80 (j3d27pt at the paper
// size ran 4 x 9 x 2 items; 8 runs instead of 4 cut that makespan by 9%).
// Returns the run length (cells).
long slow_run_length(long n0, long cross, long h, int threads) {
  const long want = std::max(1L, ceil_div(4L * threads, cross));
  long runs = std::min(want, std::max(1L, n0 / std::max(1L, 8L * h)));
  if (runs * cross < threads) {
    runs = std::min(ceil_div(threads, cross), std::max(1L, n0 / std::max(1L, 2L * h)));
    return ceil_div(n0, std::max(1L, runs));
  }
  const auto makespan = [&](long r) { return ceil_div(r * cross, threads) * (ceil_div(n0, r) + 2 * h); };
  const long most = std::min(4 * runs, std::max(runs, n0 / std::max(1L, 4L * h)));
  long best = runs;
  for (long r = runs + 1; r <= most; ++r) {
    if (makespan(r) < makespan(best)) best = r;
  }
  return ceil_div(n0, best);
}

}  // namespace

HostMachine host_machine(int threads) {
  HostMachine m;
  m.threads = std::max(1, threads);
  m.l1_bytes = cache_bytes(1, m.l1_bytes);
  m.l2_bytes = cache_bytes(2, m.l2_bytes);
  m.l3_bytes = cache_bytes(3, m.l3_bytes);
  return m;
}

std::string PlanHost::describe() const {
  char buf[400];
  if (!blocked) {
    std::snprintf(buf, sizeof buf, "host blocking not used: %s", reason.c_str());
    return buf;
  }
  std::snprintf(buf, sizeof buf,
                "host temporal blocking: depth %d, %d work items (%d x %d x %d) of %d x %d x %d cells, "
                "rings %ld KB per thread (%d read-only field rings), redundancy %.2f, memory %.1f B per update "
                "(plain %.1f) (%s)",
                depth, items, items_per_axis[0], items_per_axis[1], items_per_axis[2], tile[0], tile[1], tile[2],
                ring_bytes / 1024, field_rings, redundancy, bytes_per_update, plain_bytes_per_update, reason.c_str());
  return boundaries.empty() ? std::string(buf) : std::string(buf) + ", " + boundaries;
}

PlanHost choose_plan_host(const HostMachine& m, const StencilModel& s, const long (&n)[3], int steps,
                          const TuningKnobs& knobs, bool forced, const BoundaryRules& edges, int fields,
                          int state_fields, int state_levels) {
  PlanHost p;
  p.field_rings = fields;
  p.state_fields = state_fields;
  p.state_levels = state_levels;
  const CallShape c{fields, std::max(1, state_fields), std::max(1, state_levels)};
  const int r = s.radius;
  const bool has_mid = s.rank == 3;
  if (steps < 2 && !forced) {
    p.reason = "fewer than two steps";
    return p;
  }
  const bool depth_knob = knobs.temporal_depth > 0;
  int depth = depth_knob ? knobs.temporal_depth : (r == 1 ? 8 : 4);  // 2-D: this depth; 3-D: the deepest tried
  depth = std::max(1, std::min(depth, std::max(1, steps)));

  if (s.rank == 1) {
    PlanHost line = plan_line(m, s, n[0], steps, depth, knobs, forced, edges, c);
    line.state_fields = p.state_fields;
    line.state_levels = p.state_levels;
    return line;
  }
  const long budget = static_cast<long>((has_mid ? kL2Share3D : kL2Share) * m.l2_bytes);
  // 2-D: the deepest depth (from the default down) whose rings fit, with the least redundant tile
  // (a 2-D tile's halo is small beside its row). 3-D: every depth up to the default, each tile
  // shape, the least predicted time (a deeper plan saves memory traffic and costs redundancy, which
  // a compute-heavy stencil pays more for); a depth knob fixes the depth unless nothing fits.
  // The streamed axis reads mirror ghosts in place (no extra rows); a periodic one wraps around.
  const Boundary slow[2] = {edges.side[0][0] == Boundary::mirror ? Boundary::fixed : edges.side[0][0],
                            edges.side[0][1] == Boundary::mirror ? Boundary::fixed : edges.side[0][1]};
  const double compute_ns = (kPointNs * s.points + kUpdateNs) * c.state_fields;
  double best_cost = 0;
  bool found = false;
  for (int d = depth; d >= 1; --d) {
    const int h = d * r;
    const long planes = ring_planes(d, r, c);
    // Tile knobs (fast: tile_width, middle: tile_height) fix that extent.
    const long fixed_f = knobs.tile_width > 0 ? std::min<long>(n[2], knobs.tile_width) : 0;
    const long fixed_m = has_mid && knobs.tile_height > 0 ? std::min<long>(n[1], knobs.tile_height) : 0;
    for (long tf : {fixed_f, n[2], 8192L, 4096L, 2048L, 1024L, 512L, 256L, 128L, 64L, 32L}) {
      if (tf > n[2] || tf <= 0 || (fixed_f > 0 && tf != fixed_f)) continue;
      const long mids[] = {fixed_m, n[1], 256L, 128L, 64L, 32L, 16L, 8L};
      for (long tm : mids) {
        if (tm > n[1] || tm <= 0 || (!has_mid && tm != 1) || (fixed_m > 0 && tm != fixed_m)) continue;
        const long wf = loaded_width(n[2], tf, h, r, edges.side[2]);
        const long wm = has_mid ? loaded_width(n[1], tm, h, r, edges.side[1]) : 1;
        const long bytes = planes * wf * wm * s.scalar_bytes;
        const bool last_resort = forced && (fixed_f > 0 || tf == std::min(32L, n[2])) &&
                                 (!has_mid || fixed_m > 0 || tm == std::min(8L, n[1]));
        if (bytes > budget && !last_resort) continue;
        const double redundancy = cross_section_redundancy(tf, wf, tm, wm, has_mid, d, r);
        const double loaded = static_cast<double>(wf * wm) / static_cast<double>(tf * tm);
        double cost;
        if (has_mid) {
          // The runs this tile shape needs: their pipeline fill along the slow axis.
          const long cross = ceil_div(n[1], tm) * ceil_div(n[2], tf);
          const long t0 = slow_run_length(n[0], cross, h, m.threads), rows = loaded_width(n[0], t0, h, r, slow);
          const double row = static_cast<double>(tf) + static_cast<double>(d - 1) * r;  // mean computed row
          const double computed = redundancy * cross_section_redundancy(t0, rows, 1, 1, false, d, r);
          const double traffic =
              (c.read() * loaded * rows / t0 + c.state_fields * std::min(c.levels, d)) * s.scalar_bytes / d;
          cost = compute_ns * computed * (1.0 + kRowCells / row) + kMemoryNsPerByte * traffic;
        } else {  // less redundancy first, then bigger tiles (fewer items to fill)
          cost = redundancy - 1e-9 * static_cast<double>(tf * tm);
        }
        if (!found || cost < best_cost) {
          found = true;
          best_cost = cost;
          depth = d;
          p.tile[1] = static_cast<int>(tm);
          p.tile[2] = static_cast<int>(tf);
          p.ring_bytes = bytes;
          p.redundancy = redundancy;
          p.loaded_per_owned = loaded;
        }
      }
    }
    if (found && (!has_mid || depth_knob)) break;
  }
  if (!found) depth = 1;
  p.depth = depth;
  const int h = depth * r;
  p.items_per_axis[1] = static_cast<int>(ceil_div(n[1], p.tile[1]));
  p.items_per_axis[2] = static_cast<int>(ceil_div(n[2], p.tile[2]));
  // Runs along the slow axis for parallelism.
  const long cross = static_cast<long>(p.items_per_axis[1]) * p.items_per_axis[2];
  p.tile[0] = static_cast<int>(slow_run_length(n[0], cross, h, m.threads));
  p.items_per_axis[0] = static_cast<int>(ceil_div(n[0], p.tile[0]));
  p.items = p.items_per_axis[0] * p.items_per_axis[1] * p.items_per_axis[2];
  const long run_rows = loaded_width(n[0], p.tile[0], h, r, slow);
  p.loaded_per_owned *= static_cast<double>(run_rows) / p.tile[0];
  // Stage k computes the run widened by (depth - k) R rows, within the loaded rows.
  p.redundancy *= cross_section_redundancy(p.tile[0], run_rows, 1, 1, false, depth, r);
  count_traffic(p, s, c);

  if (forced) {
    p.blocked = true;
    p.reason = "Backend::ebisu";
    if (knobs.threads > 0) p.reason += "; threads knob ignored (one thread per work item)";
  } else if (cache_resident(c.bytes(static_cast<double>(n[0]) * n[1] * n[2], s), m)) {
    // Both buffers and the read-only fields fit in the cores' L2 caches: the
    // plain sweep is not memory-bound, and blocking would only add its redundant work.
    p.reason = "the field fits in the cores' L2 caches";
  } else if (p.items < m.threads) {
    p.reason = "too few work items for the threads";
  } else if (p.bytes_per_update >= p.plain_bytes_per_update) {
    // Rings that fit only at depth 1 (many fields, wide halos) save no memory traffic.
    p.reason = "no memory traffic saved at depth " + std::to_string(p.depth);
  } else if (p.redundancy > kMaxRedundancy) {
    p.worth_timing = p.redundancy <= kMaxTimedRedundancy;
    p.reason = "tiles too small for the halo (redundancy " + std::to_string(p.redundancy) + ")";
  } else if (l3_resident(c.bytes(static_cast<double>(n[0]) * n[1] * n[2], s), m)) {
    p.worth_timing = true;
    p.reason = kL3Reason;
  } else {
    p.blocked = p.worth_timing = true;
    p.reason = "model";
    if (knobs.threads > 0) p.reason += "; threads knob ignored (one thread per work item)";
  }
  return p;
}

}  // namespace Impl
}  // namespace EbisuKokkos
