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
// centre column in a register window, the other offsets from shared memory.
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

// Shared-memory accesses per cell update: the offsets off the thread's own
// column, the new centre-column value and the staged store.
template <class Stencil, class Map>
constexpr double smem_accesses_per_cell() {
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

struct Geometry {
  int n[3];          // global extents (kernel axes)
  long u_stride[2];  // element strides of u along the slow and middle axes (fast: 1)
  long x_stride[2];  // the same for scratch
  int own[3];        // owned cells per block along each axis
  int tiles[3];      // blocks along each axis
  int local[3];      // own + 2 halo
  int halo[3];       // depth * radius (0 along the middle axis in 2-D)
  int depth;         // steps between exchanges
  int steps;
  int chunk_len;     // slow-axis cells per run (a thread's work item is one run of one column)
  AxisRules rules[3];     // boundary rules (kernel axes; 2-D: the middle axis is one fixed-free cell)
  bool mapped;            // some side is periodic or mirror (loads go through the rules)
  // u and scratch have the same strides and every element offset fits in an
  // int: each thread keeps the source offsets of its first halo cells in
  // registers for the whole run (no index arithmetic per exchange).
  bool cache_halo;
};

// The neighbourhood of cell (s, m, f) of the shared tile: the centre column
// from the thread's register window, everything else from shared memory.
template <class Map, int R, class Scalar>
struct TileAccessor {
  const Scalar* w;  // the register window, from row s - R (constant offsets only: it stays in registers)
  const Scalar* cell;
  int pitch_s, pitch_m;

  template <int D0, int D1, int D2>
  __device__ __forceinline__ Scalar get() const {
    constexpr int ds = Map::template ds<D0, D1, D2>;
    constexpr int dm = Map::template dm<D0, D1, D2>;
    constexpr int df = Map::template df<D0, D1, D2>;
    static_assert(ds >= -R && ds <= R, "EbisuKokkos: offset beyond the stencil radius");
    if constexpr (dm == 0 && df == 0) {
      return w[R + ds];
    } else {
      return cell[ds * pitch_s + dm * pitch_m + df];
    }
  }
};

// A read-only field's neighbourhood of the same cell, from its shared tile.
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

// eval(state, field 0, ..., field NF-1) at tile offset `at_cell`.
template <class Map, class Eval, class Accessor, class Scalar, std::size_t... K>
__device__ __forceinline__ Scalar evaluate(const Eval& eval, const Accessor& at, const Scalar* field_tiles,
                                           int tile_cells, int at_cell, int pitch_s, int pitch_m,
                                           std::index_sequence<K...>) {
  return eval(at, FieldTileAccessor<Map, Scalar>{field_tiles + static_cast<int>(K) * tile_cells + at_cell, pitch_s,
                                                 pitch_m}...);
}

// One thread's run [s0, s1) of one column of the tile: the centre column in
// a register window, the rest from shared memory. Cells go in groups of G:
// every load of a group is issued before its stores. (One cell at a time, a
// cell's loads wait for the previous cell's store: the two copies of the tile
// share one allocation, so the compiler cannot move a load above a store,
// and each cell paid a whole shared-memory and FMA latency chain.)
// (A second instantiation for runs with no frame cell, without the per-cell
// test, was 25% slower: the step's code no longer fit the instruction cache.)
template <class Map, int R, int NF, class Eval, class Scalar>
__device__ __forceinline__ void compute_run(const Eval& eval, const Scalar* col, Scalar* dst, const Scalar* field_col,
                                            int tile_cells, int ps, int Lf, int s0, int s1, bool column_interior,
                                            const AxisRules& slow_rules, int slow_origin) {
  auto updated = [&](int s, Scalar v, Scalar old) {
    return column_interior && !slow_rules.frame(slow_origin + s) ? v : old;
  };
  constexpr int W = 2 * R + 1;
  // (Radius 2: the 25-point box needs its registers. In 3-D, groups of 2
  // were 4% slower than 4, which spills 72 B for poisson.)
  constexpr int G = R == 1 ? 4 : 2;
  Scalar w[W - 1 + G];               // rows s - R .. s + G - 1 + R of the centre column
#pragma unroll
  for (int d = 0; d < W - 1; ++d) w[d] = col[(s0 - R + d) * ps];
  int s = s0;
  for (; s + G <= s1; s += G) {
#pragma unroll
    for (int g = 0; g < G; ++g) w[W - 1 + g] = col[(s + R + g) * ps];
    Scalar v[G];
#pragma unroll
    for (int g = 0; g < G; ++g) {
      const TileAccessor<Map, R, Scalar> at{w + g, col + (s + g) * ps, ps, Lf};
      v[g] = evaluate<Map>(eval, at, field_col, tile_cells, (s + g) * ps, ps, Lf, std::make_index_sequence<NF>{});
    }
#pragma unroll
    for (int g = 0; g < G; ++g)
      dst[(s + g) * ps] = updated(s + g, v[g], w[R + g]);
#pragma unroll
    for (int d = 0; d < W - 1; ++d) w[d] = w[G + d];
  }
  for (; s < s1; ++s) {
    w[W - 1] = col[(s + R) * ps];
    const TileAccessor<Map, R, Scalar> at{w, col + s * ps, ps, Lf};
    const Scalar v = evaluate<Map>(eval, at, field_col, tile_cells, s * ps, ps, Lf, std::make_index_sequence<NF>{});
    dst[s * ps] = updated(s, v, w[R]);
#pragma unroll
    for (int d = 0; d < W - 1; ++d) w[d] = w[d + 1];
  }
}

template <class Map, int R, class Eval, class Scalar, int NF>
__global__ void __launch_bounds__(kMaxThreads, 1)
    device_tiling_kernel(const Eval eval, Scalar* __restrict__ u, Scalar* __restrict__ x,
                         const FieldSources<Scalar, NF> fields, const Geometry g) {
  constexpr bool has_mid = Map::rank == 3;
  extern __shared__ __align__(16) unsigned char device_tiling_smem[];
  Scalar* const tiles_smem = reinterpret_cast<Scalar*>(device_tiling_smem);
  const int tile_cells = g.local[0] * g.local[1] * g.local[2];
  Scalar* tile = tiles_smem;  // the copy that holds the current time level
  Scalar* const field_tiles = tiles_smem + 2 * tile_cells;  // one tile per read-only field
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
  // second copy too, so that the cells no step writes (the outer radius ring)
  // hold finite values in either copy.
  constexpr int kLoadsInFlight = 8;
  auto load = [&](int first, int count, auto&& cell_of, const Scalar* src, const long (&stride)[2], Scalar* to,
                  Scalar* also) {
    for (int base = first + t; base < count; base += kLoadsInFlight * blockDim.x) {
      Scalar v[kLoadsInFlight];
      int at[kLoadsInFlight];
#pragma unroll
      for (int k = 0; k < kLoadsInFlight; ++k) {
        const int i = base + k * blockDim.x;
        int c[3] = {0, 0, 0};
        at[k] = i < count ? cell_of(i, c) : -1;
        const long from = at[k] >= 0 ? source_offset(c, stride) : -1L;
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
  // The halo only (the tile minus its owned box), as six slabs: the slow-axis
  // slabs on either side, then the middle-axis slabs of the owned slow range,
  // then the fast-axis slabs of the owned rows.
  // (Indexed only by unrolled constants, so that the slab table stays in
  // registers: a dynamically indexed array would live in local memory.)
  const int L[3] = {Ls, Lm, Lf};
  int ob[3], oe[3];
#pragma unroll
  for (int a = 0; a < 3; ++a) {
    ob[a] = g.halo[a];
    oe[a] = g.halo[a] + own_len[a];
  }
  auto slab = [&](int k, int (&lo)[3], int (&len)[3]) {
    const int axis = k >> 1;
    const bool high = (k & 1) != 0;
#pragma unroll
    for (int a = 0; a < 3; ++a) {
      lo[a] = a < axis ? ob[a] : a > axis ? 0 : high ? oe[a] : 0;
      len[a] = a < axis ? own_len[a] : a > axis ? L[a] : high ? L[a] - oe[a] : ob[a];
    }
  };
  int slab_cells[6];
  int halo_cells = 0;
#pragma unroll
  for (int k = 0; k < 6; ++k) {
    int lo[3], len[3];
    slab(k, lo, len);
    slab_cells[k] = len[0] * len[1] * len[2];
    halo_cells += slab_cells[k];
  }
  auto halo_only = [&](int i, int (&c)[3]) {
    int k = 0;
#pragma unroll
    for (int q = 0; q < 5; ++q) {
      if (k == q && i >= slab_cells[q]) {
        i -= slab_cells[q];
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
    return (c[0] * Lm + c[1]) * Lf + c[2];
  };
  // Each thread's first kCachedHalo halo cells (tile index, source offset)
  // stay in registers for the whole run: an exchange then only loads and
  // stores them (the slab arithmetic above cost ~200 instructions per cell
  // and exchange). Cells beyond kCachedHalo per thread take the slab path.
  constexpr int kCachedHalo = 8;
  int halo_at[kCachedHalo], halo_from[kCachedHalo];
#pragma unroll
  for (int k = 0; k < kCachedHalo; ++k) {
    const int i = t + k * blockDim.x;
    int c[3] = {0, 0, 0};
    halo_at[k] = g.cache_halo && i < halo_cells ? halo_only(i, c) : -1;
    halo_from[k] = halo_at[k] >= 0 ? static_cast<int>(source_offset(c, g.u_stride)) : -1;
  }
  const int uncached_from = g.cache_halo ? kCachedHalo * blockDim.x : 0;
  auto load_halo = [&](const Scalar* src, const long (&stride)[2]) {
    Scalar v[kCachedHalo];
#pragma unroll
    for (int k = 0; k < kCachedHalo; ++k) v[k] = halo_from[k] >= 0 ? __ldcg(src + halo_from[k]) : Scalar(0);
#pragma unroll
    for (int k = 0; k < kCachedHalo; ++k)
      if (halo_at[k] >= 0) tile[halo_at[k]] = v[k];
    load(uncached_from, halo_cells, halo_only, src, stride, tile, nullptr);
  };

  // Owned rows; shell_only: only cells within the halo width of a face (what
  // the neighbours read).
  auto store = [&](Scalar* dst, const long (&stride)[2], bool shell_only) {
    const int rows = own_len[0] * own_len[1];
    for (int row = warp; row < rows; row += nwarps) {
      const int so = row / own_len[1], mo = row - so * own_len[1];
      const int s = g.halo[0] + so, mm = g.halo[1] + mo;
      Scalar* grow = dst + (org[0] + s) * stride[0] + (org[1] + mm) * stride[1] + own0[2];
      const Scalar* trow = tile + (s * Lm + mm) * Lf + g.halo[2];
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
  {
    const int cols_f = Lf - 2 * R;
    const int pencils = cols_f * (Lm - 2 * Rm);
    const int items = pencils * ((Ls - 2 * R + g.chunk_len - 1) / g.chunk_len);
#pragma unroll
    for (int k = 0; k < kMaxRunsPerThread; ++k) {
      const int item = t + k * blockDim.x;
      const int pencil = item % pencils, chunk = item / pencils;
      run_f[k] = item < items ? R + pencil % cols_f : -1;
      run_m[k] = Rm + pencil / cols_f;
      run_s[k] = R + chunk * g.chunk_len;
      if (!g.rules[2].frame(org[2] + run_f[k]) && !g.rules[1].frame(org[1] + run_m[k])) run_interior |= 1u << k;
    }
  }
  auto step = [&](int j) {
    const Scalar* in = tile;
    Scalar* out = tile == tiles_smem ? tiles_smem + tile_cells : tiles_smem;
    const int lo = R + j * R, lo_m = Rm + j * Rm;
#pragma unroll
    for (int k = 0; k < kMaxRunsPerThread; ++k) {
      const int f = run_f[k], m = run_m[k];
      const int s0 = max(run_s[k], lo), s1 = min(run_s[k] + g.chunk_len, Ls - lo);
      if (f >= lo && f < Lf - lo && m >= lo_m && m < Lm - lo_m && s0 < s1) {
        compute_run<Map, R, NF>(eval, in + m * Lf + f, out + m * Lf + f, field_tiles + m * Lf + f, tile_cells, ps,
                                Lf, s0, s1, (run_interior >> k) & 1u, g.rules[0], org[0]);
      }
    }
    tile = out;
    __syncthreads();
  };

  load(0, tile_cells, whole_tile, u, g.u_stride, tile, tiles_smem + tile_cells);
  for (int k = 0; k < NF; ++k)
    load(0, tile_cells, whole_tile, fields.data[k], fields.stride[k], field_tiles + k * tile_cells, nullptr);
  __syncthreads();
  int done = 0, exchanges = 0;
  while (true) {
    const int k = min(g.depth, g.steps - done);
    for (int j = 0; j < k; ++j) step(j);
    done += k;
    if (done >= g.steps) break;
    const bool to_x = exchanges % 2 == 0;  // exchange e uses x when e is even, u when odd
    store(to_x ? x : u, to_x ? g.x_stride : g.u_stride, true);
    grid.sync();
    load_halo(to_x ? x : u, to_x ? g.x_stride : g.u_stride);
    __syncthreads();
    ++exchanges;
  }
  // The final field goes to the buffer the last exchange did not use (no
  // block still reads it), or to x when there was no exchange (u may still
  // be being read by blocks that have not finished their first load).
  const bool final_to_x = exchanges == 0 || (exchanges - 1) % 2 == 1;
  store(final_to_x ? x : u, final_to_x ? g.x_stride : g.u_stride, false);
}

inline bool final_in_scratch(int steps, int depth) {
  const int exchanges = (steps + depth - 1) / depth - 1;
  return exchanges == 0 || (exchanges - 1) % 2 == 1;
}

}  // namespace device_tiling

/// The device-tiling strategy for one (stencil, View type, read-only field
/// kinds): its plan and its run.
template <class Stencil, class ViewType, class... FieldKinds>
struct DeviceTiling {
  using Scalar = typename ViewType::non_const_value_type;
  static constexpr int rank = view_rank<ViewType>;
  static constexpr bool right = std::is_same_v<typename ViewType::array_layout, Kokkos::LayoutRight>;
  using Map = AxisMap<rank, right>;
  using Eval = decltype(std::declval<const Stencil&>().template bind<Scalar, FieldKinds...>());
  static constexpr int R = Stencil::radius;
  static constexpr int NF = static_cast<int>(sizeof...(FieldKinds));

  static auto function() { return &device_tiling::device_tiling_kernel<Map, R, Eval, Scalar, NF>; }

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
    KernelLimitsDT lim;
    lim.max_threads = attr.maxThreadsPerBlock < device_tiling::kMaxThreads ? attr.maxThreadsPerBlock / 32 * 32
                                                                             : device_tiling::kMaxThreads;
    lim.max_blocks = dev.sm_count;
    // A field read over the footprint may touch its whole box (what the functor does not read, the compiler drops).
    lim.smem_accesses_per_cell = device_tiling::smem_accesses_per_cell<Stencil, Map>() +
                                 (0.0 + ... + (FieldKinds::centre_only ? 1.0 : static_cast<double>(Box<rank, R>::size)));
    lim.field_tiles = NF;
    PlanDT p = choose_plan_device_tiling(dev, sm, n, policy.steps(), policy.knobs(), lim);
    if (p.valid) {
      // Every block must be resident at once (cooperative launch).
      EBISU_CUDA_CHECK(cudaFuncSetAttribute(function(), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(p.smem_bytes)),
                       "device_tiling_kernel");
      int per_sm = 0;
      EBISU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, function(), p.threads,
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

  /// fields: FieldViews of FieldKinds (NoFields when there are none).
  template <class FieldSet = NoFields>
  static StencilOutcome run(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                            const Stencil& stencil, const ViewType& u, const ViewType& scratch, const PlanDT& p,
                            const FieldSet& fields = FieldSet{}) {
    static_assert(FieldSet::size == NF, "EbisuKokkos: DeviceTiling run with another set of fields than planned");
    StencilOutcome outcome;
    StencilReport& report = outcome.report;
    report.backend = Backend::ebisu;
    report.strategy = Strategy::device_tiling;
    report.temporal_depth = p.depth;
    report.launches = 1;
    report.predicted_gcells_per_s = p.predicted_gcells_per_s;
    report.plan = p.describe();
    cudaFuncAttributes attr{};
    EBISU_CUDA_CHECK(cudaFuncGetAttributes(&attr, function()), "device_tiling_kernel");
    report.plan += "; regs/thread " + std::to_string(attr.numRegs) +
                   (attr.localSizeBytes > 0 ? ", local memory " + std::to_string(attr.localSizeBytes) + " B" : "");
    if (policy.knobs().threads > 0 || policy.knobs().tile_width > 0) {
      report.plan += "; threads / tile-width knob ignored (device tiling sizes its blocks to its tiles)";
    }

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
    for (int a = 0; a < 2; ++a) {
      const int v = Map::view_index(a);
      g.u_stride[a] = v < 0 ? 0 : static_cast<long>(u.stride(v));
      g.x_stride[a] = v < 0 ? 0 : static_cast<long>(scratch.stride(v));
    }
    g.depth = p.depth;
    g.steps = policy.steps();
    g.chunk_len = p.chunk_len;

    device_tiling::FieldSources<Scalar, NF> sources{};
    if constexpr (NF > 0) {
      for (int k = 0; k < NF; ++k) {
        sources.data[k] = fields.views[k].data();
        for (int a = 0; a < 2; ++a) {
          const int v = Map::view_index(a);
          sources.stride[k][a] = v < 0 ? 0 : static_cast<long>(fields.views[k].stride(v));
        }
      }
      report.plan += "; " + std::to_string(NF) + " read-only field tile(s) in shared memory";
    }

    {
      const long last = (n[0] - 1) * std::max(g.u_stride[0], g.x_stride[0]) +
                        (n[1] - 1) * std::max(g.u_stride[1], g.x_stride[1]) + n[2];
      g.cache_halo = g.u_stride[0] == g.x_stride[0] && g.u_stride[1] == g.x_stride[1] &&
                     last < static_cast<long>(std::numeric_limits<int>::max());
    }
    const cudaStream_t stream = policy.space().cuda_stream();

    const Eval eval = stencil.template bind<Scalar, FieldKinds...>();
    Scalar* u_ptr = u.data();
    Scalar* x_ptr = scratch.data();
    void* args[] = {const_cast<Eval*>(&eval), &u_ptr, &x_ptr, &sources, &g};
    Kokkos::Profiling::pushRegion("EbisuKokkos::device_tiling::" + label);
    EBISU_CUDA_CHECK(cudaFuncSetAttribute(function(), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(p.smem_bytes)),
                     "device_tiling_kernel");
    EBISU_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(function()), dim3(p.blocks),
                                                 dim3(p.threads), args, static_cast<std::size_t>(p.smem_bytes),
                                                 stream),
                     "device_tiling_kernel (cooperative launch)");
    Kokkos::Profiling::popRegion();
    outcome.result_in_scratch = device_tiling::final_in_scratch(g.steps, g.depth);
    return outcome;
  }
};

/// DeviceTiling for the field kinds of a FieldViews (NoFields: none).
template <class Stencil, class ViewType, class FieldSet>
struct DeviceTilingFor;
template <class Stencil, class ViewType, class ConstView, class... Kinds>
struct DeviceTilingFor<Stencil, ViewType, FieldViews<ConstView, Kinds...>> {
  using type = DeviceTiling<Stencil, ViewType, Kinds...>;
};

}  // namespace Cuda
}  // namespace Impl
}  // namespace EbisuKokkos

#endif
