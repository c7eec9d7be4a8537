#ifndef EBISU_KOKKOS_IMPL_CUDA_EBISU_IN_PLACE_TILING_HPP
#define EBISU_KOKKOS_IMPL_CUDA_EBISU_IN_PLACE_TILING_HPP

// In-place tiling for 3-D domains of up to ~2 M cells (the on-chip regime of
// PERKS): ONE persistent cooperative launch runs every step, and ONE copy of
// the domain stays on chip for the whole call.
//
// A block owns a tile of P x 16C x 32 cells (slow, middle, fast), kept with
// its R-wide halo in shared memory; thread (warp, lane) updates the P cells
// of C middle-adjacent slow-axis columns (rows C warp .. C warp + C - 1, fast
// position lane), which it keeps in registers. Per step:
//   compute the columns' new values (slow-axis neighbours, and with C = 2 the
//     other column's, from the registers, every other offset from the shared tile)
//   store the cells within R of a tile face (what the neighbours read) to
//     the exchange buffer through L2
//   arrive at the grid barrier; write the new values into the shared tile
//     while the other blocks arrive (columns of 16 and 32 cells; those of 4
//     write first); wait
//   load the halo from the exchange buffer
// Read-only fields: each has a tile of its own after the state's, loaded once
// (a field read over the footprint: the whole tile with its halo, through the
// boundary rules; one read at the cell only: the owned cells), and never
// exchanged.
// One grid barrier per step and no redundant halo work: device tiling
// (ebisu_device_tiling.hpp) keeps two copies of a tile widened by depth x R
// cells, so it holds half as much (96^3 fp64 at depth 2, against 128^3 here on
// an H200: 132 blocks x 512 threads x 32 cells).
// Exchanges alternate between the two global buffers (scratch first, as u is
// still being read by blocks loading their first halo), so one grid barrier
// per step orders every store before the loads it feeds and every load before
// the next store to the same buffer; the last step writes every cell to the
// buffer the last exchange did not use.
// The tile's extents are compile-time constants, so every shared-memory and
// register index in the unrolled column is an immediate; the last tile along
// an axis may own fewer cells (its idle threads and cells are masked).
// Model and plan: performance_model_in_place_tiling (measured constants:
// docs/perf-notes-in-place-tiling.md).

#include <ebisu_kokkos/impl/axis_map.hpp>
#include <ebisu_kokkos/impl/boundary.hpp>
#include <ebisu_kokkos/impl/compat.hpp>
#include <ebisu_kokkos/impl/cuda/cuda_check.hpp>
#include <ebisu_kokkos/impl/cuda/device_helpers.hpp>
#include <ebisu_kokkos/impl/cuda/device_properties.hpp>
#include <ebisu_kokkos/impl/ebisu_backend_fwd.hpp>
#include <ebisu_kokkos/impl/fields.hpp>
#include <ebisu_kokkos/impl/performance_model_in_place_tiling.hpp>
#include <ebisu_kokkos/policy.hpp>

#include <Kokkos_Core.hpp>
#include <cooperative_groups.h>

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
namespace in_place_tiling {

constexpr int kThreads = KernelLimitsIPT::kThreads;
constexpr int kWarps = KernelLimitsIPT::kWarps;  // one per C rows of the tile's middle axis
constexpr int kFast = KernelLimitsIPT::kFast;    // tile cells along the fast axis (a warp's lanes)

// The stencil's footprint in kernel axes: the radius-wide shell a tile loads
// is its faces only for a star (no point off two axes at once), else the
// whole shell, edges and corners included.
template <class Points>
constexpr bool reads_diagonals() {
  for (int k = 0; k < Points::size; ++k) {
    int off_axes = 0;
    for (int a = 0; a < 3; ++a) off_axes += Points::offset(k, a) != 0 ? 1 : 0;
    if (off_axes >= 2) return true;
  }
  return false;
}
// Columns (middle, fast) other than a thread's own C that its cell updates
// read: shared-memory loads per C cells, as the unrolled columns reuse a
// column's value for all its slow offsets (the model's count).
template <class Points, class Map, int C>
constexpr int off_columns() {
  int seen[6 * 5] = {};
  int count = 0;
  for (int c = 0; c < C; ++c)
    for (int k = 0; k < Points::size; ++k) {
      const int im = Map::view_index(1), jf = Map::view_index(2);
      const int dm = c + (im < 0 ? 0 : Points::offset(k, im)), df = Points::offset(k, jf);
      if (dm >= 0 && dm < C && df == 0) continue;
      const int at = (dm + 2) * 5 + df + 2;
      if (!seen[at]) {
        seen[at] = 1;
        ++count;
      }
    }
  return count;
}

// The tile: P x 16C x kFast owned cells, widened by R on every side.
template <int R, int P, int C>
struct Tile {
  static constexpr int M = kWarps * C;  // owned rows along the middle axis
  static constexpr int L0 = P + 2 * R, L1 = M + 2 * R, L2 = kFast + 2 * R;
  static constexpr int pitch0 = L1 * L2, pitch1 = L2;
  static constexpr int cells = L0 * pitch0;
};

// The R-wide shell around the owned box as six slabs (slow low/high, middle
// low/high, fast low/high) of compile-time extents; `Diagonals` widens the
// slow slabs to whole planes and the middle slabs to whole rows (edges and
// corners). A slab's high side sits at R + own (the last tile along an axis
// may own fewer cells); its cells beyond own + 2R along another axis are not
// part of the tile and are skipped.
template <int R, int P, int C, bool Diagonals>
struct Shell {
  using T = Tile<R, P, C>;
  static constexpr int s_m = Diagonals ? T::L1 : T::M, s_f = Diagonals ? T::L2 : kFast;  // slow slab
  static constexpr int m_f = Diagonals ? T::L2 : kFast;                                 // middle slab
  static constexpr int lo_m = Diagonals ? 0 : R, lo_f = Diagonals ? 0 : R;
  static constexpr int n_s = R * s_m * s_f, n_m = P * R * m_f, n_f = P * T::M * R;
  static constexpr int cells = 2 * (n_s + n_m + n_f);
  static constexpr int per_thread = (cells + kThreads - 1) / kThreads;

