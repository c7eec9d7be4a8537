#ifndef EBISU_KOKKOS_IMPL_HOST_EBISU_HOST_HPP
#define EBISU_KOKKOS_IMPL_HOST_EBISU_HOST_HPP

// Temporal blocking on host execution spaces (OpenMP, Threads, Serial): the
// EBISU idea of pipelined stages over a streamed axis, with a CPU core's L2 in
// the role of the SM's shared memory.
//
// A work item owns a tile of the (middle x fast) cross-section and a run of
// the slow axis. Its thread loads the tile widened by H = depth x radius
// cells on each side, one row (plane in 3-D) at a time, and pushes every row
// through `depth` stages: stage k computes row y - k R of step k from the last
// 2R+1 rows of step k-1, kept in a ring. Only the input and the last stage's
// owned cells touch memory: 16 / depth bytes per cell update instead of 16.
// The halo columns and the first rows of each run are computed redundantly
// (no synchronisation between work items). Rows are contiguous along the fast
// axis for either layout (an axis map), so the inner loop is a unit-stride
// loop the compiler vectorises; cells of the Dirichlet frame are copied from
// the previous stage, never computed.
// Periodic and mirror sides (docs/design-fields-boundaries-state.md) act in the
// load and halo stages only, through BoundaryMap::source:
//  - periodic: a tile reaching the side loads its halo beyond it as
//    wrap-around cells (the other side's cells, through the map) and computes
//    them like any halo cell. The update is the same at every cell, so a
//    wrap-around cell at step k holds its source cell's step k exactly, and the
//    halo shrinks by R per step as everywhere: temporal blocking stays exact
//    without any exchange between tiles.
//  - mirror: a tile reaching the side loads R ghost cells beyond it and
//    refills them from the cells they reflect after every stage (a row copy;
//    the reflected cells are computed in the same tile), since an asymmetric
//    stencil does not keep a reflected field reflected. Along the streamed axis
//    the ghost rows are not stored: the row window points at the reflected rows.
// The inner loop of a stage is the same for every rule: no per-cell branch.
// Read-only fields (impl/fields.hpp) are constant in time: each has a ring of
// (depth+1) R + 1 rows of the loaded cross-section (rows y - (depth+1) R .. y,
// row y loaded with input row y through the same load path and boundary map,
// mirror ghosts included, never refilled), and stage k computing row c reads
// a row window of its rows c-R .. c+R (reflected at a streamed mirror side as
// the state's is). So a field is read from memory once per launch, like the
// state. In 1-D a field is one more tile of the widened extent, loaded once.
// Several state fields and time levels (state.hpp): every field has a ring per
// input level and per stage, and stage k reads level l of a field from the
// ring of step k - 1 - l, whose rows run (l + 1) R ahead of its own, so each
// ring keeps (levels + 1) R + 1 rows; the last `levels` stages store their
// owned cells as the new levels. A launch writes its levels into buffers no
// work item of it reads (LevelPool: the work items' halos overlap).
// Plan (depth, tiles, runs, the field rings in L2): performance_model_host.

#include <ebisu_kokkos/impl/axis_map.hpp>
#include <ebisu_kokkos/impl/boundary.hpp>
#include <ebisu_kokkos/impl/compat.hpp>
#include <ebisu_kokkos/impl/ebisu_backend_fwd.hpp>
#include <ebisu_kokkos/impl/fields.hpp>
#include <ebisu_kokkos/impl/generic_backend.hpp>
#include <ebisu_kokkos/impl/host/linear_rows.hpp>
#include <ebisu_kokkos/impl/level_pool.hpp>
#include <ebisu_kokkos/impl/measured_choice.hpp>
#include <ebisu_kokkos/impl/performance_model_host.hpp>
#include <ebisu_kokkos/impl/state_ring.hpp>
#include <ebisu_kokkos/impl/view_access.hpp>
#include <ebisu_kokkos/policy.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

namespace EbisuKokkos {
namespace Impl {
namespace Host {

// The 2R+1 rows of one step around the row being computed.
template <class Scalar, int R>
struct RowWindow {
  const Scalar* row[2 * R + 1];  // row[R + ds]: the plane at slow offset ds
};

// The rows around row m of the current plane: rows[R + ds][R + dm] is row m + dm of the plane at
// slow offset ds (rank 2: only dm = 0), formed once per row, so that a neighbour read in the cell
// loop is a row pointer indexed by the column plus a constant. (GCC 12 still forms one base per
// neighbour in the vector loop and, for the 27-point box, reloads most of them from the stack:
// docs/perf-notes-host.md.)
template <class Scalar, int R>
struct RowPointers {
  const Scalar* rows[2 * R + 1][2 * R + 1];
};

template <class Scalar, int R>
[[gnu::always_inline]] inline RowPointers<Scalar, R> rows_around(const RowWindow<Scalar, R>& w, long m, long pitch, int rm) {
  RowPointers<Scalar, R> p{};
  for (int ds = -R; ds <= R; ++ds)
    for (int dm = -rm; dm <= rm; ++dm) p.rows[R + ds][R + dm] = w.row[R + ds] + (m + dm) * pitch;
  return p;
}

// Neighbour reads of column f of the current row.
template <class Map, class Scalar, int R>
struct WindowAccessor {
  const RowPointers<Scalar, R>& p;
  long f;

