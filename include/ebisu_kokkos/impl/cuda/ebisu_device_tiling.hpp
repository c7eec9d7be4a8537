#ifndef EBISU_KOKKOS_IMPL_CUDA_EBISU_DEVICE_TILING_HPP
#define EBISU_KOKKOS_IMPL_CUDA_EBISU_DEVICE_TILING_HPP

// Device tiling for small and medium domains (EBISU paper, section 4.2; the
// on-chip regime of PERKS and of Pershin et al.): ONE persistent cooperative
// launch runs every time step. The domain is split into one tile per block;
// each block keeps its tile, widened by a halo of H = depth * radius cells,
// in shared memory for the whole run, and every `depth` steps exchanges only
// that halo with its neighbours through L2:
//
//   load the widened tile from u
//   repeat: `depth` steps in shared memory (the halo shrinks by the radius
//           each step, so the owned cells stay exact), then write the owned
//           cells within H of the tile's faces, grid barrier, read the halo
//   store the owned cells (into the buffer the last exchange did not use)
//
// The tile is kept twice in shared memory and each step reads one copy and
// writes the other (one block barrier per step). A thread streams runs of
// cells along the slow axis of one column (middle x fast position), the
// centre column and the columns a box-like stencil reads at several slow
// offsets in register windows (WindowColumns), the other offsets from shared memory.
// (The first version computed in place with results staged in 32 registers
// per thread: it spilled them to local memory, which with the shared-memory
// carve-out goes to L2, and ran 5-10x below its model.)
// Exchanges alternate between the two global buffers, so one grid barrier
// per exchange orders every write before the reads it feeds and every read
// before the next write to the same buffer.
// Loads and stores of exchanged cells go through L2 (ld.cg / st.cg): L1 is
// not coherent between SMs.
// Periodic and mirror sides (AxisRules): a tile at such a side loads the
// cells beyond it through the rule, from u and at every exchange (their
// owners store them with their shell), and computes them like halo cells.
// Read-only fields: each has one more tile in shared memory, loaded once with
// the state's first load (halo included, through the same rules) and never
// exchanged; the stencil reads them through FieldTileAccessor.
// Plan (depth, tiling, threads): performance_model_device_tiling.

#include <ebisu_kokkos/impl/axis_map.hpp>
#include <ebisu_kokkos/impl/boundary.hpp>
#include <ebisu_kokkos/impl/compat.hpp>
#include <ebisu_kokkos/impl/cuda/cuda_check.hpp>
#include <ebisu_kokkos/impl/cuda/device_helpers.hpp>
#include <ebisu_kokkos/impl/cuda/device_properties.hpp>
#include <ebisu_kokkos/impl/ebisu_backend_fwd.hpp>
#include <ebisu_kokkos/impl/fields.hpp>
#include <ebisu_kokkos/impl/offsets.hpp>
#include <ebisu_kokkos/impl/performance_model_device_tiling.hpp>
#include <ebisu_kokkos/policy.hpp>