  // Shell cell k as tile coordinates (divisions by constants).
  __device__ __forceinline__ static void cell(int k, const int (&own)[3], int (&c)[3]) {
    if (k < 2 * n_s) {
      const bool hi = k >= n_s;
      k -= hi ? n_s : 0;
      const int plane = k / (s_m * s_f), r = k - plane * (s_m * s_f);
      c[0] = hi ? R + own[0] + plane : plane;
      c[1] = lo_m + r / s_f;
      c[2] = lo_f + r % s_f;
      return;
    }
    k -= 2 * n_s;
    if (k < 2 * n_m) {
      const bool hi = k >= n_m;
      k -= hi ? n_m : 0;
      const int row = k / m_f;
      c[0] = R + row / R;
      c[1] = hi ? R + own[1] + row % R : row % R;
      c[2] = lo_f + k % m_f;
      return;
    }
    k -= 2 * n_m;
    const bool hi = k >= n_f;
    k -= hi ? n_f : 0;
    const int row = k / R;
    c[0] = R + row / T::M;
    c[1] = R + row % T::M;
    c[2] = hi ? R + own[2] + k % R : k % R;
  }
};

// The read-only fields' tiles after the state's, in the fields' order: a
// field read over the footprint has a whole tile (halo included), one read at
// the cell only the owned P x 16C x 32 cells (PlanIPT::field_cells).
template <int R, int P, int C, class... FieldKinds>
struct FieldTiles {
  static constexpr int count = static_cast<int>(sizeof...(FieldKinds));
  static constexpr int centre_count = (0 + ... + (FieldKinds::centre_only ? 1 : 0));
  static constexpr int neighbourhood_count = count - centre_count;
  static constexpr long own_cells = static_cast<long>(P) * Tile<R, P, C>::M * kFast;
  static constexpr long cells = PlanIPT::field_cells(R, P, C, neighbourhood_count, centre_count);
  static constexpr bool centre(int k) {
    const bool kinds[count + 1] = {FieldKinds::centre_only..., false};
    return kinds[k];
  }
  // Field k's tile, in cells after the state's tile.
  static constexpr long offset(int k) {
    long at = 0;
    for (int j = 0; j < k; ++j) at += centre(j) ? own_cells : Tile<R, P, C>::cells;
    return at;
  }
  // The answers as constants (device code calls no host functions).
  template <int K>
  static constexpr bool centre_v = centre(K);
  template <int K>
  static constexpr long offset_v = offset(K);
};

// The plan's counts as constants (device code calls no host functions).
template <int R, int P, int C, int ScalarBytes, bool Diagonals, long FieldCells>
struct PlanCounts {
  static constexpr long tile_cells = PlanIPT::tile_cells(R, P, C);
  static constexpr long shell_cells = PlanIPT::shell_cells(R, P, C, Diagonals);
  static constexpr bool listed = PlanIPT::lists_halo(R, P, C, ScalarBytes, Diagonals, FieldCells);
  static constexpr int listed_cells =
      static_cast<int>(PlanIPT::listed_cells(R, P, C, ScalarBytes, Diagonals, FieldCells));
};

// Where the read-only fields come from: global memory, element strides along
// the slow and middle kernel axes (fast: 1).
template <class Scalar, int NF>
struct FieldSources {
  const Scalar* data[NF > 0 ? NF : 1];
  int stride[NF > 0 ? NF : 1][2];
};

struct Geometry {
  int n[3];            // extents (kernel axes)
  int tiles[3];        // blocks along each axis
  int stride[2];       // element strides of u and scratch along the slow and middle kernel axes (fast: 1)
  // The cells standing in for the R <= 2 cells beyond each side of an axis
  // (periodic: the far side's, mirror: the reflected ones), or -1 beyond a
  // fixed side: a halo cell's source is a select, not the rule's loop, so
  // fixed, periodic and mirror sides share one kernel and its registers.
  int below[3][2];     // cells -1, -2
  int above[3][2];     // cells n, n + 1
  AxisRules rules[3];  // boundary rules (kernel axes): which cells the frame keeps
  int steps;