  template <int D0, int D1, int D2>
  KOKKOS_FORCEINLINE_FUNCTION Scalar get() const {
    constexpr int ds = Map::template ds<D0, D1, D2>;
    constexpr int dm = Map::template dm<D0, D1, D2>;
    constexpr int df = Map::template df<D0, D1, D2>;
    static_assert(ds >= -R && ds <= R, "EbisuKokkos: offset beyond the stencil radius");
    return p.rows[R + ds][R + dm][f + df];
  }
};

// The new value of column f (of every state field): field 0's newest level's rows, then the rows
// of every other state level and read-only field.
template <class Map, class Scalar, int R, class Eval, std::size_t NW, std::size_t... K>
[[gnu::always_inline]] inline auto evaluate_in_windows(const Eval& eval, const RowPointers<Scalar, R>& state,
                                const std::array<RowPointers<Scalar, R>, NW>& fields, long f,
                                std::index_sequence<K...>) {
  return eval(WindowAccessor<Map, Scalar, R>{state, f}, WindowAccessor<Map, Scalar, R>{fields[K], f}...);
}

// The new values of several state fields at cell i of their rows to[s]: straight-line stores (a
// loop over the fields was vectorised itself, as a 2-lane scatter, and left the cell loop scalar).
template <class Scalar, class Values, std::size_t... S>
[[gnu::always_inline]] inline void store_fields(Scalar* const* to, long i, const Values& v, std::index_sequence<S...>) {
  ((to[S][i] = v[S]), ...);
}

// Where the read-only fields are read from: cell 0 and the slow and middle
// strides (kernel axis order, fast: 1) of each field's View.
template <class Scalar, int NF>
struct FieldSources {
  std::array<const Scalar*, NF> data{};
  std::array<std::array<long, 2>, NF> stride{};
};

struct Geometry {
  long n[3];
  long src_stride[2], dst_stride[2];  // slow and middle strides (fast: 1)
  int tile[3];
  int items_per_axis[3];
  int depth;      // steps of this launch (<= the plan's depth, which sized the rings)
  int max_depth;  // the plan's depth
  BoundaryMap map;  // the rules in kernel axis order (the middle axis of 2-D: one fixed cell)
};

// Cells a tile loads beyond side `side` of axis a, with halo h: none at a fixed
// side, the wrap-around halo at a periodic one, `mirror` ghost cells at a
// mirror one (R across the tile, 0 along the streamed axis).
inline long reach_beyond(const BoundaryMap& map, int a, int side, long h, long mirror) {
  const Boundary b = map.side[a][side];
  return b == Boundary::periodic ? h : b == Boundary::mirror ? std::min(mirror, h) : 0;
}

// The cells [x0, x1) of one row along axis a (domain coordinates, reaching
// beyond the edges only at periodic or mirror sides), read from `from` (the
// row's cell 0) through the boundary map: contiguous runs where the map is.
template <class Scalar>
void load_row(Scalar* to, const Scalar* from, long x0, long x1, const BoundaryMap& map, int a) {
  const long n = map.n[a];
  for (long x = x0; x < x1;) {
    const bool inside = x >= 0 && x < n;
    const long sx = inside ? x : map.source(a, static_cast<int>(x));
    const bool run = inside || map.side[a][x < 0 ? 0 : 1] == Boundary::periodic;
    const long len = run ? std::min(x1 - x, n - sx) : 1;  // mirror ghosts run backwards: one at a time
    std::memcpy(to + (x - x0), from + sx, static_cast<std::size_t>(len) * sizeof(Scalar));
    x += len;
  }
}

// NF read-only fields; NS state fields of NL time levels each (one of one: a
// plain call). src[q] / dst[q]: level l of field s (q = s NL + l) when the
// launch starts / after it (levels l >= depth are not written: the pool keeps
// the input's levels l - depth in place).
template <class Map, int R, class Eval, class Scalar, int NF = 0, int NS = 1, int NL = 1>
struct BlockedSteps {
  static constexpr int NQ = NS * NL;
  static constexpr int NW = NQ - 1 + NF;  // windows besides field 0's newest level
  Eval eval;
  std::array<const Scalar*, NQ> src;
  std::array<Scalar*, NQ> dst;
  Geometry g;
  FieldSources<Scalar, NF> fields;

  // Rows per ring: stage k reads rows c - R .. c + R of step k - 1 - l, whose
  // newest row is c + (l + 1) R.
  static constexpr int Q = (NL + 1) * R + 1;
  static constexpr bool has_mid = Map::rank == 3;
  // Rows per field ring: stage 1 reads up to row y (the row just loaded),
  // stage d down to row y - d R - R.
  static constexpr long field_ring_rows(int depth) { return (static_cast<long>(depth) + 1) * R + 1; }
  // Rings per state field: its input levels 0 .. NL - 1 (steps 0, -1, ...) and stages 1 .. depth - 1.
  static constexpr long step_rings(int depth) { return static_cast<long>(depth) + NL - 1; }

  // Cells of axis a (1 or 2) a tile of g.tile[a] cells loads at most.
  static long loaded_width(const Geometry& g, int a, long h) {
    const long beyond = reach_beyond(g.map, a, 0, h, R) + reach_beyond(g.map, a, 1, h, R);
    return std::min(g.n[a] + beyond, g.tile[a] + 2 * h);
  }

  // Per state field its step rings and the last stage's output plane; then the field rings
  // (performance_model_host's ring_planes counts the same).
  static long scratch_elements(const Geometry& g) {
    const long h = static_cast<long>(g.max_depth) * R;
    const long wf = loaded_width(g, 2, h);
    const long wm = has_mid ? loaded_width(g, 1, h) : 1;
    return (NS * (step_rings(g.max_depth) * Q + 1) + NF * field_ring_rows(g.max_depth)) * wf * wm;
  }

  template <class Member>
  void operator()(const Member& member) const {
    const long bytes = scratch_elements(g) * static_cast<long>(sizeof(Scalar));
    Scalar* scratch = static_cast<Scalar*>(member.team_scratch(1).get_shmem(bytes));
    run_item(member.league_rank(), scratch);
  }

  // The new value of every state field at column f of its row t[s].
  template <class Windows>
  [[gnu::always_inline]] static inline void compute_cell(const Eval& e, const RowPointers<Scalar, R>& w, const Windows& fw,
                                                         Scalar* const (&t)[NS], long f) {
    if constexpr (NS == 1) {
      t[0][f] = evaluate_in_windows<Map>(e, w, fw, f, std::make_index_sequence<NW>{});
    } else {
      store_fields(t, f, evaluate_in_windows<Map>(e, w, fw, f, std::make_index_sequence<NW>{}), std::make_index_sequence<NS>{});
    }
  }