#include <Kokkos_Core.hpp>
#include <cooperative_groups.h>

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace EbisuKokkos {
namespace Impl {
namespace Cuda {
namespace device_tiling {

// Backend::automatic weighs device tiling against SM tiling and the generic
// path by the model (calibrated on an H200 sweep, docs/perf-notes-device-tiling.md).
constexpr bool kAutomaticConsidersDeviceTiling = true;

constexpr int kMaxThreads = 512;
// Runs (column x chunk) a thread keeps for the whole launch; the plan sizes
// the runs so that the tile needs no more than this many per thread.
constexpr int kMaxRunsPerThread = KernelLimitsDT::kMaxRunsPerThread;
// Cells a thread updates together (every load of a group before its stores).
// (Radius 2: the 25-point box needs its registers. In 3-D, groups of 2 were
// 4% slower than 4, which spills 72 B for poisson.)
template <int R, int StateTiles>
constexpr int kGroupCells = R == 1 && StateTiles == 1 ? 4 : 2;
// Halo cells per thread whose (tile, global) offsets stay in registers.
constexpr int kCachedHalo = 8;
// (Runs kept in registers take those registers; their halo cells go through
// the exchange lists, which the plan sizes for it.)
constexpr int kCachedHaloKeptRuns = KernelLimitsDT::kKeptRunHaloCellsInRegisters;
// Kept runs (2-D stars of radius 1, one state field): a thread keeps the
// cells of its runs, at most kKeptRuns runs of 8 or 12 cells (one
// instantiation each), in registers from one step to the next, so that a cell
// update reads only the columns beside its own from shared memory (j2d5pt: 3
// accesses per cell instead of 4: two side columns and the store). (Radius 2,
// j2d9pt: 6 -> 5 accesses, -3% to +9% at the same depth on an H200, and the
// cheaper count moved the model to deeper plans that ran 3-6% slower at
// 256^2 / 512^2; it keeps streaming.)
constexpr int kKeptRuns = KernelLimitsDT::kKeptRuns;
template <class Map, int R, class Columns, int NS, int NL>
constexpr bool kCanKeepRuns = Map::rank == 2 && R == 1 && Columns::count == 1 && NS == 1 && NL == 1;

// The tile columns (middle, fast offset) whose values a thread keeps in
// register windows while it streams a run down the slow axis: the centre
// column always, and every column the stencil reads at two or more slow
// offsets (box-like stencils), most-read first, while the windows fit
// kWindowRegisters. A windowed column costs one shared-memory load per cell
// (its newest row); any other column one load per point: j2d25pt 6 accesses
// per cell instead of 22, poisson 10 instead of 18.
constexpr int kWindowRegisters = 64;
template <class Points, class Map, int R, int Rows, int ScalarBytes>
struct WindowColumnRule {
  static constexpr int M = Map::rank == 3 ? R : 0;  // middle-axis reach
  static constexpr int C = (2 * M + 1) * (2 * R + 1);  // columns of the box
  static constexpr int index(int dm, int df) { return (dm + M) * (2 * R + 1) + df + R; }
  static constexpr int kernel_offset(int k, int axis) {
    const int i = Map::view_index(axis);
    return i < 0 ? 0 : Points::offset(k, i);
  }
  struct Table {
    int slot[C];              // per column of the box: its window, or -1 (read from shared memory)
    int column[C];            // per window: its column's box index
    int count;
  };
  static constexpr Table make_table() {
    int points[C] = {};
    for (int k = 0; k < Points::size; ++k) ++points[index(kernel_offset(k, 1), kernel_offset(k, 2))];
    Table t{};
    for (int c = 0; c < C; ++c) t.slot[c] = -1;
    // The centre first, then the columns read at two or more slow offsets, most points first.
    t.slot[index(0, 0)] = 0;
    t.column[0] = index(0, 0);
    t.count = 1;
    for (int want = Points::size; want >= 2; --want)
      for (int c = 0; c < C; ++c)
        if (c != index(0, 0) && points[c] == want && (t.count + 1) * Rows * ScalarBytes / 4 <= kWindowRegisters) {
          t.slot[c] = t.count;
          t.column[t.count++] = c;
        }
    return t;
  }
};
// The rule's answers as constants (device code calls no host functions).
template <class Points, class Map, int R, int Rows, int ScalarBytes>
struct WindowColumns : WindowColumnRule<Points, Map, R, Rows, ScalarBytes> {
  using Rule = WindowColumnRule<Points, Map, R, Rows, ScalarBytes>;
  static constexpr typename Rule::Table table = Rule::make_table();
  static constexpr int rows = Rows;
  static constexpr int count = table.count;
  template <int DM, int DF>
  static constexpr int slot = table.slot[Rule::index(DM, DF)];
  template <int K>
  static constexpr int dm = table.column[K] / (2 * R + 1) - Rule::M;
  template <int K>
  static constexpr int df = table.column[K] % (2 * R + 1) - R;
};

// The model's cost of a cell update, in the accesses the kernel made before
// it had windows beside the centre column: the points off that column, its
// newest value and the store. The windows cut the accesses (j2d25pt 22 -> 6,
// poisson 18 -> 10) but not the cell's serial chain of multiply-adds, which
// bounds a step on small tiles (few cells per thread) and which this count
// still follows. Fed the windowed count, the model chose deeper plans that
// ran 11-19% slower (H200, j2d25pt 256^2 / 512^2 depth 8 against 4-5, the
// 3-D box-like stencils at 32^3 depth 4 against 3); with this count the
// depths stay where the per-depth scans put the best one
// (docs/perf-notes-device-tiling.md, v14).
template <class Stencil, class Map>
constexpr double model_cost_per_cell() {
  using P = typename Stencil::points;
  int off = 0;
  for (int k = 0; k < P::size; ++k) {
    const int o[3] = {P::offset(k, 0), P::offset(k, 1), P::offset(k, 2)};
    const int fast = o[Map::view_index(2)];
    const int mid = Map::rank == 3 ? o[1] : 0;
    off += (fast != 0 || mid != 0) ? 1 : 0;
  }
  return off + 2.0;
}

// Where the read-only fields come from (global memory, kernel-axis strides as for u).
template <class Scalar, int NF>
struct FieldSources {
  const Scalar* data[NF > 0 ? NF : 1];
  long stride[NF > 0 ? NF : 1][2];
};

// The state's buffers in global memory: field f's ring slot j at
// f * (levels + 1) + j, slot 0 holding its newest level when the call starts
// (StateRing's order; one field of one level: {u, scratch}).
template <class Scalar, int NB>
struct RingBuffers {
  Scalar* data[NB];
  long stride[NB][2];  // element strides along the slow and middle kernel axes (fast: 1)
};

struct Geometry {
  int n[3];          // global extents (kernel axes)
  int own[3];        // owned cells per block along each axis
  int tiles[3];      // blocks along each axis
  int local[3];      // own + 2 halo
  int halo[3];       // depth * radius (0 along the middle axis in 2-D)
  int depth;         // steps between exchanges
  int steps;
  int chunk_len;     // slow-axis cells per run (a thread's work item is one run of one column)
  AxisRules rules[3];     // boundary rules (kernel axes; 2-D: the middle axis is one fixed-free cell)
  bool mapped;            // some side is periodic or mirror (loads go through the rules)
  // Every state buffer has the same strides and every element offset fits in
  // an int: each thread keeps the source offsets of its first halo cells in
  // registers for the whole run (no index arithmetic per exchange).
  bool cache_halo;
  // Entries of the exchange lists after the tiles (0 unless cache_halo).
  int list_cells;
};

// Cell i of the cells between two nested boxes of the tile, [olo, ohi) less
// [ilo, ihi), as six slabs: the slow-axis slabs on either side, then the
// middle-axis slabs within the inner slow range, then the fast-axis slabs
// within the inner rows; the fast axis innermost, so that consecutive cells
// are contiguous in memory. (Arrays indexed by unrolled constants only, so
// that the slab table stays in registers: a dynamically indexed array would
// live in local memory.)
struct BoxShell {
  int olo[3], ohi[3], ilo[3], ihi[3];
  int cells[6];

  __device__ void slab(int k, int (&lo)[3], int (&len)[3]) const {
    const int axis = k >> 1;
    const bool high = (k & 1) != 0;
#pragma unroll
    for (int a = 0; a < 3; ++a) {
      lo[a] = a < axis ? ilo[a] : a > axis ? olo[a] : high ? ihi[a] : olo[a];
      len[a] = a < axis ? ihi[a] - ilo[a] : a > axis ? ohi[a] - olo[a] : high ? ohi[a] - ihi[a] : ilo[a] - olo[a];
    }
  }
  __device__ int count() {
    int total = 0;
#pragma unroll
    for (int k = 0; k < 6; ++k) {
      int lo[3], len[3];
      slab(k, lo, len);
      cells[k] = len[0] * len[1] * len[2];
      total += cells[k];
    }
    return total;
  }
  __device__ void cell(int i, int (&c)[3]) const {
    int k = 0;
#pragma unroll
    for (int q = 0; q < 5; ++q) {
      if (k == q && i >= cells[q]) {
        i -= cells[q];
        k = q + 1;
      }
    }
    int lo[3], len[3];
    slab(k, lo, len);
    const int row = i / len[2];
    const int rm = row / len[1];
    c[0] = lo[0] + rm;
    c[1] = lo[1] + row - rm * len[1];
    c[2] = lo[2] + i - row * len[2];
  }
};

// The neighbourhood of cell (s, m, f) of the shared tile: the windowed
// columns from the thread's registers, everything else from shared memory.
template <class Map, int R, class Columns, class Scalar>
struct TileAccessor {
  // Column k's window starts at w[k * Rows] with row s - R (constant offsets
  // only: the windows stay in registers).
  const Scalar* w;
  const Scalar* cell;
  int pitch_s, pitch_m;

  template <int D0, int D1, int D2>
  __device__ __forceinline__ Scalar get() const {
    constexpr int ds = Map::template ds<D0, D1, D2>;
    constexpr int dm = Map::template dm<D0, D1, D2>;
    constexpr int df = Map::template df<D0, D1, D2>;
    static_assert(ds >= -R && ds <= R, "EbisuKokkos: offset beyond the stencil radius");
    constexpr int k = Columns::template slot<dm, df>;
    if constexpr (k >= 0) {
      return w[k * Columns::rows + R + ds];
    } else {
      return cell[ds * pitch_s + dm * pitch_m + df];
    }
  }
};

// Another tile's neighbourhood of the same cell (a read-only field, or
// another state field or level): from shared memory.
template <class Map, class Scalar>
struct FieldTileAccessor {
  const Scalar* cell;
  int pitch_s, pitch_m;

  template <int D0, int D1, int D2>
  __device__ __forceinline__ Scalar get() const {
    return cell[Map::template ds<D0, D1, D2> * pitch_s + Map::template dm<D0, D1, D2> * pitch_m +
                Map::template df<D0, D1, D2>];
  }
};

// eval(state, other tiles 0 .. N-1) at tile offset `at_cell`: a Scalar, or a
// Kokkos::Array with one value per state field.
template <class Map, class Eval, class Accessor, class Scalar, int N, std::size_t... K>
__device__ __forceinline__ auto evaluate(const Eval& eval, const Accessor& at, const TilePointers<const Scalar, N>& reads,
                                         int at_cell, int pitch_s, int pitch_m, std::index_sequence<K...>) {
  return eval(at, FieldTileAccessor<Map, Scalar>{reads.p[K] + at_cell, pitch_s, pitch_m}...);
}

// One thread's run [s0, s1) of one column of the tile: the centre column of
// field 0's newest level in a register window, the rest from shared memory.
// Cells go in groups of G: every load of a group is issued before its stores.
// (One cell at a time, a cell's loads wait for the previous cell's store: the
// tiles share one allocation, so the compiler cannot move a load above a
// store, and each cell paid a whole shared-memory and FMA latency chain.)
// A run of at least 2G cells whose last 2 .. G - 1 cells do not fill a group
// ends with a group that overlaps the one before (it rewrites up to G - 2
// cells with the values they already have) instead of single cells, each of
// which waits for its own latency chain; a last single cell stays single.
// Shorter runs end with single cells: runs of 6 (j2d5pt 384^2) were 8%
// slower with the overlapped group (8 cells computed for 6).
// KeepFrame: frame cells keep each field's newest level (NL: levels per
// field; the newest level of field f > 0 is read tile f * NL - 1), tested per
// cell. Otherwise the caller has clipped the run to the cells the boundary
// rules update, and frame cells are never written: every copy of the tile
// holds their values from the first load on.
// (A second instantiation for runs with no frame cell, without the per-cell
// test, was 25% slower: the step's code no longer fit the instruction cache.)
template <class Map, int R, class Columns, int NF, int NS, int NL, bool KeepFrame, class Eval, class Scalar>
__device__ __forceinline__ void compute_run(const Eval& eval, const Scalar* in, const TilePointers<const Scalar, NF>& reads,
                                            const TilePointers<Scalar, NS>& outs, int col, int ps, int Lf, int s0,
                                            int s1, bool column_interior, const AxisRules& slow_rules,
                                            int slow_origin) {
  auto put = [&](int s, const auto& v, Scalar centre) {
    const int at = col + s * ps;
    if constexpr (KeepFrame) {
      const bool keep = !column_interior || slow_rules.frame(slow_origin + s);
#pragma unroll
      for (int f = 0; f < NS; ++f) {
        const Scalar old = f == 0 ? centre : reads.p[f * NL - 1 >= 0 ? f * NL - 1 : 0][at];
        outs.p[f][at] = keep ? old : static_cast<Scalar>(component(v, f));
      }
    } else {
#pragma unroll
      for (int f = 0; f < NS; ++f) outs.p[f][at] = static_cast<Scalar>(component(v, f));
    }
  };
  const Scalar* c = in + col;
  constexpr int W = 2 * R + 1;
  constexpr int G = kGroupCells<R, NS * NL>;
  constexpr int NC = Columns::count;
  constexpr int WL = Columns::rows;  // rows s - R .. s + G - 1 + R of each windowed column
  static_assert(WL == W - 1 + G, "EbisuKokkos: window rows and group size disagree");
  Scalar w[NC * WL];
  // fn(k, column k's offset in the tile) for every windowed column.
  auto for_each_column = [&](auto&& fn) {
    static_for<NC>([&](auto K) {
      constexpr int k = decltype(K)::value;
      fn(k, Columns::template dm<k> * Lf + Columns::template df<k>);
    });
  };
  using Accessor = TileAccessor<Map, R, Columns, Scalar>;
  using Value =
      decltype(evaluate<Map>(eval, Accessor{w, c, ps, Lf}, reads, 0, ps, Lf, std::make_index_sequence<NF>{}));
  auto shift = [&](int by) {
#pragma unroll
    for (int i = 0; i < NC * WL; ++i)
      if (i % WL < W - 1) w[i] = w[i + by];
  };
  auto group = [&](int s) {
    for_each_column([&](int k, int at) {
#pragma unroll
      for (int g = 0; g < G; ++g) w[k * WL + W - 1 + g] = c[(s + R + g) * ps + at];
    });
    Value v[G];
#pragma unroll
    for (int g = 0; g < G; ++g) {
      const Accessor at{w + g, c + (s + g) * ps, ps, Lf};
      v[g] = evaluate<Map>(eval, at, reads, col + (s + g) * ps, ps, Lf, std::make_index_sequence<NF>{});
    }
#pragma unroll
    for (int g = 0; g < G; ++g) put(s + g, v[g], w[R + g]);
  };
  auto fill_window = [&](int s) {
    for_each_column([&](int k, int at) {
#pragma unroll
      for (int d = 0; d < W - 1; ++d) w[k * WL + d] = c[(s - R + d) * ps + at];
    });
  };
  fill_window(s0);
  int s = s0;
  if (s1 - s0 >= G) {
    for (; s + G <= s1; s += G) {
      group(s);
      shift(G);
    }
    if (s1 - s >= 2 && s1 - s0 >= 2 * G) {
      fill_window(s1 - G);
      group(s1 - G);
      s = s1;
    }
  }
  // Runs shorter than a group, and a last cell (the windows hold rows s - R .. s + R - 1).
#pragma unroll 1
  for (; s < s1; ++s) {
    for_each_column([&](int k, int at) { w[k * WL + W - 1] = c[(s + R) * ps + at]; });
    const Accessor at{w, c + s * ps, ps, Lf};
    put(s, evaluate<Map>(eval, at, reads, col + s * ps, ps, Lf, std::make_index_sequence<NF>{}), w[R]);
    shift(1);
  }
}

// Kept runs (one state field, the centre column the only windowed one,
// runs of exactly RL cells: the plan's run length): w[R + i] holds cell i of
// a thread's run (slow row run_s + i) from step to step, w[0 .. R) and
// w[R + RL ..) the neighbouring runs' cells. The first step of a round (after
// the first load or an exchange) reloads every slot, the other steps the
// neighbours' slots. Those slots are written every step (zero where nothing
// is loaded: a run with nothing to compute, rows beyond the tile), so that the
// compiler sees the kept values dead during the exchange and the neighbours'
// slots dead between steps (live there, they spilled at the 128-register cap).
// c: the run's column in the tile the step reads, at slow row 0.
template <int R, int RL, class Scalar>
__device__ __forceinline__ void reload_kept_run(const Scalar* c, int ps, int Ls, int run_s, bool fresh, bool active,
                                                Scalar (&w)[RL + 2 * R]) {
  const Scalar* at = c + (run_s - R) * ps;
#pragma unroll
  for (int i = 0; i < RL + 2 * R; ++i, at += ps) {
    if (fresh || i < R || i >= R + RL) {
      // (The R rows above a run are inside the tile: run_s >= R.)
      const bool wanted = active && (i < R || run_s - R + i < Ls);
      w[i] = wanted ? *at : Scalar(0);
    }
  }
}

// Updates cells [s0, s1) of a kept run (reloaded for this step): into
// `out` and into w. A group's new values go out only after the next group is
// computed: that group still reads the old values of the last R cells before
// it (R <= G), and its loads are issued before these stores, so the compiler,
// which cannot move a shared-memory load above a store to the same
// allocation, need not wait for a group's multiply-adds before the next
// group's loads. Groups wholly inside [s0, s1), nearly all of them, store
// without a per-cell test. A group that ends beyond s1 computes values it
// does not store; the last run of a column may so read up to
// KernelLimitsDT::kKeptRunPadRows rows past the tile's end, into the padding
// the kernel leaves after each tile (clamping those rows cost 3-6%).
template <class Map, int R, class Columns, int NF, int RL, class Eval, class Scalar>
__device__ __forceinline__ void compute_kept_run(const Eval& eval, const Scalar* c,
                                                 const TilePointers<const Scalar, NF>& reads, Scalar* out, int col,
                                                 int ps, int Lf, int run_s, int s0, int s1, Scalar (&w)[RL + 2 * R]) {
  static_assert(Columns::count == 1, "EbisuKokkos: kept runs window the centre column only");
  constexpr int G = kGroupCells<R, 1>;
  static_assert(RL % G == 0 && R <= G, "EbisuKokkos: kept runs are whole groups of at least R cells");
  using Accessor = TileAccessor<Map, R, Columns, Scalar>;
  // Offsets from the run's first cell (tile index col + run_s * ps).
  const int first_cell = col + run_s * ps;
  const int lo = s0 - run_s, hi = s1 - run_s;  // the cells to update, run-relative
  auto commit = [&](int q, const Scalar(&v)[G]) {
    Scalar* const o = out + first_cell + q * G * ps;
    if (q * G >= lo && q * G + G <= hi) {
#pragma unroll
      for (int g = 0; g < G; ++g) {
        o[g * ps] = v[g];
        w[R + q * G + g] = v[g];
      }
    } else {
#pragma unroll
      for (int g = 0; g < G; ++g) {
        if (q * G + g >= lo && q * G + g < hi) {
          o[g * ps] = v[g];
          w[R + q * G + g] = v[g];
        }
      }
    }
  };
  Scalar pending[G];
#pragma unroll
  for (int q = 0; q < RL / G; ++q) {
    Scalar v[G];
    if (q * G < hi && q * G + G > lo) {
      const Scalar* const cq = c + (run_s + q * G) * ps;
#pragma unroll
      for (int g = 0; g < G; ++g)
        v[g] = evaluate<Map>(eval, Accessor{w + q * G + g, cq + g * ps, ps, Lf}, reads, first_cell + (q * G + g) * ps,
                             ps, Lf, std::make_index_sequence<NF>{});
    } else {
#pragma unroll
      for (int g = 0; g < G; ++g) v[g] = Scalar(0);
    }
    if (q > 0) commit(q - 1, pending);
#pragma unroll
    for (int g = 0; g < G; ++g) pending[g] = v[g];
  }
  commit(RL / G - 1, pending);
}

// NF: tiles the functor reads besides field 0's newest level (NS * NL - 1
// other state fields and levels, then the read-only fields); NS state fields
// of NL levels each.
// RL > 0: each thread keeps its runs, of RL cells, in registers (kCanKeepRuns;
// the plan gives a thread at most kKeptRuns runs).
template <class Map, int R, class Columns, class Eval, class Scalar, int NF, int NS, int NL, int RL>
__global__ void __launch_bounds__(kMaxThreads, 1)
    device_tiling_kernel(const Eval eval, const RingBuffers<Scalar, NS*(NL + 1)> ring,
                         const FieldSources<Scalar, NF - (NS * NL - 1)> fields, const Geometry g) {
  constexpr bool has_mid = Map::rank == 3;
  constexpr int RS = NL + 1;              // ring slots per state field
  constexpr int NE = NS * NL - 1;         // state tiles read besides field 0's newest level
  constexpr int NRO = NF - NE;            // read-only fields
  constexpr bool single = NS == 1 && NL == 1;
  constexpr bool keeps_runs = RL > 0;
  static_assert(!keeps_runs || kCanKeepRuns<Map, R, Columns, NS, NL>,
                "EbisuKokkos: runs kept in registers: 2-D stars of radius 1");
  constexpr int kRuns = keeps_runs ? kKeptRuns : kMaxRunsPerThread;
  extern __shared__ __align__(16) unsigned char device_tiling_smem[];
  Scalar* const tiles_smem = reinterpret_cast<Scalar*>(device_tiling_smem);
  const int tile_cells = g.local[0] * g.local[1] * g.local[2];
  // Kept runs: padding rows after every tile (what a last run may read past it).
  const int tile_stride = tile_cells + (keeps_runs ? KernelLimitsDT::kKeptRunPadRows * g.local[1] * g.local[2] : 0);
  // Shared tiles: field f's ring slot j (the same rotation as the global
  // ring), then one tile per read-only field.
  auto slot_tile = [&](int f, int j) { return tiles_smem + (f * RS + j) * tile_stride; };
  // A power-of-two ring (one field of one level: its two copies) takes the
  // slot with a mask: the signed remainders cost ~8 instructions per step,
  // ~4% of a 256^2 step's (ncu, docs/perf-notes-device-tiling.md v18).
  auto ring_slot = [](int x) {
    if constexpr ((RS & (RS - 1)) == 0) {
      return x & (RS - 1);
    } else {
      return (x % RS + RS) % RS;
    }
  };
  auto level_slot = [&](int l, int done) { return ring_slot(done - l); };
  Scalar* const field_tiles = tiles_smem + NS * RS * tile_stride;
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();

  const int Ls = g.local[0], Lm = g.local[1], Lf = g.local[2];
  const int ps = Lm * Lf;  // slow-axis pitch of the tile
  int b = blockIdx.x;
  const int tf = b % g.tiles[2];
  b /= g.tiles[2];
  const int tm = b % g.tiles[1];
  const int ts = b / g.tiles[1];
  const int own0[3] = {ts * g.own[0], tm * g.own[1], tf * g.own[2]};
  int own_len[3], org[3];
#pragma unroll
  for (int a = 0; a < 3; ++a) {
    own_len[a] = min(g.own[a], g.n[a] - own0[a]);
    org[a] = own0[a] - g.halo[a];  // global coordinate of tile cell 0
  }

  constexpr int Rm = has_mid ? R : 0;
  const int t = threadIdx.x;
  const int lane = t & 31, warp = t >> 5, nwarps = blockDim.x >> 5;

  // The element offset of tile cell c in a global buffer, or -1 where the
  // cell has no value to load (beyond a fixed side; its tile value is never
  // read by a computed cell).
  auto source_offset = [&](const int (&c)[3], const long (&stride)[2]) -> long {
    const int gs = org[0] + c[0], gm = org[1] + c[1], gf = org[2] + c[2];
    if (!g.mapped) {  // (the whole grid alike: fixed-frame loads issue back to back as they always did)
      const bool in_domain = gs >= 0 && gs < g.n[0] && gm >= 0 && gm < g.n[1] && gf >= 0 && gf < g.n[2];
      return in_domain ? gs * stride[0] + gm * stride[1] + gf : -1L;
    }
    const bool loadable = g.rules[0].loadable(gs) && g.rules[1].loadable(gm) && g.rules[2].loadable(gf);
    return loadable ? static_cast<long>(g.rules[0].source(gs)) * stride[0] +
                          static_cast<long>(g.rules[1].source(gm)) * stride[1] + g.rules[2].source(gf)
                    : -1L;
  };
  // Loads go kLoadsInFlight per thread before their values are stored: the
  // exchange is latency-bound, and a load-then-store loop would wait one L2
  // round trip per cell (v2 measured ~6 us per exchange that way). `cell_of(i)`
  // names the i-th of `count` cells to load as its tile coordinates and
  // returns its tile index; `also` (if not null): the first load fills the
  // spare tile too, so that the cells no step writes (the outer radius ring)
  // hold finite values in every tile.
  constexpr int kLoadsInFlight = 8;
  // `listed_from` (if not null): the source offsets by i, from an exchange list.
  auto load = [&](int first, int count, auto&& cell_of, const Scalar* src, const long (&stride)[2], Scalar* to,
                  Scalar* also, const int* listed_from = nullptr) {
    for (int base = first + t; base < count; base += kLoadsInFlight * blockDim.x) {
      Scalar v[kLoadsInFlight];
      int at[kLoadsInFlight];
#pragma unroll
      for (int k = 0; k < kLoadsInFlight; ++k) {
        const int i = base + k * blockDim.x;
        int c[3] = {0, 0, 0};
        at[k] = i < count ? cell_of(i, c) : -1;
        const long from = at[k] < 0 ? -1L : listed_from != nullptr ? listed_from[i] : source_offset(c, stride);
        v[k] = from >= 0 ? __ldcg(src + from) : Scalar(0);
      }
#pragma unroll
      for (int k = 0; k < kLoadsInFlight; ++k) {
        if (at[k] >= 0) {
          to[at[k]] = v[k];
          if (also != nullptr) also[at[k]] = v[k];
        }
      }
    }
  };
  // Every cell of the tile, in flat order (coalesced along the fast axis).
  auto whole_tile = [&](int i, int (&c)[3]) {
    const int row = i / Lf;
    c[2] = i - row * Lf;
    c[0] = row / Lm;
    c[1] = row - c[0] * Lm;
    return i;
  };
  // The halo: the tile less its owned box, cell by cell (BoxShell's slabs).
  int ob[3], oe[3];
#pragma unroll
  for (int a = 0; a < 3; ++a) {
    ob[a] = g.halo[a];
    oe[a] = g.halo[a] + own_len[a];
  }
  BoxShell halo;  // the tile less its owned box
  {
    const int L[3] = {Ls, Lm, Lf};
#pragma unroll
    for (int a = 0; a < 3; ++a) {
      halo.olo[a] = 0;
      halo.ohi[a] = L[a];
      halo.ilo[a] = ob[a];
      halo.ihi[a] = oe[a];
    }
  }
  const int halo_cells = halo.count();
  auto halo_only = [&](int i, int (&c)[3]) {
    halo.cell(i, c);
    return (c[0] * Lm + c[1]) * Lf + c[2];
  };
  // Each thread's first kCachedHalo halo cells (tile index, source offset)
  // stay in registers for the whole run: an exchange then only loads and
  // stores them (the slab arithmetic above cost ~200 instructions per cell
  // and exchange). Cells beyond kCachedHalo per thread take the exchange
  // list, then the slab path.
  constexpr int kHaloRegs = keeps_runs ? kCachedHaloKeptRuns : kCachedHalo;
  int halo_at[kHaloRegs > 0 ? kHaloRegs : 1], halo_from[kHaloRegs > 0 ? kHaloRegs : 1];
#pragma unroll
  for (int k = 0; k < kHaloRegs; ++k) {
    const int i = t + k * blockDim.x;
    int c[3] = {0, 0, 0};
    halo_at[k] = g.cache_halo && i < halo_cells ? halo_only(i, c) : -1;
    halo_from[k] = halo_at[k] >= 0 ? static_cast<int>(source_offset(c, ring.stride[0])) : -1;
  }
  const int uncached_from = g.cache_halo ? kHaloRegs * blockDim.x : 0;
  // Exchange lists in the shared memory after the tiles, (tile index, global
  // offset) per entry, built once: the halo cells beyond the register cache,
  // then the owned shell (the cells within the halo width of a face, what the
  // neighbours read) if all of it fits. Cells beyond the lists take the slab
  // path and the per-row store. (At 64^3 the shell store and the slab path
  // were half of the kernel's instructions.)
  int* const list_at = reinterpret_cast<int*>(field_tiles + NRO * tile_stride);
  int* const list_from = list_at + g.list_cells;
  const int halo_listed = min(g.list_cells, max(0, halo_cells - uncached_from));
  int shell_cells;
  {
    BoxShell shell;
#pragma unroll
    for (int a = 0; a < 3; ++a) {
      shell.olo[a] = ob[a];
      shell.ohi[a] = oe[a];
      shell.ilo[a] = ob[a] + min(g.halo[a], own_len[a]);
      shell.ihi[a] = max(shell.ilo[a], oe[a] - g.halo[a]);
    }
    shell_cells = shell.count();
    const bool listed = g.list_cells > 0 && shell_cells <= g.list_cells - halo_listed;
    for (int e = t; e < halo_listed; e += blockDim.x) {
      int c[3] = {0, 0, 0};
      list_at[e] = halo_only(uncached_from + e, c);
      list_from[e] = static_cast<int>(source_offset(c, ring.stride[0]));
    }
    for (int e = t; listed && e < shell_cells; e += blockDim.x) {
      int c[3];
      shell.cell(e, c);
      list_at[halo_listed + e] = (c[0] * Lm + c[1]) * Lf + c[2];
      list_from[halo_listed + e] = static_cast<int>((org[0] + c[0]) * ring.stride[0][0] +
                                                    (org[1] + c[1]) * ring.stride[0][1] + org[2] + c[2]);
    }
    if (!listed) shell_cells = -1;
  }
  const int* const shell_at = list_at + halo_listed;
  const int* const shell_to = list_from + halo_listed;
  auto load_halo = [&](const Scalar* src, const long (&stride)[2], Scalar* to) {
    Scalar v[kHaloRegs > 0 ? kHaloRegs : 1];
#pragma unroll
    for (int k = 0; k < kHaloRegs; ++k) v[k] = halo_from[k] >= 0 ? __ldcg(src + halo_from[k]) : Scalar(0);
#pragma unroll
    for (int k = 0; k < kHaloRegs; ++k)
      if (halo_at[k] >= 0) to[halo_at[k]] = v[k];
    load(0, halo_listed, [&](int e, int (&)[3]) { return list_at[e]; }, src, stride, to, nullptr, list_from);
    load(uncached_from + halo_listed, halo_cells, halo_only, src, stride, to, nullptr);
  };

  // Owned rows of tile `from`; shell_only: only cells within the halo width
  // of a face (what the neighbours read).
  auto store = [&](const Scalar* from, Scalar* dst, const long (&stride)[2], bool shell_only) {
    if (shell_only && shell_cells >= 0) {
#pragma unroll 4
      for (int e = t; e < shell_cells; e += blockDim.x) __stcg(dst + shell_to[e], from[shell_at[e]]);
      return;
    }
    const int rows = own_len[0] * own_len[1];
    for (int row = warp; row < rows; row += nwarps) {
      const int so = row / own_len[1], mo = row - so * own_len[1];
      const int s = g.halo[0] + so, mm = g.halo[1] + mo;
      Scalar* grow = dst + (org[0] + s) * stride[0] + (org[1] + mm) * stride[1] + own0[2];
      const Scalar* trow = from + (s * Lm + mm) * Lf + g.halo[2];
      const int hs = g.halo[0], hm = g.halo[1], hf = g.halo[2];
      const bool whole_row = !shell_only || so < hs || so >= own_len[0] - hs ||
                             (has_mid && (mo < hm || mo >= own_len[1] - hm)) || own_len[2] <= 2 * hf;
      const int count = whole_row ? own_len[2] : 2 * hf;
      for (int j = lane; j < count; j += 32) {
        const int ff = whole_row || j < hf ? j : own_len[2] - 2 * hf + j;
        __stcg(grow + ff, trow[ff]);
      }
    }
  };

  // Each thread's runs (one column, chunk_len cells of the slow axis) over
  // the tile less its radius ring, fixed for the whole run; step j of a
  // round clips them to the tile less (j + 1) * radius on every side, the
  // cells the rest of the round still needs. The exchange (or the first
  // load) refreshed the whole tile, and step j reads exactly the cells step
  // j - 1 wrote, so the halo's dead ring is never computed. (Mapping the
  // runs afresh each step cost four integer divisions per run and step.)
  int run_f[kMaxRunsPerThread], run_m[kMaxRunsPerThread], run_s[kMaxRunsPerThread];
  unsigned run_interior = 0;  // bit k: run k's column is not in the fixed frame
  bool second_runs = true;     // some thread of the block has a run k >= 1
  {
    const int cols_f = Lf - 2 * R;
    const int pencils = cols_f * (Lm - 2 * Rm);
    const int items = pencils * ((Ls - 2 * R + g.chunk_len - 1) / g.chunk_len);
    second_runs = items > static_cast<int>(blockDim.x);
#pragma unroll
    for (int k = 0; k < kRuns; ++k) {
      const int item = t + k * blockDim.x;
      const int pencil = item % pencils, chunk = item / pencils;
      run_f[k] = item < items ? R + pencil % cols_f : -1;
      run_m[k] = Rm + pencil / cols_f;
      run_s[k] = R + chunk * g.chunk_len;
      if (!g.rules[2].frame(org[2] + run_f[k]) && !g.rules[1].frame(org[1] + run_m[k])) run_interior |= 1u << k;
    }
  }
  // One field of one level: the runs are clipped to the slow-axis cells the
  // boundary rules update, and frame cells are never written. Both copies of
  // the tile hold the frame from the first load (the spare is filled with it),
  // and an exchange refreshes it with the same values, so the per-cell frame
  // test and its select leave the step. (Several fields or levels keep the
  // test: their tiles of older levels hold other frame values.)
  constexpr bool keep_frame = !single;
  // Kept runs: each run's cells and the slots around them.
  Scalar kept[keeps_runs ? kKeptRuns : 1][keeps_runs ? RL + 2 * R : 1];
  const int slow_update_lo = g.rules[0].frame_lo - org[0];
  const int slow_update_hi = slow_update_lo + g.rules[0].frame_span;
  // Step j of a round, `done` steps into the call: reads the tiles of levels
  // done, done - 1, ... and writes each field's next ring slot.
  // fresh (a std::bool_constant): the round's first step (kept runs reload every slot).
  auto step = [&](int j, int done, auto fresh) {
    const Scalar* in = slot_tile(0, level_slot(0, done));
    TilePointers<const Scalar, NF> reads;
#pragma unroll
    for (int q = 1; q <= NE; ++q) reads.p[q - 1] = slot_tile(q / NL, level_slot(q % NL, done));
#pragma unroll
    for (int k = 0; k < NRO; ++k) reads.p[NE + k] = field_tiles + k * tile_stride;
    TilePointers<Scalar, NS> outs;
#pragma unroll
    for (int f = 0; f < NS; ++f) outs.p[f] = slot_tile(f, ring_slot(done + 1));
    const int lo = R + j * R, lo_m = Rm + j * Rm;
#pragma unroll
    for (int k = 0; k < kRuns; ++k) {
      const int f = run_f[k], m = run_m[k];
      int s0 = max(run_s[k], lo), s1 = min(run_s[k] + g.chunk_len, Ls - lo);
      if constexpr (!keep_frame) {
        s0 = max(s0, slow_update_lo);
        s1 = min(s1, slow_update_hi);
        if (((run_interior >> k) & 1u) == 0) s1 = s0;
      }
      if constexpr (keeps_runs) {
        if (k > 0 && !second_runs) {
          // No thread of the block has a second run (256^2-512^2: one run
          // each): its bounds and tests, ~14 instructions per step, are
          // skipped (uniform over the block). Its slots are still written:
          // see reload_kept_run. (With the mask above: j2d5pt 256^2 / 384^2
          // / 512^2 +13% / +13% / +4% on an H200.)
          reload_kept_run<R, RL>(in, ps, Ls, R, decltype(fresh)::value, false, kept[k]);
          continue;
        }
        const bool active = f >= lo && f < Lf - lo && m >= lo_m && m < Lm - lo_m && s0 < s1;
        // The pitch made opaque to the compiler here: it would otherwise
        // hoist the run's row offsets (the same every step) out of the step
        // loop and keep them in registers, which spilled.
        int pitch = ps;
        asm volatile("" : "+r"(pitch));
        const Scalar* const c = in + m * Lf + f;
        reload_kept_run<R, RL>(c, pitch, Ls, run_s[k], decltype(fresh)::value, active, kept[k]);
        if (active)
          compute_kept_run<Map, R, Columns, NF, RL>(eval, c, reads, outs.p[0], m * Lf + f, pitch, Lf, run_s[k], s0,
                                                    s1, kept[k]);
      } else if (f >= lo && f < Lf - lo && m >= lo_m && m < Lm - lo_m && s0 < s1) {
        compute_run<Map, R, Columns, NF, NS, NL, keep_frame>(eval, in, reads, outs, m * Lf + f, ps, Lf, s0, s1,
                                                             (run_interior >> k) & 1u, g.rules[0], org[0]);
      }
    }
    __syncthreads();
  };
  // fn(field, level, its shared tile, its global buffer's index) for every
  // level of every field after `done` steps.
  auto for_each_level = [&](int done, auto&& fn) {
#pragma unroll
    for (int q = 0; q < NS * NL; ++q) {
      const int f = q / NL, l = q % NL;
      fn(f, l, slot_tile(f, level_slot(l, done)), f * RS + level_slot(l, done));
    }
  };

  for_each_level(0, [&](int f, int l, Scalar* tile, int bi) {
    load(0, tile_cells, whole_tile, ring.data[bi], ring.stride[bi], tile, l == 0 ? slot_tile(f, 1) : nullptr);
  });
  for (int k = 0; k < NRO; ++k)
    load(0, tile_cells, whole_tile, fields.data[k], fields.stride[k], field_tiles + k * tile_stride, nullptr);
  __syncthreads();
  int done = 0, exchanges = 0;
  while (true) {
    const int k = min(g.depth, g.steps - done);
    if constexpr (keeps_runs) {
      step(0, done, std::true_type{});
      for (int j = 1; j < k; ++j) step(j, done + j, std::false_type{});
    } else {
      for (int j = 0; j < k; ++j) step(j, done + j, std::false_type{});
    }
    done += k;
    if (done >= g.steps) break;
    if constexpr (single) {
      // Exchanges alternate between the two buffers: exchange e writes and
      // reads u when e is odd, scratch when even, so one barrier orders every
      // write before the reads it feeds and every read before the next write.
      const int bi = exchanges % 2 == 0 ? 1 : 0;
      store(slot_tile(0, level_slot(0, done)), ring.data[bi], ring.stride[bi], true);
      grid.sync();
      load_halo(ring.data[bi], ring.stride[bi], slot_tile(0, level_slot(0, done)));
    } else {
      // Several fields or levels: each level's shell goes to the global
      // buffer that holds that level after `done` steps; the ring has too
      // few buffers to alternate (every level is exchanged), so a barrier
      // first waits for the reads of the previous exchange (or the first load).
      grid.sync();
      for_each_level(done, [&](int, int, Scalar* tile, int bi) { store(tile, ring.data[bi], ring.stride[bi], true); });
      grid.sync();
      for_each_level(done, [&](int, int, Scalar* tile, int bi) { load_halo(ring.data[bi], ring.stride[bi], tile); });
    }
    __syncthreads();
    ++exchanges;
  }
  if constexpr (single) {
    // The final field goes to the buffer the last exchange did not use (no
    // block still reads it), or to scratch when there was no exchange (u may
    // still be being read by blocks that have not finished their first load).
    const int bi = exchanges == 0 || (exchanges - 1) % 2 == 1 ? 1 : 0;
    store(slot_tile(0, level_slot(0, done)), ring.data[bi], ring.stride[bi], false);
  } else {
    // Every level into the buffer the ring gives it after the call's steps,
    // once no block reads the buffers any more.
    grid.sync();
    for_each_level(done, [&](int, int, Scalar* tile, int bi) { store(tile, ring.data[bi], ring.stride[bi], false); });
  }
}

inline bool final_in_scratch(int steps, int depth) {
  const int exchanges = (steps + depth - 1) / depth - 1;
  return exchanges == 0 || (exchanges - 1) % 2 == 1;
}

}  // namespace device_tiling

/// The device-tiling strategy for one (stencil, View type, state fields and
/// levels, kinds of the other tiles the functor reads): its plan and its run.
/// FieldKinds: for NS x NL > 1 the NS * NL - 1 other state fields and levels
/// (NeighbourhoodField, state_ring.hpp) before the read-only fields.
template <class Stencil, class ViewType, int NS, int NL, class... FieldKinds>
struct DeviceTiling {
  using Scalar = typename ViewType::non_const_value_type;
  static constexpr int rank = view_rank<ViewType>;
  static constexpr bool right = std::is_same_v<typename ViewType::array_layout, Kokkos::LayoutRight>;
  using Map = AxisMap<rank, right>;
  using Eval = decltype(std::declval<const Stencil&>().template bind<Scalar, FieldKinds...>());
  static constexpr int R = Stencil::radius;
  static constexpr int NF = static_cast<int>(sizeof...(FieldKinds));
  static constexpr int NE = NS * NL - 1;     // other state fields and levels
  static constexpr int NRO = NF - NE;        // read-only fields
  static constexpr int NB = NS * (NL + 1);   // state buffers
  static_assert(NRO >= 0, "EbisuKokkos: DeviceTiling needs a kind for every other state field and level");
  using Ring = device_tiling::RingBuffers<Scalar, NB>;

  using Columns = device_tiling::WindowColumns<typename Stencil::points, Map, R,
                                               2 * R + device_tiling::kGroupCells<R, NS * NL>,
                                               static_cast<int>(sizeof(Scalar))>;

  static constexpr bool can_keep_runs = device_tiling::kCanKeepRuns<Map, R, Columns, NS, NL>;
  // kept_run_cells (8, 12 or 0): the instantiation that keeps each thread's
  // runs of that many cells in registers, or none.
  template <int RL>
  static auto kernel() {
    return &device_tiling::device_tiling_kernel<Map, R, Columns, Eval, Scalar, NF, NS, NL, RL>;
  }
  static auto function(int kept_run_cells = 0) {
    if constexpr (can_keep_runs) {
      if (kept_run_cells == 8) return kernel<8>();
      if (kept_run_cells == 12) return kernel<12>();
    }
    return kernel<0>();
  }

  static void extents(const ViewType& u, long (&n)[3]) { kernel_extents<Map>(u, n); }

  // The model's plan, checked against the compiled kernel (registers,
  // co-residency of every block); cached per problem for the process.
  static PlanDT plan(const StencilPolicy<Kokkos::Cuda>& policy, const ViewType& u) {
    long n[3];
    extents(u, n);
    const int device = policy.space().cuda_device();
    const int depth_knob = policy.knobs().temporal_depth;
    using Key = std::tuple<int, long, long, long, int, int>;
    static std::mutex mutex;
    static std::map<Key, PlanDT> cache;
    const Key key{device, n[0], n[1], n[2], policy.steps(), depth_knob};
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto it = cache.find(key);
      if (it != cache.end()) return it->second;
    }
    const DeviceModel& dev = device_model(device);
    const StencilModel sm = stencil_model<Stencil>(static_cast<int>(sizeof(Scalar)));
    cudaFuncAttributes attr{};
    EBISU_CUDA_CHECK(cudaFuncGetAttributes(&attr, function()), "device_tiling_kernel");
    if constexpr (can_keep_runs) {
      for (const int cells : {8, 12}) {
        cudaFuncAttributes kept{};
        EBISU_CUDA_CHECK(cudaFuncGetAttributes(&kept, function(cells)), "device_tiling_kernel");
        attr.maxThreadsPerBlock = std::min(attr.maxThreadsPerBlock, kept.maxThreadsPerBlock);
      }
    }
    KernelLimitsDT lim;
    lim.keeps_runs = can_keep_runs;
    lim.max_threads = attr.maxThreadsPerBlock < device_tiling::kMaxThreads ? attr.maxThreadsPerBlock / 32 * 32
                                                                             : device_tiling::kMaxThreads;
    lim.max_blocks = dev.sm_count;
    // Another state field or level read over the footprint may touch its
    // whole box (what the functor does not read, the compiler drops); a
    // read-only field costs a load per point read, taken as the stencil's
    // points (the whole box predicted heat3d-var at a third of its measured
    // speed: 14-25 against 41-87 GCells/s at 48^3-80^3, H200, 2026-11-29);
    // each further state field stores once more.
    constexpr double kPoints = static_cast<double>(Stencil::points::size);
    lim.smem_accesses_per_cell =
        device_tiling::model_cost_per_cell<Stencil, Map>() + (NS - 1) +
        (0.0 + ... +
         (FieldKinds::centre_only                                 ? 1.0
          : std::is_same_v<FieldKinds, NeighbourhoodField> ? kPoints
                                                                  : static_cast<double>(Box<rank, R>::size)));
    lim.field_tiles = NRO;
    lim.state_tiles = NB;
    lim.exchanged_tiles = NS * NL;
    lim.grid_syncs_per_exchange = NS * NL == 1 ? 1 : 2;
    lim.group_cells = device_tiling::kGroupCells<R, NS * NL>;
    lim.halo_cells_in_registers = device_tiling::kCachedHalo;
    PlanDT p = choose_plan_device_tiling(dev, sm, n, policy.steps(), policy.knobs(), lim);
    if (p.valid) {
      // Every block must be resident at once (cooperative launch).
      EBISU_CUDA_CHECK(cudaFuncSetAttribute(function(p.kept_run_cells), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(p.smem_bytes)),
                       "device_tiling_kernel");
      int per_sm = 0;
      EBISU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, function(p.kept_run_cells), p.threads,
                                                                     static_cast<std::size_t>(p.smem_bytes)),
                       "device_tiling_kernel");
      if (static_cast<long>(per_sm) * dev.sm_count < p.blocks) {
        p.valid = false;
        p.why_not = "the blocks cannot all be resident (" + std::to_string(per_sm) + " per SM)";
      }
    }
    std::lock_guard<std::mutex> lock(mutex);
    cache.emplace(key, p);
    return p;
  }

  /// One field of one level on (u, scratch); fields: FieldViews of
  /// FieldKinds (NoFields when there are none). The outcome says which of
  /// the two holds step T.
  template <class FieldSet = NoFields>
  static StencilOutcome run(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                            const Stencil& stencil, const ViewType& u, const ViewType& scratch, const PlanDT& p,
                            const FieldSet& fields = FieldSet{}) {
    static_assert(NS == 1 && NL == 1, "EbisuKokkos: DeviceTiling::run is the single-field form (run_state otherwise)");
    static_assert(FieldSet::size == NF, "EbisuKokkos: DeviceTiling run with another set of fields than planned");
    const ViewType buffers[2] = {u, scratch};
    StencilOutcome outcome = launch(label, policy, stencil, buffers, p, fields);
    outcome.result_in_scratch = device_tiling::final_in_scratch(policy.steps(), p.depth);
    return outcome;
  }

  /// Several state fields or levels: the buffers in StateRing order (field
  /// f's slot j at f * (NL + 1) + j, slot 0 its newest level); fields: the
  /// read-only fields. On return field f's level l is in its ring slot T - l.
  template <class FieldSet>
  static StencilOutcome run_state(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                                  const Stencil& stencil, const std::array<ViewType, NB>& buffers, const PlanDT& p,
                                  const FieldSet& fields) {
    static_assert(FieldSet::size == NRO, "EbisuKokkos: DeviceTiling run with another set of fields than planned");
    StencilOutcome outcome = launch(label, policy, stencil, buffers.data(), p, fields);
    outcome.report.plan += "; " + std::to_string(NS) + " state field(s) of " + std::to_string(NL) +
                           " level(s), " + std::to_string(NB) + " state tiles";
    return outcome;
  }

 private:
  // buffers: the NB state buffers; fields: the read-only fields.
  template <class FieldSet>
  static StencilOutcome launch(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                               const Stencil& stencil, const ViewType* buffers, const PlanDT& p,
                               const FieldSet& fields) {
    StencilOutcome outcome;
    StencilReport& report = outcome.report;
    report.backend = Backend::ebisu;
    report.strategy = Strategy::device_tiling;
    report.temporal_depth = p.depth;
    report.launches = 1;
    report.predicted_gcells_per_s = p.predicted_gcells_per_s;
    report.plan = p.describe();
    cudaFuncAttributes attr{};
    EBISU_CUDA_CHECK(cudaFuncGetAttributes(&attr, function(p.kept_run_cells)), "device_tiling_kernel");
    report.plan += "; regs/thread " + std::to_string(attr.numRegs) +
                   (attr.localSizeBytes > 0 ? ", local memory " + std::to_string(attr.localSizeBytes) + " B" : "");
    if (policy.knobs().threads > 0 || policy.knobs().tile_width > 0) {
      report.plan += "; threads / tile-width knob ignored (device tiling sizes its blocks to its tiles)";
    }
    const ViewType& u = buffers[0];

    device_tiling::Geometry g{};
    long n[3];
    extents(u, n);
    for (int a = 0; a < 3; ++a) {
      g.n[a] = static_cast<int>(n[a]);
      g.own[a] = p.own[a];
      g.tiles[a] = p.tiles[a];
      g.local[a] = p.local[a];
      g.halo[a] = p.halo[a];
    }
    for (int a = 0; a < 3; ++a) {
      const int v = Map::view_index(a);
      g.rules[a] = v < 0 ? AxisRules(1, Boundary::fixed, Boundary::fixed, 0) : axis_rules(u, policy.boundaries(), v, R);
    }
    g.mapped = !(g.rules[0].all_fixed() && g.rules[1].all_fixed() && g.rules[2].all_fixed());
    g.depth = p.depth;
    g.steps = policy.steps();
    g.chunk_len = p.chunk_len;

    Ring ring{};
    bool same_strides = true;
    long last = 0;
    for (int k = 0; k < NB; ++k) {
      ring.data[k] = buffers[k].data();
      for (int a = 0; a < 2; ++a) {
        const int v = Map::view_index(a);
        ring.stride[k][a] = v < 0 ? 0 : static_cast<long>(buffers[k].stride(v));
        same_strides = same_strides && ring.stride[k][a] == ring.stride[0][a];
      }
      last = std::max(last, (n[0] - 1) * ring.stride[k][0] + (n[1] - 1) * ring.stride[k][1] + n[2]);
    }
    g.cache_halo = same_strides && last < static_cast<long>(std::numeric_limits<int>::max());
    g.list_cells = g.cache_halo ? p.list_cells : 0;

    device_tiling::FieldSources<Scalar, NRO> sources{};
    if constexpr (NRO > 0) {
      for (int k = 0; k < NRO; ++k) {
        const auto& view = fields.views[k];
        sources.data[k] = view.data();
        for (int a = 0; a < 2; ++a) {
          const int v = Map::view_index(a);
          sources.stride[k][a] = v < 0 ? 0 : static_cast<long>(view.stride(v));
        }
      }
      report.plan += "; " + std::to_string(NRO) + " read-only field tile(s) in shared memory";
    }
    const cudaStream_t stream = policy.space().cuda_stream();

    const Eval eval = stencil.template bind<Scalar, FieldKinds...>();
    void* args[] = {const_cast<Eval*>(&eval), &ring, &sources, &g};
    Kokkos::Profiling::pushRegion("EbisuKokkos::device_tiling::" + label);
    EBISU_CUDA_CHECK(cudaFuncSetAttribute(function(p.kept_run_cells), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(p.smem_bytes)),
                     "device_tiling_kernel");
    EBISU_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(function(p.kept_run_cells)), dim3(p.blocks),
                                                 dim3(p.threads), args, static_cast<std::size_t>(p.smem_bytes),
                                                 stream),
                     "device_tiling_kernel (cooperative launch)");
    Kokkos::Profiling::popRegion();
    return outcome;
  }
};

/// DeviceTiling for the field kinds of a FieldViews (NoFields: none); for
/// several state fields or levels, FieldSet is the step's fields (StepFields).
template <class Stencil, class ViewType, class FieldSet, int NS = 1, int NL = 1>
struct DeviceTilingFor;
template <class Stencil, class ViewType, class ConstView, class... Kinds, int NS, int NL>
struct DeviceTilingFor<Stencil, ViewType, FieldViews<ConstView, Kinds...>, NS, NL> {
  using type = DeviceTiling<Stencil, ViewType, NS, NL, Kinds...>;
};

}  // namespace Cuda
}  // namespace Impl
}  // namespace EbisuKokkos

#endif