  __device__ __forceinline__ int source(int a, int x) const {
    return x < 0 ? below[a][x == -1 ? 0 : 1] : x >= n[a] ? above[a][x == n[a] ? 0 : 1] : x;
  }
};

// The neighbourhood of cell I of the thread's column J: the thread's columns
// from registers, every other offset (and the columns beyond their P cells)
// from the shared tile.
template <class Map, int R, int P, int C, int J, int I, class Scalar>
struct ColumnAccessor {
  const Scalar (&columns)[C][P];  // the columns' values before this step
  const Scalar* cell;             // the shared tile at this cell
  template <int D0, int D1, int D2>
  __device__ __forceinline__ Scalar get() const {
    constexpr int ds = Map::template ds<D0, D1, D2>;
    constexpr int dm = Map::template dm<D0, D1, D2>;
    constexpr int df = Map::template df<D0, D1, D2>;
    static_assert(ds >= -R && ds <= R && dm >= -R && dm <= R && df >= -R && df <= R,
                  "EbisuKokkos: offset beyond the stencil radius");
    if constexpr (df == 0 && J + dm >= 0 && J + dm < C && I + ds >= 0 && I + ds < P) {
      return columns[J + dm][I + ds];
    } else {
      return cell[ds * Tile<R, P, C>::pitch0 + dm * Tile<R, P, C>::pitch1 + df];
    }
  }
};

// A read-only field's neighbourhood of the cell: from its tile (cell points
// at the cell in it), every offset within the radius for a field read over
// the footprint, the cell itself for one read at the cell only.
template <class Map, int R, int P, int C, bool Centre, class Scalar>
struct FieldTileAccessor {
  const Scalar* cell;
  template <int D0, int D1, int D2>
  __device__ __forceinline__ Scalar get() const {
    if constexpr (Centre) {
      static_assert(D0 == 0 && D1 == 0 && D2 == 0, "EbisuKokkos: a centre_only field is read at the cell only");
      return *cell;
    } else {
      return cell[Map::template ds<D0, D1, D2> * Tile<R, P, C>::pitch0 +
                  Map::template dm<D0, D1, D2> * Tile<R, P, C>::pitch1 + Map::template df<D0, D1, D2>];
    }
  }
};

// A value the compiler must treat as unknown at each use: without it, nvcc
// hoists per-cell addresses, halo offsets and predicates out of the step loop
// and keeps them live across steps, and the P-cell column spills (the 128^3
// probe: 36-232 B of local memory per thread, 2026-11-29).
template <class T>
__device__ __forceinline__ T opaque(T v) {
  if constexpr (sizeof(T) == 8) {
    long long r;
    asm volatile("mov.b64 %0, %1;" : "=l"(r) : "l"(static_cast<long long>(v)));
    return static_cast<T>(r);
  } else {
    int r;
    asm volatile("mov.b32 %0, %1;" : "=r"(r) : "r"(static_cast<int>(v)));
    return static_cast<T>(r);
  }
}

// The grid barrier in two halves (CUDA 12+: arrival is a block barrier and
// one release, so a block works on while the others arrive); older toolkits
// wait for the whole grid at arrival.
struct SplitGridBarrier {
  cooperative_groups::grid_group grid;
#if defined(__CUDACC_VER_MAJOR__) && __CUDACC_VER_MAJOR__ >= 12
  cooperative_groups::grid_group::arrival_token token{};
  __device__ __forceinline__ void arrive() { token = grid.barrier_arrive(); }
  __device__ __forceinline__ void wait() { grid.barrier_wait(std::move(token)); }
#else
  __device__ __forceinline__ void arrive() { grid.sync(); }
  __device__ __forceinline__ void wait() {}
#endif
};

// eval(the state's accessor, one accessor per read-only field).
template <class Map, int R, int P, int C, class Fields, class Eval, class Accessor, class Scalar, int... K>
__device__ __forceinline__ auto evaluate(const Eval& eval, const Accessor& at, const Scalar* field_tiles, int tile_at,
                                         int own_at, std::integer_sequence<int, K...>) {
  return eval(at, FieldTileAccessor<Map, R, P, C, Fields::template centre_v<K>, Scalar>{
                      field_tiles + Fields::template offset_v<K> +
                      (Fields::template centre_v<K> ? own_at : tile_at)}...);
}

template <class Map, int R, int P, int C, bool Diagonals, bool KeepsColumn, class Eval, class Scalar, class... FieldKinds>
__global__ void __launch_bounds__(kThreads, 1)
    in_place_tiling_kernel(const Eval eval, Scalar* const u, Scalar* const scratch, const Geometry g,
                           const FieldSources<Scalar, static_cast<int>(sizeof...(FieldKinds))> fields) {
  using T = Tile<R, P, C>;
  using S = Shell<R, P, C, Diagonals>;
  using Fields = FieldTiles<R, P, C, FieldKinds...>;
  constexpr int NF = Fields::count;
  using Counts = PlanCounts<R, P, C, sizeof(Scalar), Diagonals, Fields::cells>;
  static_assert(S::cells == Counts::shell_cells && T::cells == Counts::tile_cells,
                "EbisuKokkos: the in-place kernel and its plan count the tile differently");
  static_assert(P <= 32 && C >= 1 && C <= 2, "EbisuKokkos: a column's cells are bits of one word");
  extern __shared__ __align__(16) unsigned char in_place_tiling_smem[];
  Scalar* const tile = reinterpret_cast<Scalar*>(in_place_tiling_smem);
  SplitGridBarrier grid_barrier{cooperative_groups::this_grid()};

  int b = blockIdx.x;
  const int tf = b % g.tiles[2];
  b /= g.tiles[2];
  const int tm = b % g.tiles[1];
  const int ts = b / g.tiles[1];
  const int org[3] = {ts * P, tm * T::M, tf * kFast};  // global coordinates of the first owned cell
  const int own[3] = {min(P, g.n[0] - org[0]), min(T::M, g.n[1] - org[1]), min(kFast, g.n[2] - org[2])};
  const int x = threadIdx.x % kFast, y0 = threadIdx.x / kFast * C;  // the thread's first row
  const int gf = org[2] + x;
  const int column_offset = org[0] * g.stride[0] + (org[1] + y0) * g.stride[1] + gf;
  Scalar* const mine = tile + R * T::pitch0 + (y0 + R) * T::pitch1 + (x + R);

  // Bit i of `owned_cells[j]`: cell i of column j is the block's; of
  // `updated`: it is also outside the fixed frame; of `face_cells`: it is also
  // within R of a tile face (the neighbours read it). Threads and cells beyond
  // a short last tile own nothing and never write the shared tile: its halo
  // sits there.
  unsigned owned_cells[C] = {}, updated[C] = {}, face_cells[C] = {};
#pragma unroll
  for (int j = 0; j < C; ++j) {
    const int y = y0 + j;
    const bool active = y < own[1] && x < own[2];
    const bool side = y < R || y >= own[1] - R || x < R || x >= own[2] - R;
#pragma unroll
    for (int i = 0; i < P; ++i) {
      if (!active || i >= own[0]) continue;
      owned_cells[j] |= 1u << i;
      if (!g.rules[0].frame(org[0] + i) && !g.rules[1].frame(org[1] + y) && !g.rules[2].frame(gf))
        updated[j] |= 1u << i;
      if (side || i < R || i >= own[0] - R) face_cells[j] |= 1u << i;
    }
  }

  // Shell cell k: its tile index and the offset of the cell standing at it in
  // a global buffer, or -1 where none is loaded (beyond a fixed side, or
  // beyond a short tile).
  auto shell_cell = [&](int k, int& at, int& from) {
    int c[3];
    S::cell(k, own, c);
    const int gs = g.source(0, org[0] - R + c[0]), gmm = g.source(1, org[1] - R + c[1]),
              gff = g.source(2, org[2] - R + c[2]);
    const bool in_tile = c[0] < own[0] + 2 * R && c[1] < own[1] + 2 * R && c[2] < own[2] + 2 * R;
    const bool loaded = in_tile && gs >= 0 && gmm >= 0 && gff >= 0;
    at = loaded ? (c[0] * T::L1 + c[1]) * T::L2 + c[2] : -1;
    from = loaded ? gs * g.stride[0] + gmm * g.stride[1] + gff : -1;
  };
  // The shell's pairs are listed once in the shared memory after the tile,
  // all of them where they fit (PlanIPT::lists_halo), else the first
  // `kListed` (PlanIPT::listed_cells), and each exchange loads listed cells by
  // list instead of decoding them again. A kernel with the whole list has no
  // decoding path (with both, the registers of the unused one spilled the
  // column); one with part of it decodes the rest.
  constexpr bool listed = Counts::listed;
  constexpr int kListed = Counts::listed_cells;
  Scalar* const field_tiles = tile + T::cells;
  int* const list_at = reinterpret_cast<int*>(field_tiles + Fields::cells);
  int* const list_from = list_at + kListed;
  if constexpr (kListed > 0) {
    for (int k = threadIdx.x; k < kListed; k += kThreads) shell_cell(k, list_at[k], list_from[k]);
    __syncthreads();
  }

  // The halo from `src`: every thread's shell cells, all loads in flight before their stores.
  auto load_halo = [&](const Scalar* src) {
    const int first = opaque(static_cast<int>(threadIdx.x));
    Scalar v[S::per_thread];
    int at[S::per_thread];
#pragma unroll
    for (int j = 0; j < S::per_thread; ++j) {
      const int k = first + j * kThreads;
      at[j] = -1;
      if (k < S::cells) {
        int from;
        if constexpr (listed) {
          at[j] = list_at[k];
          from = list_from[k];
        } else {
          // Constants once unrolled: whether all, none or some of round j's cells are listed.
          const bool all_listed = (j + 1) * kThreads <= kListed, none_listed = j * kThreads >= kListed;
          if (all_listed || (!none_listed && k < kListed)) {
            at[j] = list_at[k];
            from = list_from[k];
          } else {
            shell_cell(k, at[j], from);
          }
        }
        if (at[j] >= 0) v[j] = __ldcg(src + from);
      }
    }
#pragma unroll
    for (int j = 0; j < S::per_thread; ++j)
      if (at[j] >= 0) tile[at[j]] = v[j];
  };

  // The read-only fields, once: a footprint field's whole tile (beyond a
  // fixed side and beyond a short tile: zeros, never read for a kept cell),
  // a centre-only field's owned cells.
  if constexpr (NF > 0) {
    static_for<NF>([&](auto K) {
      constexpr int k = decltype(K)::value;
      Scalar* const to = field_tiles + Fields::template offset_v<k>;
      const Scalar* const from = fields.data[k];
      const int s0 = fields.stride[k][0], s1 = fields.stride[k][1];
      if constexpr (Fields::template centre_v<k>) {
        for (int e = threadIdx.x; e < Fields::own_cells; e += kThreads) {
          const int c0 = e / (T::M * kFast), r = e - c0 * (T::M * kFast), c1 = r / kFast, c2 = r - c1 * kFast;
          const bool in = c0 < own[0] && c1 < own[1] && c2 < own[2];
          to[e] = in ? from[(org[0] + c0) * s0 + (org[1] + c1) * s1 + org[2] + c2] : Scalar(0);
        }
      } else {
        for (int e = threadIdx.x; e < T::cells; e += kThreads) {
          const int c0 = e / T::pitch0, r = e - c0 * T::pitch0, c1 = r / T::pitch1, c2 = r - c1 * T::pitch1;
          const int gs = g.source(0, org[0] - R + c0), gm = g.source(1, org[1] - R + c1),
                    gff = g.source(2, org[2] - R + c2);
          const bool in = c0 < own[0] + 2 * R && c1 < own[1] + 2 * R && c2 < own[2] + 2 * R && gs >= 0 && gm >= 0 &&
                          gff >= 0;
          to[e] = in ? from[gs * s0 + gm * s1 + gff] : Scalar(0);
        }
      }
    });
  }
  // The thread's cell 0 in a footprint field's tile and in a centre-only field's.
  const int tile_at = static_cast<int>(mine - tile), own_at = y0 * kFast + x;

  // Where they fit (PlanIPT::keeps_column), the columns stay in registers from
  // one step to the next (one shared load per cell less), and only a short
  // tile's halo, which sits in a column's range beyond its last owned cell
  // (or in a whole column beyond the last owned row), is read from the tile.
  // Otherwise the columns are read from the tile each step, so that they are
  // dead during the halo load (kept live, they spilled 84-148 B per thread for
  // j3d13pt and j3d27pt at 32 cells).
  Scalar column[C][P];
#pragma unroll
  for (int j = 0; j < C; ++j)
#pragma unroll
    for (int i = 0; i < P; ++i) {
      column[j][i] = Scalar(0);
      if ((owned_cells[j] >> i) & 1u) {
        column[j][i] = u[column_offset + j * g.stride[1] + i * g.stride[0]];
        mine[j * T::pitch1 + i * T::pitch0] = column[j][i];
      }
    }
  load_halo(u);

  for (int t = 0; t < g.steps; ++t) {
    __syncthreads();
#pragma unroll
    for (int j = 0; j < C; ++j) {
      const unsigned owned_now = opaque(owned_cells[j]);
#pragma unroll
      for (int i = 0; i < P; ++i)
        if (!KeepsColumn || !((owned_now >> i) & 1u)) column[j][i] = mine[j * T::pitch1 + i * T::pitch0];
    }
    // Level by level across the columns: a column's value at level i is dead
    // once level i + R of every column is computed, so the new values take
    // its registers (column by column, the first column stayed live while the
    // second was computed, and 16 x 2 fp64 cells spilled ~100 B).
    Scalar next[C][P];
    unsigned update[C];
#pragma unroll
    for (int j = 0; j < C; ++j) update[j] = opaque(updated[j]);
    static_for<P>([&](auto I) {
      constexpr int i = decltype(I)::value;
      static_for<C>([&](auto J) {
        constexpr int j = decltype(J)::value;
        const ColumnAccessor<Map, R, P, C, j, i, Scalar> at{column, mine + j * T::pitch1 + i * T::pitch0};
        const Scalar v = static_cast<Scalar>(component(
            evaluate<Map, R, P, C, Fields>(eval, at, field_tiles, tile_at + j * T::pitch1 + i * T::pitch0,
                                           own_at + j * kFast + i * T::M * kFast, std::make_integer_sequence<int, NF>{}),
            0));
        next[j][i] = (update[j] >> i) & 1u ? v : column[j][i];
      });
    });
    Scalar* const out = (t & 1) == 0 ? scratch : u;
    const int at = opaque(column_offset), step0 = opaque(g.stride[0]), step1 = g.stride[1];
    if (t == g.steps - 1) {
      // The result: every owned cell, into the buffer the last exchange did not use.
#pragma unroll
      for (int j = 0; j < C; ++j) {
        const unsigned owned = opaque(owned_cells[j]);
#pragma unroll
        for (int i = 0; i < P; ++i)
          if ((owned >> i) & 1u) __stcg(out + at + j * step1 + i * step0, next[j][i]);
      }
      break;
    }
#pragma unroll
    for (int j = 0; j < C; ++j) {
      const unsigned faces = opaque(face_cells[j]);
#pragma unroll
      for (int i = 0; i < P; ++i)
        if ((faces >> i) & 1u) __stcg(out + at + j * step1 + i * step0, next[j][i]);
    }
    // Columns of 16 or 32 cells write the tile while the other blocks arrive
    // (the arrival's block barrier orders every read of this step's tile
    // before the writes): j3d7pt 128^3 268 -> 280 GCells/s. With 4 cells
    // that order was 6% slower (64^3, H200, 2026-11-29), so they arrive after
    // writing.
    constexpr bool write_while_arriving = P >= 16;
    if (write_while_arriving) grid_barrier.arrive(); else __syncthreads();
#pragma unroll
    for (int j = 0; j < C; ++j) {
      const unsigned owned = opaque(owned_cells[j]);
#pragma unroll
      for (int i = 0; i < P; ++i) {
        column[j][i] = next[j][i];
        if ((owned >> i) & 1u) mine[j * T::pitch1 + i * T::pitch0] = next[j][i];
      }
    }
    if (!write_while_arriving) grid_barrier.arrive();
    grid_barrier.wait();
    load_halo(out);
  }
}

}  // namespace in_place_tiling