  void run_item(int item, Scalar* scratch) const {
    const int d = g.depth, h = d * R;
    const int i2 = item % g.items_per_axis[2];
    const int i1 = (item / g.items_per_axis[2]) % g.items_per_axis[1];
    const int i0 = item / (g.items_per_axis[2] * g.items_per_axis[1]);
    const long s0 = static_cast<long>(i0) * g.tile[0], s1 = std::min(g.n[0], s0 + g.tile[0]);
    const long m0 = static_cast<long>(i1) * g.tile[1], m1 = std::min(g.n[1], m0 + g.tile[1]);
    const long f0 = static_cast<long>(i2) * g.tile[2], f1 = std::min(g.n[2], f0 + g.tile[2]);
    // The loaded cross-section: the owned tile plus the halo, clipped to the
    // domain at fixed sides, beyond it at periodic and mirror ones (domain
    // coordinates: lm0 and lf0 may be negative).
    const BoundaryMap& map = g.map;
    const int hm = has_mid ? h : 0;
    const long lm0 = std::max(m0 - hm, -reach_beyond(map, 1, 0, hm, R));
    const long lm1 = std::min(m1 + hm, g.n[1] + reach_beyond(map, 1, 1, hm, R));
    const long lf0 = std::max(f0 - h, -reach_beyond(map, 2, 0, h, R));
    const long lf1 = std::min(f1 + h, g.n[2] + reach_beyond(map, 2, 1, h, R));
    const long wm = lm1 - lm0, wf = lf1 - lf0, plane = wm * wf;
    constexpr int rm = has_mid ? R : 0;
    // Mirror ghosts this tile holds (refilled after every stage).
    const bool mirror_m = map.side[1][0] == Boundary::mirror || map.side[1][1] == Boundary::mirror;
    const bool mirror_f = map.side[2][0] == Boundary::mirror || map.side[2][1] == Boundary::mirror;
    const bool mirror_lo_s = map.side[0][0] == Boundary::mirror, mirror_hi_s = map.side[0][1] == Boundary::mirror;

    // The rows of the run: clipped at fixed and mirror sides (the row window
    // reflects instead), wrapping around at periodic ones.
    const long ns = g.n[0];
    const long y0 = std::max(s0 - h, map.side[0][0] == Boundary::periodic ? s0 - h : 0L);
    const long y1 = std::min(s1 + h, map.side[0][1] == Boundary::periodic ? s1 + h : ns);
    const long frame_lo = map.side[0][0] == Boundary::fixed ? R : y0 - Q;  // rows that keep their value
    const long frame_hi = map.side[0][1] == Boundary::fixed ? ns - R : y1 + Q;

    // Step j's ring of state field s (j <= 0: input level -j; 0 < j < d: stage j's output); the
    // last stage writes `out` (one plane per state field); then one ring per read-only field.
    const long rings = step_rings(d);
    auto ring = [&](int j, int s) { return scratch + (s * rings + j + NL - 1) * Q * plane; };
    Scalar* const out = scratch + NS * rings * Q * plane;
    auto slot = [&](Scalar* r, long c) { return r + ((c - y0 + Q) % Q) * plane; };
    const long field_rows = field_ring_rows(d);
    Scalar* const field_rings = out + NS * plane;
    auto field_slot = [&](int i, long c) {
      return field_rings + (i * field_rows + (c - y0 + field_rows) % field_rows) * plane;
    };
    std::fill(scratch, field_rings + NF * field_rows * plane, Scalar(0));
    // Plane y of a View (the state or a field) over the loaded cross-section,
    // through the boundary map beyond the domain's edges.
    auto load_plane = [&](Scalar* to, const Scalar* from, long stride_s, long stride_m, long y) {
      const long sy = y >= 0 && y < ns ? y : map.source(0, static_cast<int>(y));
      for (long m = 0; m < wm; ++m) {
        const long sm = lm0 + m >= 0 && lm0 + m < g.n[1] ? lm0 + m : map.source(1, static_cast<int>(lm0 + m));
        load_row(to + m * wf, from + sy * stride_s + sm * stride_m, lf0, lf1, map, 2);
      }
    };
    // Rows c-R .. c+R of a ring; beyond a mirror side the window points at
    // the reflected row (in the ring), for the state and the fields alike.
    auto window = [&](auto&& row_of, long c) {
      RowWindow<Scalar, R> w;
      for (int ds = -R; ds <= R; ++ds) {
        const long r = c + ds;
        const bool reflect = (r < 0 && mirror_lo_s) || (r >= ns && mirror_hi_s);
        w.row[R + ds] = row_of(reflect ? map.source(0, static_cast<int>(r)) : r);
      }
      return w;
    };

    // Rows at or beyond y1 are never loaded: the computed cells reading them
    // lie in the halo that shrinks by R per stage (or the fixed frame, which
    // is copied, or reflect back into the ring at a mirror side).
    for (long y = y0; y < s1 + h; ++y) {
      if (y < y1) {  // input row y of every level into its ring, the fields' row y into theirs
        for (int q = 0; q < NQ; ++q) load_plane(slot(ring(-(q % NL), q / NL), y), src[q], g.src_stride[0], g.src_stride[1], y);
        for (int i = 0; i < NF; ++i) load_plane(field_slot(i, y), fields.data[i], fields.stride[i][0], fields.stride[i][1], y);
      }
      for (int k = 1; k <= d; ++k) {
        const long c = y - static_cast<long>(k) * R;
        // The trapezoid: later stages read only cells within (d - k) R of the owned box, so stage k
        // computes those and leaves the rest of its ring stale (3-D, depth 8, 64 x 64 tiles: 21%
        // fewer updates than whole loaded planes). Where the loaded box is clipped (a fixed or
        // mirror side) the range reaches the clipped edge at every stage. Older levels come from
        // earlier stages, which computed wider.
        const long keep = static_cast<long>(d - k) * R;
        if (c < y0 || c >= y1 || c < s0 - keep) continue;
        Scalar* to[NS];
        const Scalar* same[NS];  // the field's previous step at row c
        for (int s = 0; s < NS; ++s) {
          to[s] = k < d ? slot(ring(k, s), c) : out + s * plane;
          same[s] = slot(ring(k - 1, s), c);
        }
        const long need_m0 = has_mid ? std::max(0L, m0 - keep - lm0) : 0, need_m1 = has_mid ? std::min(wm, m1 + keep - lm0) : 1;
        const long need_f0 = std::max(0L, f0 - keep - lf0), need_f1 = std::min(wf, f1 + keep - lf0);
        const long cf0 = std::max<long>(R, need_f0), cf1 = std::min<long>(wf - R, need_f1);  // cells computed
        const std::size_t need_bytes = static_cast<std::size_t>(need_f1 - need_f0) * sizeof(Scalar);
        if (c < frame_lo || c >= frame_hi) {  // a frame row keeps its value
          for (int s = 0; s < NS; ++s)
            for (long m = need_m0; m < need_m1; ++m) std::memcpy(to[s] + m * wf + need_f0, same[s] + m * wf + need_f0, need_bytes);
        } else {
          const RowWindow<Scalar, R> w = window([&](long r) { return slot(ring(k - 1, 0), r); }, c);
          std::array<RowWindow<Scalar, R>, NW> fw;
          for (int q = 1; q < NQ; ++q) fw[q - 1] = window([&](long r) { return slot(ring(k - 1 - q % NL, q / NL), r); }, c);
          for (int i = 0; i < NF; ++i) fw[NQ - 1 + i] = window([&](long r) { return field_slot(i, r); }, c);
          for (long m = need_m0; m < need_m1; ++m) {
            if (m < rm || m >= wm - rm) {  // frame cells keep their value
              for (int s = 0; s < NS; ++s) std::memcpy(to[s] + m * wf + need_f0, same[s] + m * wf + need_f0, need_bytes);
              continue;
            }
            Scalar* t[NS];
            for (int s = 0; s < NS; ++s) {
              t[s] = to[s] + m * wf;
              const Scalar* const p = same[s] + m * wf;
              for (long f = need_f0; f < std::min(cf0, need_f1); ++f) t[s][f] = p[f];
              for (long f = std::max(cf1, need_f0); f < need_f1; ++f) t[s][f] = p[f];
            }
            const RowPointers<Scalar, R> rows = rows_around(w, m, wf, rm);
            std::array<RowPointers<Scalar, R>, NW> field_rows;
            for (std::size_t i = 0; i < NW; ++i) field_rows[i] = rows_around(fw[i], m, wf, rm);
            const Eval e = eval;  // a local copy: a store to t could alias the member coefficients, re-read per cell
            const auto cells = [&](long a, long b) {
              EBISU_KOKKOS_VECTOR_LOOP
              for (long f = a; f < b; ++f) compute_cell(e, rows, field_rows, t, f);
            };
#if EBISU_KOKKOS_HOST_ROW_VECTORS
            if constexpr (NS == 1 && NW == 0 && CarriedRowsPay<Map, R, Eval>::value) {
              linear_row<Map, typename Eval::linear_points, R>(e.coefficients, rows.rows, t[0], cf0, cf1, cells);
            } else
#endif
            {
              cells(cf0, cf1);
            }
          }
        }
        // Mirror ghosts of this stage from the cells they reflect: the ghost
        // cells of every row, then the ghost rows of the plane (corners too).
        for (int s = 0; s < NS; ++s) {
          Scalar* const o = to[s];
          if (mirror_f) {
            for (long m = 0; m < wm; ++m) {
              Scalar* const t = o + m * wf;  // t[x - lf0]: cell x of the row
              for (long x = lf0; x < 0; ++x) t[x - lf0] = t[map.source(2, static_cast<int>(x)) - lf0];
              for (long x = g.n[2]; x < lf1; ++x) t[x - lf0] = t[map.source(2, static_cast<int>(x)) - lf0];
            }
          }
          if (mirror_m) {
            for (long x = lm0; x < 0; ++x)
              std::memcpy(o + (x - lm0) * wf, o + (map.source(1, static_cast<int>(x)) - lm0) * wf,
                          static_cast<std::size_t>(wf) * sizeof(Scalar));
            for (long x = g.n[1]; x < lm1; ++x)
              std::memcpy(o + (x - lm0) * wf, o + (map.source(1, static_cast<int>(x)) - lm0) * wf,
                          static_cast<std::size_t>(wf) * sizeof(Scalar));
          }
        }
        // Owned cells of the last NL stages to memory: stage k's output is level d - k.
        if (k > d - NL && c >= s0 && c < s1) {
          for (int s = 0; s < NS; ++s) {
            Scalar* const level = dst[s * NL + (d - k)];
            for (long m = m0; m < m1; ++m)
              std::memcpy(level + c * g.dst_stride[0] + m * g.dst_stride[1] + f0, to[s] + (m - lm0) * wf + (f0 - lf0),
                          static_cast<std::size_t>(f1 - f0) * sizeof(Scalar));
          }
        }
      }
    }
  }
};

// 1-D: a tile of the line widened by H = depth x radius cells, `depth` steps
// in L2 (a row is one cell, so the streamed pipeline of rank 2 and 3 would not
// vectorise), then its owned cells stored. Each state field's levels and its
// spare are a ring of NL + 1 tiles turning like the caller's ring (one field of
// one level: two tiles ping-ponged).
template <class Scalar>
struct LineAccessor {
  const Scalar* p;
  long i;
  template <int D0, int D1, int D2>
  KOKKOS_FORCEINLINE_FUNCTION Scalar get() const {
    return p[i + D0];
  }
};

// The new value of cell i (of every state field): field 0's newest tile, then one tile per other
// state level and read-only field.
template <class Scalar, class Eval, std::size_t NW, std::size_t... K>
inline auto evaluate_in_tiles(const Eval& eval, const Scalar* state, const std::array<const Scalar*, NW>& fields, long i,
                              std::index_sequence<K...>) {
  return eval(LineAccessor<Scalar>{state, i}, LineAccessor<Scalar>{fields[K], i}...);
}

template <int R, class Eval, class Scalar, int NF = 0, int NS = 1, int NL = 1>
struct BlockedSteps1D {
  static constexpr int NQ = NS * NL;
  static constexpr int NW = NQ - 1 + NF;
  Eval eval;
  std::array<const Scalar*, NQ> src;  // as BlockedSteps
  std::array<Scalar*, NQ> dst;
  Geometry g;  // n[0], tile[0], depth, max_depth, map
  FieldSources<Scalar, NF> fields;

