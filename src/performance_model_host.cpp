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

// Cells a tile of `t` cells along an axis of n cells loads with its halo h:
// clipped at fixed sides, up to h beyond a periodic side (wrap-around cells),
// up to the radius beyond a mirror side (ghosts refilled every step).
long loaded_width(long n, long t, long h, int r, const Boundary (&side)[2]) {
  long beyond = 0;
  for (Boundary b : side) beyond += b == Boundary::periodic ? h : b == Boundary::mirror ? std::min<long>(r, h) : 0;
  return std::min(n + beyond, t + 2 * h);
}

// Memory traffic per owned cell update. Plain path: every step reads the
// state and each field and writes the state. Blocked: every `depth` steps a
// work item reads its loaded cells (owned x redundancy) of the state and of
// each field and writes its owned cells.
void count_traffic(PlanHost& p, const StencilModel& s, int fields) {
  p.field_rings = fields;
  p.plain_bytes_per_update = (2.0 + fields) * s.scalar_bytes;
  p.bytes_per_update = ((1.0 + fields) * p.redundancy + 1.0) * s.scalar_bytes / p.depth;
}

// 1-D: two buffers of a tile plus its halos and one tile per field in half of
// L2, at least 16 halos long, and at least 4 tiles per thread where the line allows.
PlanHost plan_line(const HostMachine& m, const StencilModel& s, long n, int steps, int depth,
                   const TuningKnobs& knobs, bool forced, const BoundaryRules& edges, int fields) {
  PlanHost p;
  p.depth = depth;
  const long h = static_cast<long>(depth) * s.radius;
  const long tiles = 2L + fields;
  const long fit = std::max(1L, static_cast<long>(kL2Share * m.l2_bytes) / (tiles * s.scalar_bytes) - 2 * h);
  long tile = knobs.tile_width > 0 ? knobs.tile_width : std::min(fit, std::max(16 * h, ceil_div(n, 4L * m.threads)));
  tile = std::max(1L, std::min(tile, n));
  p.tile[0] = static_cast<int>(tile);
  p.items_per_axis[0] = static_cast<int>(ceil_div(n, tile));
  p.items = p.items_per_axis[0];
  const long w = loaded_width(n, tile, h, s.radius, edges.side[0]);
  p.ring_bytes = tiles * w * s.scalar_bytes;
  p.redundancy = static_cast<double>(w) / tile;
  count_traffic(p, s, fields);
  p.blocked = true;
  p.reason = forced ? "Backend::ebisu" : "model";
  if (!forced) {
    p.worth_timing = true;
    if (steps < 2) {
      p.blocked = p.worth_timing = false;
      p.reason = "fewer than two steps";
    } else if (cache_resident((2.0 + fields) * n * s.scalar_bytes, m)) {
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
    }
  }
  if (knobs.threads > 0) p.reason += "; threads knob ignored (one thread per work item)";
  return p;
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
                          const TuningKnobs& knobs, bool forced, const BoundaryRules& edges, int fields) {
  PlanHost p;
  p.field_rings = fields;
  const int r = s.radius;
  const bool has_mid = s.rank == 3;
  if (steps < 2 && !forced) {
    p.reason = "fewer than two steps";
    return p;
  }
  int depth = knobs.temporal_depth > 0 ? knobs.temporal_depth : (s.rank <= 2 ? (r == 1 ? 8 : 4) : (r == 1 ? 4 : 2));
  depth = std::max(1, std::min(depth, std::max(1, steps)));
  const long budget = static_cast<long>(kL2Share * m.l2_bytes);

  if (s.rank == 1) return plan_line(m, s, n[0], steps, depth, knobs, forced, edges, fields);
  // Widest cross-section tile whose rings fit the budget, at the deepest depth
  // that fits (a knob's depth is kept unless nothing fits).
  for (; depth >= 1; --depth) {
    const int h = depth * r;
    // The state's rings (2R+1 planes per stage, the output plane) and one ring
    // of (depth+1) R + 1 planes per read-only field (ebisu_host.hpp).
    const long planes = static_cast<long>(depth) * (2 * r + 1) + 1 + static_cast<long>(fields) * ((depth + 1) * r + 1);
    double best = 0;
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
        const double redundancy = static_cast<double>(wf * wm) / static_cast<double>(tf * tm);
        // Prefer low redundancy, then bigger tiles (fewer items to fill).
        const double score = 1.0 / redundancy + 1e-9 * static_cast<double>(tf * tm);
        if (score > best) {
          best = score;
          p.tile[1] = static_cast<int>(tm);
          p.tile[2] = static_cast<int>(tf);
          p.ring_bytes = bytes;
          p.redundancy = redundancy;
        }
      }
    }
    if (best > 0) break;
  }
  depth = std::max(depth, 1);
  p.depth = depth;
  const int h = depth * r;
  p.items_per_axis[1] = static_cast<int>(ceil_div(n[1], p.tile[1]));
  p.items_per_axis[2] = static_cast<int>(ceil_div(n[2], p.tile[2]));
  // Runs along the slow axis for parallelism (at least 4 items per thread),
  // each at least 8 halos long so the pipeline fill stays small; down to 2
  // halos where that is what it takes to give every thread an item.
  const long cross = static_cast<long>(p.items_per_axis[1]) * p.items_per_axis[2];
  const long want = std::max(1L, ceil_div(4L * m.threads, cross));
  long runs = std::min(want, std::max(1L, n[0] / std::max(1L, 8L * h)));
  if (runs * cross < m.threads) runs = std::min(ceil_div(m.threads, cross), std::max(1L, n[0] / std::max(1L, 2L * h)));
  p.items_per_axis[0] = static_cast<int>(std::max(1L, runs));
  p.tile[0] = static_cast<int>(ceil_div(n[0], p.items_per_axis[0]));
  p.items_per_axis[0] = static_cast<int>(ceil_div(n[0], p.tile[0]));
  p.items = p.items_per_axis[0] * p.items_per_axis[1] * p.items_per_axis[2];
  // The streamed axis reads mirror ghosts in place (no extra rows); a periodic one wraps around.
  const Boundary slow[2] = {edges.side[0][0] == Boundary::mirror ? Boundary::fixed : edges.side[0][0],
                            edges.side[0][1] == Boundary::mirror ? Boundary::fixed : edges.side[0][1]};
  p.redundancy *= static_cast<double>(loaded_width(n[0], p.tile[0], h, r, slow)) / p.tile[0];
  count_traffic(p, s, fields);

  if (forced) {
    p.blocked = true;
    p.reason = "Backend::ebisu";
    if (knobs.threads > 0) p.reason += "; threads knob ignored (one thread per work item)";
  } else if (cache_resident((2.0 + fields) * static_cast<double>(n[0]) * n[1] * n[2] * s.scalar_bytes, m)) {
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
  } else {
    p.blocked = p.worth_timing = true;
    p.reason = "model";
    if (knobs.threads > 0) p.reason += "; threads knob ignored (one thread per work item)";
  }
  return p;
}

}  // namespace Impl
}  // namespace EbisuKokkos