/// The in-place tiling strategy for one (stencil, View type, kinds of the
/// read-only fields): 3-D, one state field; its plan and its run.
template <class Stencil, class ViewType, class... FieldKinds>
struct InPlaceTiling {
  using Scalar = typename ViewType::non_const_value_type;
  static constexpr int rank = view_rank<ViewType>;
  static constexpr bool right = std::is_same_v<typename ViewType::array_layout, Kokkos::LayoutRight>;
  using Map = AxisMap<rank, right>;
  using Eval = decltype(std::declval<const Stencil&>().template bind<Scalar, FieldKinds...>());
  static constexpr int R = Stencil::radius;
  static constexpr bool kDiagonals = in_place_tiling::reads_diagonals<typename Stencil::points>();
  static constexpr int kPoints = Stencil::points::size;
  static constexpr int NF = static_cast<int>(sizeof...(FieldKinds));
  template <int P, int C>
  using Fields = in_place_tiling::FieldTiles<R, P, C, FieldKinds...>;

  // The compiled kernels, (P, C): columns of P cells, C per thread. Pairs
  // of 16-cell columns replace 32-cell columns where the model finds them
  // faster (j3d7pt 128^3: 4 shared accesses per cell instead of 5, +6-9% on an
  // H200). They are compiled for stars only: a box-like stencil reads the
  // pair's diagonal neighbours too, and its kernels spilled at 128 registers
  // (poisson 40-68 B, j3d17pt 64 B, j3d27pt 120-250 B per thread, CUDA 13)
  // and ran 8-10% slower. Pairs of 8-cell columns ran 3-5% slower than single
  // 16-cell columns at 80^3-96^3 (more halo, more column ends) and are not built.
  // With read-only fields in fp64, the tiles of 32 x 16 and 16 x 32 cells
  // leave no room for a field's tile (2 x 166 KB): the kernels of 4 and 16
  // cells only. In fp32 one field's tile fits beside them (2 x 83 KB).
  static constexpr int kShapeCount = NF > 0 && sizeof(Scalar) > 4 ? 2 : kDiagonals ? 3 : 4;
  static constexpr int kShapes[4][2] = {{4, 1}, {16, 1}, {32, 1}, {16, 2}};