  // Cells of the widest loaded tile.
  static long tile_elements(const Geometry& g) {
    const long h = static_cast<long>(g.max_depth) * R;
    const long beyond = reach_beyond(g.map, 0, 0, h, R) + reach_beyond(g.map, 0, 1, h, R);
    return std::min<long>(g.n[0] + beyond, g.tile[0] + 2 * h);
  }
  // A ring of NL + 1 tiles per state field and one tile per read-only field.
  static long scratch_elements(const Geometry& g) { return (NS * (NL + 1) + NF) * tile_elements(g); }

  template <class Member>
  void operator()(const Member& member) const {
    const long bytes = scratch_elements(g) * static_cast<long>(sizeof(Scalar));
    Scalar* const scratch = static_cast<Scalar*>(member.team_scratch(1).get_shmem(bytes));
    const long te = tile_elements(g);
    Scalar* level[NS][NL + 1];  // level[s][l]: field s's level l (l = NL: the spare the next step writes)
    for (int s = 0; s < NS; ++s)
      for (int l = 0; l <= NL; ++l) level[s][l] = scratch + (s * (NL + 1) + l) * te;
    const BoundaryMap& map = g.map;
    const long n = g.n[0], h = static_cast<long>(g.depth) * R;
    const long s0 = static_cast<long>(member.league_rank()) * g.tile[0], s1 = std::min(n, s0 + g.tile[0]);
    // Clipped at fixed sides; wrap-around cells beyond periodic ones, R ghosts beyond mirror ones.
    const long l0 = std::max(s0 - h, -reach_beyond(map, 0, 0, h, R));
    const long l1 = std::min(s1 + h, n + reach_beyond(map, 0, 1, h, R)), w = l1 - l0;
    const bool mirror = map.side[0][0] == Boundary::mirror || map.side[0][1] == Boundary::mirror;
    for (int q = 0; q < NQ; ++q) load_row(level[q / NL][q % NL], src[q], l0, l1, map, 0);
    std::array<const Scalar*, NW> reads;  // fields do not change: loaded once per launch
    for (int i = 0; i < NF; ++i) {
      Scalar* const tile = scratch + (NS * (NL + 1) + i) * te;
      load_row(tile, fields.data[i], l0, l1, map, 0);
      reads[NQ - 1 + i] = tile;
    }
    for (int k = 0; k < g.depth; ++k) {
      for (int q = 1; q < NQ; ++q) reads[q - 1] = level[q / NL][q % NL];
      const Scalar* const a = level[0][0];
      Scalar* b[NS];
      for (int s = 0; s < NS; ++s) {
        // The outer R cells keep their value: the Dirichlet frame at a domain
        // edge, cells no owned cell depends on any more elsewhere.
        b[s] = level[s][NL];
        for (long i = 0; i < R && i < w; ++i) b[s][i] = level[s][0][i];
        for (long i = std::max<long>(R, w - R); i < w; ++i) b[s][i] = level[s][0][i];
      }
      const Eval e = eval;  // a local copy: a store to b could alias the member coefficients, re-read per cell
      if constexpr (NS == 1) {
        Scalar* const out = b[0];
        EBISU_KOKKOS_VECTOR_LOOP
        for (long i = R; i < w - R; ++i) out[i] = evaluate_in_tiles(e, a, reads, i, std::make_index_sequence<NW>{});
      } else {
        EBISU_KOKKOS_IVDEP_LOOP
        for (long i = R; i < w - R; ++i)
          store_fields(b, i, evaluate_in_tiles(e, a, reads, i, std::make_index_sequence<NW>{}), std::make_index_sequence<NS>{});
      }
      for (int s = 0; s < NS; ++s) {
        if (mirror) {  // this step's ghosts from the cells they reflect
          for (long x = l0; x < 0; ++x) b[s][x - l0] = b[s][map.source(0, static_cast<int>(x)) - l0];
          for (long x = n; x < l1; ++x) b[s][x - l0] = b[s][map.source(0, static_cast<int>(x)) - l0];
        }
        for (int l = NL; l > 0; --l) level[s][l] = level[s][l - 1];  // the ring turns: the new level is level 0
        level[s][0] = b[s];
      }
    }
    // The launch's new levels (levels l >= depth are the input's, in place).
    for (int q = 0; q < NQ; ++q) {
      if (q % NL >= g.depth) continue;
      std::memcpy(dst[q] + s0, level[q / NL][q % NL] + (s0 - l0), static_cast<std::size_t>(s1 - s0) * sizeof(Scalar));
    }
  }
};

// What the blocked path needs to know of a View's rank: the kernel (pipelined
// for rank 2 and 3, a ring of tiles for rank 1), the extents in kernel axis
// order and the slow and middle strides of a View (the buffers, the fields).
template <class ViewType, class Eval, int R, int NF, int NS, int NL, int Rank = view_rank<ViewType>>
struct RankTraits {
  static constexpr bool right = std::is_same_v<typename ViewType::array_layout, Kokkos::LayoutRight>;
  using Map = AxisMap<Rank, right>;
  using Steps = BlockedSteps<Map, R, Eval, typename ViewType::non_const_value_type, NF, NS, NL>;
  static void extents(const ViewType& u, long (&n)[3]) { kernel_extents<Map>(u, n); }
  /// The View's boundary rules in kernel axis order (the middle axis of 2-D: fixed).
  static BoundaryRules kernel_rules(const BoundaryRules& rules) {
    BoundaryRules k;
    for (int a = 0; a < 3; ++a) {
      const int v = Map::view_index(a);
      if (v < 0) continue;
      k.side[a][0] = rules.side[v][0];
      k.side[a][1] = rules.side[v][1];
    }
    return k;
  }
  template <class V>
  static void strides(long (&stride)[2], const V& v) {
    for (int a = 0; a < 2; ++a) {
      const int i = Map::view_index(a);
      stride[a] = i < 0 ? 0 : static_cast<long>(v.stride(i));
    }
  }
};
template <class ViewType, class Eval, int R, int NF, int NS, int NL>
struct RankTraits<ViewType, Eval, R, NF, NS, NL, 1> {
  using Steps = BlockedSteps1D<R, Eval, typename ViewType::non_const_value_type, NF, NS, NL>;
  static void extents(const ViewType& u, long (&n)[3]) {
    n[0] = static_cast<long>(u.extent(0));
    n[1] = n[2] = 1;
  }
  static BoundaryRules kernel_rules(const BoundaryRules& rules) {
    BoundaryRules k;
    k.side[0][0] = rules.side[0][0];
    k.side[0][1] = rules.side[0][1];
    return k;
  }
  template <class V>
  static void strides(long (&stride)[2], const V&) {  // contiguous: one stride, 1
    stride[0] = stride[1] = 0;
  }
};

// The stencil bound to the scalar and the step's field kinds (none: NoFields).
template <class Scalar, class Stencil, class FieldSet>
struct BoundEvaluator;
template <class Scalar, class Stencil, class ConstView, class... Kinds>
struct BoundEvaluator<Scalar, Stencil, FieldViews<ConstView, Kinds...>> {
  using type = decltype(std::declval<const Stencil&>().template bind<Scalar, Kinds...>());
  static type bind(const Stencil& stencil) { return stencil.template bind<Scalar, Kinds...>(); }
};

/// The blocked host path for one (execution space, stencil, View type, step fields, state shape).
/// StepSet: the fields a step reads besides field 0's newest level (StateStepFields: the other
/// state levels, then the call's read-only fields); NS state fields of NL levels (1, 1: one field).
template <class ExecSpace, class Stencil, class ViewType, class StepSet = NoFields, int NS = 1, int NL = 1>
struct HostBlocking {
  using Scalar = typename ViewType::non_const_value_type;
  using Bound = BoundEvaluator<Scalar, Stencil, StepSet>;
  using Eval = typename Bound::type;
  static constexpr int NQ = NS * NL;
  static constexpr int num_fields = StepSet::size - (NQ - 1);  // read-only
  using Traits = RankTraits<ViewType, Eval, Stencil::radius, num_fields, NS, NL>;
  using Steps = typename Traits::Steps;

  static PlanHost plan(const StencilPolicy<ExecSpace>& policy, const ViewType& u, bool forced) {
    long n[3];
    Traits::extents(u, n);
    const HostMachine machine = host_machine(policy.space().concurrency());
    PlanHost p = choose_plan_host(machine, stencil_model<Stencil>(static_cast<int>(sizeof(Scalar))), n,
                                  policy.steps(), policy.knobs(), forced, Traits::kernel_rules(policy.boundaries()),
                                  num_fields, NS, NL);
    p.boundaries = describe_boundaries(policy.boundaries(), view_rank<ViewType>);
    return p;
  }

  /// One field on (u, scratch); fields: the call's read-only fields. The outcome says which holds step T.
  static StencilOutcome run(const std::string& label, const StencilPolicy<ExecSpace>& policy, const Stencil& stencil,
                            const ViewType& u, const ViewType& scratch, const PlanHost& p,
                            const StepSet& fields = StepSet{}) {
    static_assert(NQ == 1, "EbisuKokkos: HostBlocking::run is the single-field form (run_state otherwise)");
    const ViewType ends[2] = {u, scratch};
    StencilOutcome outcome = run_launches(label, policy, stencil, u, p, fields, [&](int launch, int, Steps& k) {
      const ViewType& from = ends[launch % 2];
      const ViewType& to = ends[(launch + 1) % 2];
      k.src[0] = from.data();
      k.dst[0] = to.data();
      Traits::strides(k.g.src_stride, from);
      Traits::strides(k.g.dst_stride, to);
    });
    outcome.result_in_scratch = outcome.report.launches % 2 == 1;
    return outcome;
  }