  template <int P, int C>
  static auto function() {
    constexpr bool keeps = PlanIPT::keeps_column(R, P, C, static_cast<int>(sizeof(Scalar)), kDiagonals, kPoints,
                                                 Fields<P, C>::cells);
    return &in_place_tiling::in_place_tiling_kernel<Map, R, P, C, kDiagonals, keeps, Eval, Scalar, FieldKinds...>;
  }
  template <std::size_t... S>
  static const void* function_of(int p, int c, std::index_sequence<S...>) {
    const void* f = nullptr;
    ((f = kShapes[S][0] == p && kShapes[S][1] == c ? reinterpret_cast<const void*>(function<kShapes[S][0], kShapes[S][1]>())
                                                    : f),
     ...);
    return f;
  }
  static const void* function_of(int p, int c) {
    return function_of(p, c, std::make_index_sequence<kShapeCount>{});
  }

  // The model's plan over the compiled kernels (registers, co-residency);
  // cached per problem for the process.
  static PlanIPT plan(const StencilPolicy<Kokkos::Cuda>& policy, const ViewType& u) {
    long n[3];
    kernel_extents<Map>(u, n);
    const int device = policy.space().cuda_device();
    using Key = std::tuple<int, long, long, long, int>;
    static std::mutex mutex;
    static std::map<Key, PlanIPT> cache;
    const Key key{device, n[0], n[1], n[2], policy.steps()};
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto it = cache.find(key);
      if (it != cache.end()) return it->second;
    }
    PlanIPT p;
    if constexpr (rank != 3) {
      p.why_not = "in-place tiling is 3-D only";
    } else {
      const DeviceModel& dev = device_model(device);
      StencilShapeIPT shape;
      shape.radius = R;
      shape.scalar_bytes = static_cast<int>(sizeof(Scalar));
      shape.off_columns = in_place_tiling::off_columns<typename Stencil::points, Map, 1>();
      shape.off_columns_of_pair = in_place_tiling::off_columns<typename Stencil::points, Map, 2>();
      shape.diagonals = kDiagonals;
      shape.points = kPoints;
      // A footprint field is read over the stencil's points (what the functor does not read, the compiler drops).
      shape.centre_fields = (0 + ... + (FieldKinds::centre_only ? 1 : 0));
      shape.neighbourhood_fields = NF - shape.centre_fields;
      shape.field_reads = shape.centre_fields + static_cast<double>(shape.neighbourhood_fields) * kPoints;
      std::vector<KernelLimitsIPT> kernels;
      for (int kernel = 0; kernel < kShapeCount; ++kernel) {
        const int(&pc)[2] = kShapes[kernel];
        KernelLimitsIPT k;
        k.cells_per_thread = pc[0];
        k.columns_per_thread = pc[1];
        const long fields = PlanIPT::field_cells(R, pc[0], pc[1], shape.neighbourhood_fields, shape.centre_fields);
        const long smem =
            PlanIPT::shared_bytes(R, pc[0], pc[1], static_cast<int>(sizeof(Scalar)), kDiagonals, fields);
        const void* f = function_of(pc[0], pc[1]);
        cudaFuncAttributes attr{};
        EBISU_CUDA_CHECK(cudaFuncGetAttributes(&attr, f), "in_place_tiling_kernel");
        k.local_bytes = static_cast<int>(attr.localSizeBytes);
        if (smem <= dev.smem_per_block_bytes) {
          EBISU_CUDA_CHECK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)),
                           "in_place_tiling_kernel");
          int per_sm = 0;
          EBISU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, in_place_tiling::kThreads,
                                                                         static_cast<std::size_t>(smem)),
                           "in_place_tiling_kernel");
          k.max_blocks = per_sm * dev.sm_count;
        }
        kernels.push_back(k);
      }
      p = choose_plan_in_place_tiling(dev, shape, n, policy.steps(), kernels);
      if (p.valid) {
        // 32-bit tile coordinates and element offsets of a cell that fits on chip; strided
        // subviews whose offsets would not fit are left to the other strategies.
        const long last = (n[0] - 1) * static_cast<long>(u.stride(Map::view_index(0))) +
                          (n[1] - 1) * static_cast<long>(u.stride(Map::view_index(1))) + n[2];
        if (last >= std::numeric_limits<int>::max()) {
          p.valid = false;
          p.why_not = "element offsets beyond 32 bits";
        }
      }
    }
    std::lock_guard<std::mutex> lock(mutex);
    cache.emplace(key, p);
    return p;
  }

  /// One field on (u, scratch); fields: FieldViews of FieldKinds (NoFields
  /// when there are none). The outcome says which of the two holds step T.
  template <class FieldSet = NoFields>
  static StencilOutcome run(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                            const Stencil& stencil, const ViewType& u, const ViewType& scratch, const PlanIPT& p,
                            const FieldSet& fields = FieldSet{}) {
    static_assert(FieldSet::size == NF, "EbisuKokkos: InPlaceTiling run with another set of fields than planned");
    StencilOutcome outcome;
    StencilReport& report = outcome.report;
    report.backend = Backend::ebisu;
    report.strategy = Strategy::in_place_tiling;
    report.temporal_depth = 1;
    report.launches = 1;
    report.predicted_gcells_per_s = p.predicted_gcells_per_s;
    report.plan = p.describe();
    const void* f = function_of(p.cells_per_thread, p.columns_per_thread);
    cudaFuncAttributes attr{};
    EBISU_CUDA_CHECK(cudaFuncGetAttributes(&attr, f), "in_place_tiling_kernel");
    report.plan += "; regs/thread " + std::to_string(attr.numRegs) +
                   (attr.localSizeBytes > 0 ? ", local memory " + std::to_string(attr.localSizeBytes) + " B" : "");
    if (policy.knobs().threads > 0 || policy.knobs().tile_width > 0 || policy.knobs().temporal_depth > 1) {
      report.plan += "; threads / tile-width / depth knobs ignored (in-place tiling runs one step per "
                     "grid barrier on fixed tiles)";
    }
    outcome.result_in_scratch = policy.steps() % 2 == 1;
    if (policy.steps() == 0) return outcome;

    in_place_tiling::Geometry g{};
    long n[3];
    kernel_extents<Map>(u, n);
    for (int a = 0; a < 3; ++a) {
      g.n[a] = static_cast<int>(n[a]);
      g.tiles[a] = p.tiles[a];
      const AxisRules rules = axis_rules(u, policy.boundaries(), Map::view_index(a), R);
      g.rules[a] = rules;
      for (int k = 0; k < 2; ++k) {
        g.below[a][k] = rules.loadable(-1 - k) ? rules.source(-1 - k) : -1;
        g.above[a][k] = rules.loadable(g.n[a] + k) ? rules.source(g.n[a] + k) : -1;
      }
    }
    for (int a = 0; a < 2; ++a) g.stride[a] = static_cast<int>(u.stride(Map::view_index(a)));
    g.steps = policy.steps();

    in_place_tiling::FieldSources<Scalar, NF> sources{};
    if constexpr (NF > 0) {
      for (int k = 0; k < NF; ++k) {
        sources.data[k] = fields.views[k].data();
        for (int a = 0; a < 2; ++a) sources.stride[k][a] = static_cast<int>(fields.views[k].stride(Map::view_index(a)));
      }
      report.plan += "; " + std::to_string(NF) + " read-only field tile(s) in shared memory";
    }

    const Eval eval = stencil.template bind<Scalar, FieldKinds...>();
    Scalar* u_data = u.data();
    Scalar* scratch_data = scratch.data();
    void* args[] = {const_cast<Eval*>(&eval), &u_data, &scratch_data, &g, &sources};
    Kokkos::Profiling::pushRegion("EbisuKokkos::in_place_tiling::" + label);
    EBISU_CUDA_CHECK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(p.smem_bytes)),
                     "in_place_tiling_kernel");
    EBISU_CUDA_CHECK(cudaLaunchCooperativeKernel(f, dim3(p.blocks), dim3(in_place_tiling::kThreads), args,
                                                 static_cast<std::size_t>(p.smem_bytes),
                                                 policy.space().cuda_stream()),
                     "in_place_tiling_kernel (cooperative launch)");
    Kokkos::Profiling::popRegion();
    return outcome;
  }
};

/// InPlaceTiling for the field kinds of a FieldViews (NoFields: none).
template <class Stencil, class ViewType, class FieldSet>
struct InPlaceTilingFor;
template <class Stencil, class ViewType, class ConstView, class... Kinds>
struct InPlaceTilingFor<Stencil, ViewType, FieldViews<ConstView, Kinds...>> {
  using type = InPlaceTiling<Stencil, ViewType, Kinds...>;
};

}  // namespace Cuda
}  // namespace Impl
}  // namespace EbisuKokkos

#endif