  /// Several state fields or levels: the buffers in StateRing order (field s's slot j at
  /// s (NL + 1) + j, slot 0 its newest level; unpadded: level_pool_refusal); fields: the call's
  /// read-only fields. On return field s's level l is in its ring slot T - l.
  template <class ReadOnly>
  static StencilOutcome run_state(const std::string& label, const StencilPolicy<ExecSpace>& policy,
                                  const Stencil& stencil, const std::array<ViewType, NS*(NL + 1)>& ring,
                                  const PlanHost& p, const ReadOnly& fields) {
    LevelPool<Scalar, typename ViewType::memory_space, NS, NL> pool(ring);
    long stride[2];
    Traits::strides(stride, ring[0]);  // unpadded Views of one layout and extents: every level's, the pool's
    StencilOutcome outcome = run_launches(label, policy, stencil, ring[0], p, fields, [&](int, int depth, Steps& k) {
      const Scalar* in[NQ];
      Scalar* out[NQ];
      pool.next_launch(depth, in, out);
      for (int q = 0; q < NQ; ++q) {
        k.src[q] = in[q];
        k.dst[q] = out[q];
      }
      for (int a = 0; a < 2; ++a) k.g.src_stride[a] = k.g.dst_stride[a] = stride[a];
    });
    if (policy.steps() > 0) outcome.report.plan += pool.describe(pool.settle(policy.steps(), policy.space()));
    pool.release_after(policy.space());
    return outcome;
  }

 private:
  // The report and the launches of the plan's depth; buffers_of(launch, depth, steps) points the
  // launch's kernel at its buffers.
  template <class ReadOnly, class BuffersOf>
  static StencilOutcome run_launches(const std::string& label, const StencilPolicy<ExecSpace>& policy,
                                     const Stencil& stencil, const ViewType& u, const PlanHost& p,
                                     const ReadOnly& fields, BuffersOf&& buffers_of) {
    static_assert(ReadOnly::size == num_fields, "EbisuKokkos: HostBlocking run with another set of fields than planned");
    StencilOutcome outcome;
    StencilReport& report = outcome.report;
    report.backend = Backend::ebisu;
    report.temporal_depth = p.depth;
    report.plan = p.describe();
    const int steps = policy.steps();
    if (steps == 0) return outcome;

    Geometry g{};
    Traits::extents(u, g.n);
    const BoundaryRules rules = Traits::kernel_rules(policy.boundaries());
    for (int a = 0; a < 3; ++a) {
      g.tile[a] = p.tile[a];
      g.items_per_axis[a] = p.items_per_axis[a];
      g.map.n[a] = static_cast<int>(g.n[a]);
      g.map.side[a][0] = rules.side[a][0];
      g.map.side[a][1] = rules.side[a][1];
    }
    g.max_depth = p.depth;
    FieldSources<Scalar, num_fields> sources;
    if constexpr (num_fields > 0) {
      for (int i = 0; i < num_fields; ++i) {
        sources.data[i] = fields.views[i].data();
        long stride[2];
        Traits::strides(stride, fields.views[i]);
        sources.stride[i] = {stride[0], stride[1]};
      }
    }
    const long bytes = Steps::scratch_elements(g) * static_cast<long>(sizeof(Scalar));
    using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>>;
    const Policy items = Policy(policy.space(), p.items, 1).set_scratch_size(1, Kokkos::PerTeam(bytes));
    const std::string step_label = "EbisuKokkos::host_blocking::" + label;
    Steps k{Bound::bind(stencil), {}, {}, g, sources};
    for (int done = 0, launch = 0; done < steps; ++launch) {
      k.g.depth = std::min(p.depth, steps - done);
      buffers_of(launch, k.g.depth, k);
      Kokkos::parallel_for(step_label, items, k);
      ++report.launches;
      done += k.g.depth;
    }
    return outcome;
  }
};

}  // namespace Host

template <class ExecSpace, class Stencil, class ViewType>
inline constexpr bool host_blocking_supports =
    runs_on_host<ExecSpace> && view_rank<ViewType> >= 1 && view_rank<ViewType> <= 3 &&
    is_accessible_from<ExecSpace, typename ViewType::memory_space> &&
    (std::is_same_v<typename ViewType::array_layout, Kokkos::LayoutLeft> ||
     std::is_same_v<typename ViewType::array_layout, Kokkos::LayoutRight>);

// Work of one timing run of the measured choice (cell updates): ~10-40 ms on
// 2 to 16 cores, long enough to see past a run's fork and scheduling noise.
constexpr double kHostMeasureUpdates = 4e7;
// Candidates whose timings are within this factor of each other are timed again.
constexpr double kCloseCall = 1.25;

// Host execution spaces: Backend::ebisu runs the blocked path; automatic runs
// it where the plan expects it to pay and the generic path otherwise. Where
// only rules of thumb decided (PlanHost::worth_timing), Selection::automatic
// and ::measured time both paths once per problem and process on a copy of u
// (whether blocking pays depends on how memory-bound the plain sweep is on
// this machine, which cache sizes do not tell: on 16 Xeon threads the 27-point
// box lost to the plain path at 256^3 and the 7-point star won 1.7x at 128^3
// with more redundancy than the rules allow); Selection::model never times.
template <class ExecSpace, class Stencil, class ViewType>
struct EbisuBackend<ExecSpace, Stencil, ViewType,
                    std::enable_if_t<host_blocking_supports<ExecSpace, Stencil, ViewType>>> {
  static constexpr bool available = true;
  static constexpr bool takes_boundary_rules = true;  // periodic and mirror sides in the tiles' halos
  static constexpr bool takes_fields = true;          // read-only fields in rings beside the state's
  static constexpr bool takes_state = true;           // several state fields and levels: rings per level and stage

  static StencilOutcome run(const std::string& label, const StencilPolicy<ExecSpace>& policy, const Stencil& stencil,
                            const ViewType& u, const ViewType& scratch) {
    return run(label, policy, stencil, u, scratch, NoFields{});
  }
  /// fields: the call's read-only fields (FieldViews of ViewType::const_type, or NoFields).
  template <class FieldSet>
  static StencilOutcome run(const std::string& label, const StencilPolicy<ExecSpace>& policy, const Stencil& stencil,
                            const ViewType& u, const ViewType& scratch, const FieldSet& fields) {
    using Blocking = Host::HostBlocking<ExecSpace, Stencil, ViewType, FieldSet>;
    const auto time_round = [&](const StencilPolicy<ExecSpace>& timed, const PlanHost& timed_plan) {
      return time_candidates_on_copy(policy.space(), u, scratch, 2, [&](int i, const ViewType& a, const ViewType& b) {
        if (i == 0) {
          Blocking::run(label, timed, stencil, a, b, timed_plan, fields);
        } else {
          run_generic(label, timed, stencil, a, b, fields);
        }
      });
    };
    return choose_and_run<Blocking>(
        label, policy, u, typeid(FieldSet).name(), time_round,
        [&](const PlanHost& plan) { return Blocking::run(label, policy, stencil, u, scratch, plan, fields); },
        [&] { return run_generic(label, policy, stencil, u, scratch, fields); });
  }

  /// Several state fields or time levels (state.hpp); fields: the call's read-only fields.
  template <int NumFields, int RingSize, class FieldSet>
  static StencilOutcome run_state(const std::string& label, const StencilPolicy<ExecSpace>& policy,
                                  const Stencil& stencil, const StateRing<ViewType, NumFields, RingSize>& ring,
                                  const FieldSet& fields) {
    constexpr int levels = RingSize - 1;
    using StepSet = StateStepFields<Stencil, typename ViewType::const_type, NumFields * levels - 1, FieldSet>;
    using Blocking = Host::HostBlocking<ExecSpace, Stencil, ViewType, StepSet, NumFields, levels>;
    using Ring = StateRing<ViewType, NumFields, RingSize>;
    const ViewType& u = ring.buffers[0];
    const auto generic = [&] { return run_generic_ring(label, policy, stencil, ring, fields); };
    const std::string refused = level_pool_refusal(ring.buffers);
    if (!refused.empty()) {
      StencilOutcome outcome = generic();
      outcome.report.plan = "generic (" + outcome.report.plan + "; host blocking not used: " + refused + ")";
      return outcome;
    }
    // Timing runs on a copy of every buffer (the caller's levels stay untouched), allocated once for
    // every round of the choice.
    std::optional<Ring> copy_ring;
    const auto time_round = [&](const StencilPolicy<ExecSpace>& timed, const PlanHost& timed_plan) {
      if (!copy_ring) {
        copy_ring = ring;
        for (ViewType& b : copy_ring->buffers) {
          b = ViewType(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("EbisuKokkos::measured_choice")),
                       u.layout());
        }
      }
      Ring& copy = *copy_ring;
      std::vector<double> best(2, std::numeric_limits<double>::infinity());
      for (int round = 0; round < 2; ++round) {
        for (int i = 0; i < 2; ++i) {
          for (int b = 0; b < Ring::num_fields * RingSize; ++b) Kokkos::deep_copy(policy.space(), copy.buffers[b], ring.buffers[b]);
          policy.space().fence();
          Kokkos::Timer timer;
          if (i == 0) {
            Blocking::run_state(label, timed, stencil, copy.buffers, timed_plan, fields);
          } else {
            run_generic_ring(label, timed, stencil, copy, fields);
          }
          policy.space().fence();
          best[static_cast<std::size_t>(i)] = std::min(best[static_cast<std::size_t>(i)], timer.seconds());
        }
      }
      return best;
    };
    const std::string key = std::string(typeid(StepSet).name()) + "|state " + std::to_string(NumFields) + "x" +
                            std::to_string(levels);
    return choose_and_run<Blocking>(
        label, policy, u, key, time_round,
        [&](const PlanHost& plan) { return Blocking::run_state(label, policy, stencil, ring.buffers, plan, fields); },
        generic);
  }

 private:
  // Backend::ebisu runs the blocked plan; automatic the plan where the model
  // expects it to pay, or the faster of both paths where it was timed.
  template <class Blocking, class TimeRound, class RunBlocked, class RunGeneric>
  static StencilOutcome choose_and_run(const std::string& label, const StencilPolicy<ExecSpace>& policy,
                                       const ViewType& u, const std::string& key_extra, const TimeRound& time_round,
                                       const RunBlocked& run_blocked, const RunGeneric& run_generic_path) {
    const bool forced = policy.backend() == Backend::ebisu;
    const PlanHost plan = Blocking::plan(policy, u, forced);
    std::string measured;
    const bool blocked = forced ? true : choose_blocked<Blocking>(label, policy, u, plan, key_extra, time_round, measured);
    if (!blocked) {
      StencilOutcome generic = run_generic_path();
      generic.report.plan = "generic (" + plan.describe() + measured + ")";
      return generic;
    }
    PlanHost run_plan = plan;
    if (!plan.blocked) {  // the measured choice overrules the rules of thumb
      run_plan = Blocking::plan(policy, u, /*forced=*/true);
      run_plan.reason = "measured";
    }
    StencilOutcome outcome = run_blocked(run_plan);
    outcome.report.plan += measured;
    return outcome;
  }

  // Whether automatic runs the blocked plan: the model's rules, or the faster
  // of both paths timed (time_round: one round of both, blocked first) on a
  // copy (measured: "; measured choice ..." for the report).
  template <class Blocking, class TimeRound>
  static bool choose_blocked(const std::string& label, const StencilPolicy<ExecSpace>& policy, const ViewType& u,
                             const PlanHost& plan, const std::string& key_extra, const TimeRound& time_round,
                             std::string& measured) {
    const int steps = policy.steps();
    const Selection selection = policy.knobs().selection;
    const bool timed = selection == Selection::measured || (selection == Selection::automatic && plan.worth_timing);
    if (!timed || steps < 2 * plan.depth) return plan.blocked;
    const std::string key = measured_choice_key<Stencil>("host:" + std::to_string(policy.space().concurrency()),
                                                         policy, u) + "|" + key_extra;
    MeasuredChoiceOf<bool> choice;
    if (MeasuredChoiceCache<bool>::find(key, choice)) {
      measured = "; measured choice (cached for the process; " + choice.summary + ")";
      return choice.choice;
    }
    // A timing run: whole launches of the plan's depth, about kHostMeasureUpdates cell updates.
    const double cells = static_cast<double>(u.size());
    const int launches = std::max(2, static_cast<int>(kHostMeasureUpdates / (cells * plan.depth) + 0.5));
    const int timed_steps = std::min(steps / plan.depth, launches) * plan.depth;
    const StencilPolicy<ExecSpace> run_policy = policy.with_steps(timed_steps);
    const PlanHost timed_plan = Blocking::plan(run_policy, u, /*forced=*/true);
    Kokkos::Profiling::pushRegion("EbisuKokkos::measured_choice::" + label);
    std::vector<double> seconds = time_round(run_policy, timed_plan);
    // A close call gets two more rounds: on a shared 16-thread VM both timing rounds of the blocked
    // j2d25pt 8640^2 plan once ran 20% slow (164.6 against 136.7 ms in another process) and the
    // generic path won a choice that the blocked one wins by 1.2x.
    if (seconds[0] < kCloseCall * seconds[1] && seconds[1] < kCloseCall * seconds[0]) {
      const std::vector<double> again = time_round(run_policy, timed_plan);
      for (std::size_t i = 0; i < seconds.size(); ++i) seconds[i] = std::min(seconds[i], again[i]);
    }
    Kokkos::Profiling::popRegion();
    choice.choice = seconds[0] < seconds[1];
    char buf[160];
    std::snprintf(buf, sizeof buf, "measured over %d steps: blocked %.3f ms, generic %.3f ms", timed_steps,
                  seconds[0] * 1e3, seconds[1] * 1e3);
    choice.summary = buf;
    MeasuredChoiceCache<bool>::store(key, choice);
    measured = "; measured choice (" + choice.summary + ")";
    return choice.choice;
  }
};

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
