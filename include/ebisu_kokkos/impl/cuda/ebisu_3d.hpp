#ifndef EBISU_KOKKOS_IMPL_CUDA_EBISU_3D_HPP
#define EBISU_KOKKOS_IMPL_CUDA_EBISU_3D_HPP

// The 3-D EBISU backend: SM tiling (2.5-D) with temporal blocking, for rank-3
// Views on Kokkos::Cuda. (The earlier device-tiling kernel - one cooperative
// block per SM, neighbour-flag sync - measured ~2x slower than plain Kokkos on
// an H200 and was replaced; see docs/perf-notes-3d.md.)
//
// A block of 512 threads owns an overlapped x-y tile: TX threads along x (one
// cell each, lanes contiguous in x) by TY thread rows, each thread CY adjacent
// cells along y. It streams planes along z; the `t` steps of a launch are t
// pipelined levels, level s computing the plane (R+1) planes behind level s-1
// (lazy streaming), so one __syncthreads per streamed plane serves every level.
// Each thread keeps the last 2R+1 planes of its CY cells of every level in
// registers (register window); off-column neighbours (other x, or y outside the
// thread's CY cells) come from a per-level circular queue of 2K+2 planes in
// shared memory (K: the largest |dz| of an off-column point); linear
// box-like stencils exchange x partial sums instead and queue only the thread
// rows' edge cells (Traits::partial_sums; one extra barrier per plane). All levels'
// outputs of a plane are computed into registers before any shared-memory
// store, so the levels' dependency chains interleave. Input planes are
// prefetched sm3d_prefetch planes ahead with cp.async into a private ring.
// The tile shrinks by t*R per side per launch (overlapped halos): a tile of
// TX x TY*CY cells yields (TX-2tR) x (TY*CY-2tR) outputs. The grid is
// persistent (SMs x blocks per SM); every block streams an equal run of the
// tile-major list of (tile, plane) pairs. Depth and tile shape are compile
// time (performance_model_3d.hpp: Sm3dShape / sm_tile_shape_3d); the plan
// (depth) comes from choose_plan_3d_sm. Cells within R of a fixed face keep
// their values (Dirichlet); beyond a periodic or mirror face a tile loads the
// cells through the rule (AxisRules) and computes them like its halo cells;
// those loads are a separate instantiation (Mapped), so that the fixed-frame
// kernel's streamed loop keeps its size (see ebisu_2d.hpp).
// Read-only fields (fields.hpp): level s reads field plane c - s (R+1), so a
// field plane is in use for T (R+1) + 2R iterations. A field read over the
// footprint streams through one queue of that many planes (plus the P in
// flight) in shared memory, shared by all levels and loaded with the input
// plane of the same index (cp.async); such kernels take the 32 x 32 tile, the
// only one whose queues fit (depth 3, fp64: 12 planes of 34 x 34, 111 KB). A
// field read at the cell only (centre_only: sources, coefficient fields) is one
// read per update: every level reads it from global memory through the
// read-only data cache (the deeper levels find the plane in L1, which the plan
// leaves free of shared memory), so any number of them costs no shared memory.

#include <ebisu_kokkos/impl/boundary.hpp>
#include <ebisu_kokkos/impl/cuda/cuda_check.hpp>
#include <ebisu_kokkos/impl/cuda/device_helpers.hpp>
#include <ebisu_kokkos/impl/cuda/device_properties.hpp>
#include <ebisu_kokkos/impl/ebisu_backend_fwd.hpp>
#include <ebisu_kokkos/impl/fields.hpp>
#include <ebisu_kokkos/impl/performance_model_3d.hpp>
#include <ebisu_kokkos/policy.hpp>

#include <Kokkos_Core.hpp>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace EbisuKokkos {
namespace Impl {
namespace Cuda {

namespace ebisu3d {

template <class Stencil, bool Right>
struct Traits {
  using points = typename Stencil::points;
  static constexpr int R = Stencil::radius;
  static constexpr int ZA = Right ? 0 : 2;  // View index of z (streamed)
  static constexpr int XA = Right ? 2 : 0;  // View index of x (contiguous)
  // Largest |dz| among points off the thread's own (x, y) column.
  static constexpr int zreach() {
    int k = 0;
    for (int p = 0; p < points::size; ++p) {
      if (points::offset(p, XA) != 0 || points::offset(p, 1) != 0) {
        const int d = points::offset(p, ZA);
        const int a = d < 0 ? -d : d;
        k = a > k ? a : k;
      }
    }
    return k;
  }
  static constexpr int K = zreach();
  static constexpr int max_depth = R == 1 ? 4 : 2;  // = sm3d_max_depth(R)

  static constexpr int dx(int p) { return points::offset(p, XA); }
  static constexpr int dy(int p) { return points::offset(p, 1); }
  static constexpr int dz(int p) { return points::offset(p, ZA); }
  static constexpr bool has_dx(int d) {
    for (int p = 0; p < points::size; ++p)
      if (dx(p) == d) return true;
    return false;
  }
  // Export plane of x offset d (d != 0 with points), -1 otherwise.
  static constexpr int export_plane(int d) {
    int e = 0;
    for (int dd = -R; dd <= R; ++dd) {
      if (dd == d) return dd != 0 && has_dx(dd) ? e : -1;
      if (dd != 0 && has_dx(dd)) ++e;
    }
    return -1;
  }
  static constexpr int count_export_planes() {
    int e = 0;
    for (int d = -R; d <= R; ++d) e += d != 0 && has_dx(d) ? 1 : 0;
    return e;
  }
  // Linear box-like stencils (off-column points at several z) exchange x
  // partial sums: the thread of column x sums c_p * v(x, y + dy_p, z + dz_p)
  // over the points of each x offset d whose y lies in its own cells, and
  // the cell x - d adds that one number instead of reading those points one
  // by one; only the points whose y belongs to another thread row still come
  // raw from the plane queue, which then holds just the thread's edge cells.
  // poisson (CY = 4): 12.5 -> 7 shared accesses per cell update. Radius 1
  // only: the compact queue needs 2R edge cells per thread (CY >= 2R), which
  // the radius-2 shapes (CY = 2 beyond depth 1) do not have.
  static constexpr bool partial_sums = Stencil::is_linear && K > 0 && R == 1;
  static constexpr int export_planes = partial_sums ? count_export_planes() : 0;
  // Shared-memory accesses per cell update in partial-sum mode with cy cells
  // per thread: the x-neighbours' sums and the other rows' raw points read,
  // the sums and the edge cells' raw values written.
  // Distinct offsets of the shape over a thread's cy cells, per cell: the shared-memory loads of a
  // field read over the footprint (a repeated address is loaded once), assuming the functor reads
  // the field where it reads the state.
  static constexpr double footprint_reads_per_cell(int cy) {
    int n = 0;
    for (int x = -R; x <= R; ++x)
      for (int y = -R; y < cy + R; ++y)
        for (int z = -R; z <= R; ++z) {
          bool used = false;
          for (int j = 0; j < cy; ++j)
            for (int p = 0; p < points::size; ++p) used = used || (dx(p) == x && j + dy(p) == y && dz(p) == z);
          n += used ? 1 : 0;
        }
    return static_cast<double>(n) / cy;
  }
  static constexpr double partial_sum_accesses(int cy) {
    int n = 0;
    for (int j = 0; j < cy; ++j) {
      n += 2 * count_export_planes() + (j < R || j >= cy - R ? 1 : 0);
      for (int p = 0; p < points::size; ++p) n += (j + dy(p) < 0 || j + dy(p) >= cy) ? 1 : 0;
    }
    return static_cast<double>(n) / cy;
  }
};

template <class Tr, int P>
struct PointAt3 {
  static constexpr int dx = Tr::dx(P);
  static constexpr int dy = Tr::dy(P);
  static constexpr int dz = Tr::dz(P);
};
template <class Tr, int D>
struct ExportPlane3 {
  static constexpr int index = Tr::export_plane(D);
};

// Reads of cell J (y offset within the thread's CY cells): the thread's own
// column from the register window, everything else from the level's queue.
// q points at the thread's cell 0 in queue plane 0; slot[] are the plane
// offsets of z-K..z+K; the pitch PX is a compile-time constant, so every
// shared-memory address is slot + immediate.
template <class Scalar, int R, int K, int CY, int PX, bool Right, int J>
struct CellAccessor {
  const Scalar (&w)[CY][2 * R + 1];
  const Scalar* q;
  const int (&slot)[2 * K + 1];

  template <int D0, int D1, int D2>
  __device__ __forceinline__ Scalar get() const {
    constexpr int dz = Right ? D0 : D2;
    constexpr int dy = D1;
    constexpr int dx = Right ? D2 : D0;
    static_assert(dz >= -R && dz <= R && dy >= -R && dy <= R && dx >= -R && dx <= R,
                  "EbisuKokkos: offset beyond the stencil radius");
    constexpr int jj = J + dy;
    if constexpr (dx == 0 && jj >= 0 && jj < CY) {
      return w[jj][R + dz];
    } else {
      static_assert(dz >= -K && dz <= K, "EbisuKokkos: off-column z offset beyond the queue reach");
      return q[slot[dz + K] + jj * PX + dx];
    }
  }
};

// Read-only fields: their data (one set of strides for all, Geometry::fsy / fsz).
template <class Scalar, int NF>
struct FieldPointers3 {
  const Scalar* data[NF > 0 ? NF : 1];
};

// Where a thread's cells read the fields. All sides fixed: the thread's column
// and cells clamped R inside the domain, so every offset of the footprint
// stays in the View; the cells that clamping moves are frame cells or lie
// beyond the domain, and keep their value. Periodic / mirror sides: every
// coordinate through the rule (boundary_source maps any coordinate into the
// domain; beyond a fixed side the value is never used).
template <int R, int CY, bool Mapped>
struct FieldIndex3;

template <int R, int CY>
struct FieldIndex3<R, CY, false> {
  long cell[CY];  // x + y fsy of cell j
  long sy, sz;
  struct Plane {
    long z;
  };
  __device__ __forceinline__ static int inside(int v, int n) { return v < R ? R : (v > n - 1 - R ? n - 1 - R : v); }
  template <class G>
  __device__ __forceinline__ FieldIndex3(const G& g, int gx, int gy0) : sy(g.fsy), sz(g.fsz) {
    const long x = inside(gx, g.nx);
#pragma unroll
    for (int j = 0; j < CY; ++j) cell[j] = x + inside(gy0 + j, g.ny) * g.fsy;
  }
  template <class G>
  __device__ __forceinline__ Plane plane(const G& g, int c) const {
    return {inside(c, g.nz) * sz};
  }
  template <int J, int DZ, int DY, int DX>
  __device__ __forceinline__ long offset(const Plane& p) const {
    return cell[J] + p.z + DZ * sz + DY * sy + DX;
  }
};

template <int R, int CY>
struct FieldIndex3<R, CY, true> {
  int x[2 * R + 1];    // source x of gx - R .. gx + R
  long y[CY + 2 * R];  // source y of gy0 - R .. gy0 + CY - 1 + R, times fsy
  long sz;
  struct Plane {
    long z[2 * R + 1];
  };
  template <class G>
  __device__ __forceinline__ FieldIndex3(const G& g, int gx, int gy0) : sz(g.fsz) {
#pragma unroll
    for (int d = 0; d <= 2 * R; ++d) x[d] = g.x.source(gx + d - R);
#pragma unroll
    for (int m = 0; m < CY + 2 * R; ++m) y[m] = g.y.source(gy0 + m - R) * g.fsy;
  }
  template <class G>
  __device__ __forceinline__ Plane plane(const G& g, int c) const {
    Plane p;
#pragma unroll
    for (int d = 0; d <= 2 * R; ++d) p.z[d] = g.z.source(c + d - R) * sz;
    return p;
  }
  template <int J, int DZ, int DY, int DX>
  __device__ __forceinline__ long offset(const Plane& p) const {
    return p.z[DZ + R] + y[J + DY + R] + x[DX + R];
  }
};

// One cell's reads of a field streamed through a shared-memory queue: q points
// at the thread's cell 0 in the field's queue plane 0, slot[] are the plane
// offsets of c-R..c+R of the reading level.
template <class Scalar, int R, int PX, bool Right, int J>
struct FieldQueueReader3 {
  const Scalar* q;
  const int (&slot)[2 * R + 1];

  template <int D0, int D1, int D2>
  __device__ __forceinline__ Scalar get() const {
    constexpr int dz = Right ? D0 : D2;
    constexpr int dx = Right ? D2 : D0;
    return q[slot[dz + R] + (J + D1) * PX + dx];
  }
};

// Bit F of the mask: field F is read over the footprint (a shared-memory queue).
template <class... FieldKinds>
constexpr unsigned field_queue_mask() {
  unsigned mask = 0, bit = 1;
  ((mask |= FieldKinds::centre_only ? 0u : bit, bit <<= 1), ...);
  return mask;
}
__host__ __device__ constexpr int count_bits(unsigned m) { return m == 0 ? 0 : static_cast<int>(m & 1u) + count_bits(m >> 1); }

// eval(state, reader(0), .. reader(NF-1)).
template <class Eval, class Cell, class Reader, std::size_t... F>
__device__ __forceinline__ auto evaluate_with_fields(const Eval& eval, const Cell& cell, const Reader& reader,
                                                     std::index_sequence<F...>) {
  return eval(cell, reader(std::integral_constant<int, static_cast<int>(F)>{})...);
}

// One cell's reads of one field read at the cell only, through the read-only data cache.
template <class Scalar, int R, int CY, bool Right, bool Mapped, int J>
struct FieldReader3 {
  const Scalar* __restrict__ f;
  const FieldIndex3<R, CY, Mapped>& index;
  const typename FieldIndex3<R, CY, Mapped>::Plane& plane;

  template <int D0, int D1, int D2>
  __device__ __forceinline__ Scalar get() const {
    constexpr int dz = Right ? D0 : D2;
    constexpr int dx = Right ? D2 : D0;
    return __ldg(f + index.template offset<J, dz, D1, dx>(plane));
  }
};


struct Geometry {
  long ssx, ssy, ssz;  // element strides of x, y, z in src
  long dsx, dsy, dsz;  // and in dst
  long fsy, fsz;       // of y and z in every read-only field (x: 1)
  int nx, ny, nz;
  int tiles_x;         // tiles along x
  int ox, oy;          // valid output cells per tile
  int plane;           // queue plane size (elements)
  long total;          // tiles * nz
  long per_block;      // run length in the tile-major (tile, plane) list
  AxisRules x, y, z;   // boundary rules
};

template <class Tr, class Eval, class Scalar, int R, int K, int T, bool Right, bool Mapped, int NF, unsigned QueueMask>
__global__ void __launch_bounds__(sm3d_threads, 1)
    ebisu3d_kernel(const Eval eval, const Scalar* __restrict__ src, Scalar* __restrict__ dst, const Geometry g,
                   const FieldPointers3<Scalar, NF> fields) {
  constexpr int NQF = count_bits(QueueMask);  // fields streamed through shared-memory queues
  constexpr int CY = Sm3dShape<T, R, K, NQF>::cells_y;
  constexpr int TX = Sm3dShape<T, R, K, NQF>::threads_x;
  constexpr int TY = sm3d_threads / TX;
  constexpr int PX = TX + 2 * R;
  constexpr int Q = 2 * K + 2;
  constexpr int W = 2 * R + 1;
  constexpr bool PS = Tr::partial_sums;
  constexpr int P = PS ? sm3d_prefetch_partial_sums : sm3d_prefetch;
  constexpr int NE = Tr::export_planes;  // one buffer of partial-sum planes after the Q queue planes
  static_assert(!PS || CY >= 2 * R, "EbisuKokkos: the compact queue needs 2R edge cells per thread");
  static_assert(!PS || NF == 0, "EbisuKokkos: partial sums are for linear stencils, which read no fields");
  extern __shared__ __align__(16) unsigned char ebisu3d_smem_raw[];
  Scalar* const smem = reinterpret_cast<Scalar*>(ebisu3d_smem_raw);

  const int lx = threadIdx.x % TX;
  const int ly = threadIdx.x / TX;
  const int tid = threadIdx.x;
  const int plane = g.plane;
  // Partial sums: the raw queue keeps only the 2R edge cells of each thread
  // row (R top, R bottom; one pad row group above and below the tile).
  constexpr int raw_plane_ps = (TY + 2) * 2 * R * PX;
  const int raw_plane = PS ? raw_plane_ps : plane;
  const int queue_stride = Q * raw_plane + NE * plane;
  Scalar* const ring = smem + T * queue_stride;
  // This thread's cell 0 in a queue plane (tile-local (lx, ly*CY) plus the pad).
  const int base = (R + ly * CY) * PX + R + lx;
  const int raw_base = PS ? (ly + 1) * 2 * R * PX + R + lx : base;
  constexpr int FQ = NQF > 0 ? Sm3dFieldQueue<T, R, P>::planes : 1;  // planes per field queue
  Scalar* const field_queue = ring + (P + 1) * CY * sm3d_threads;

  // Zero the queues once: the pads (R around the tile) are never written.
  for (int i = tid; i < T * queue_stride; i += sm3d_threads) smem[i] = Scalar(0);
  for (int i = tid; i < NQF * FQ * plane; i += sm3d_threads) field_queue[i] = Scalar(0);
  __syncthreads();

  long run0 = static_cast<long>(blockIdx.x) * g.per_block;
  const long run1 = run0 + g.per_block < g.total ? run0 + g.per_block : g.total;

  while (run0 < run1) {
    const int tile = static_cast<int>(run0 / g.nz);
    const int seg0 = static_cast<int>(run0 - static_cast<long>(tile) * g.nz);
    const long piece_end = static_cast<long>(tile + 1) * g.nz < run1 ? static_cast<long>(tile + 1) * g.nz : run1;
    const int seg1 = static_cast<int>(piece_end - static_cast<long>(tile) * g.nz);
    run0 = piece_end;

    const int tix = tile % g.tiles_x, tiy = tile / g.tiles_x;
    const int outx0 = tix * g.ox, outy0 = tiy * g.oy;
    const int gx = outx0 - T * R + lx;
    const int gy0 = outy0 - T * R + ly * CY;
    const bool x_in = g.x.loadable(gx);
    const bool x_bnd = g.x.frame(gx);
    const bool x_out = gx >= outx0 && gx < outx0 + g.ox && gx < g.nx;
    bool y_in[CY], bnd[CY], out_ok[CY];
#pragma unroll
    for (int j = 0; j < CY; ++j) {
      const int y = gy0 + j;
      y_in[j] = g.y.loadable(y);
      bnd[j] = x_bnd || g.y.frame(y);
      out_ok[j] = x_out && y >= outy0 && y < outy0 + g.oy && y < g.ny;
    }
    const FieldIndex3<R, CY, Mapped> field_index(g, gx, gy0);
    // Planes beyond a fixed face are not loaded (the frame keeps its value).
    const int z_start = seg0 - T * R > 0 || g.z.lo != Boundary::fixed ? seg0 - T * R : 0;
    const int z_end = seg1 + T * R < g.nz || g.z.hi != Boundary::fixed ? seg1 + T * R : g.nz;

    Scalar win[T][CY][W];
    Scalar acc[T][CY];  // partial sums: the own-column part of the next output plane of each level
#pragma unroll
    for (int s = 0; s < T; ++s)
#pragma unroll
      for (int j = 0; j < CY; ++j) {
        acc[s][j] = Scalar(0);
#pragma unroll
        for (int d = 0; d < W; ++d) win[s][j][d] = Scalar(0);
      }

    auto ring_at = [&](int slot, int j) { return ring + (slot * CY + j) * sm3d_threads + tid; };
    const long col = static_cast<long>(gx) * g.ssx + static_cast<long>(gy0) * g.ssy;
    // Input plane z into ring slot `slot`, and plane z of every queued field into queue plane `field_slot`.
    auto request = [&](int z, int slot, int field_slot) {
      if constexpr (NQF > 0) {
        const long fz = static_cast<long>(Mapped ? (z < z_end ? g.z.source(z) : 0) : z) * g.fsz;
        const long fx = Mapped ? (x_in ? g.x.source(gx) : 0) : gx;
        static_for<NF>([&](auto F_) {
          constexpr int f = decltype(F_)::value;
          if constexpr (((QueueMask >> f) & 1u) != 0) {
            constexpr int qk = count_bits(QueueMask & ((1u << f) - 1u));
            Scalar* q = field_queue + (qk * FQ + field_slot) * plane + base;
#pragma unroll
            for (int j = 0; j < CY; ++j) {
              const bool valid = z < z_end && x_in && y_in[j];
              const long fy = Mapped ? (y_in[j] ? g.y.source(gy0 + j) : 0) : gy0 + j;
              async_copy_or_zero(q + j * PX, valid ? fields.data[f] + fz + fy * g.fsy + fx : fields.data[f], valid);
            }
          }
        });
      }
      if constexpr (!Mapped) {
#pragma unroll
        for (int j = 0; j < CY; ++j) {
          const bool valid = z < z_end && x_in && y_in[j];
          async_copy_or_zero(ring_at(slot, j), valid ? src + col + j * g.ssy + static_cast<long>(z) * g.ssz : src, valid);
        }
      } else {
        const Scalar* src_column = src + static_cast<long>(z < z_end ? g.z.source(z) : 0) * g.ssz +
                                   static_cast<long>(x_in ? g.x.source(gx) : 0) * g.ssx;
#pragma unroll
        for (int j = 0; j < CY; ++j) {
          const bool valid = z < z_end && x_in && y_in[j];
          async_copy_or_zero(ring_at(slot, j), valid ? src_column + static_cast<long>(g.y.source(gy0 + j)) * g.ssy : src,
                             valid);
        }
      }
      async_commit();
    };
    for (int p = 0; p < P; ++p) request(z_start + p, p, p);
    // The field queue plane of input plane z_start + it: it mod FQ, kept by increments.
    int field_now = 0;

    const int n_iter = seg1 - z_start + T * (R + 1);
    for (int it = 0; it < n_iter; ++it) {
      // Queue planes c-K..c+K of the previous level: plane c+dz was stored at
      // iteration it-1-(K-dz).
      int slot[2 * K + 1];
#pragma unroll
      for (int d = 0; d <= 2 * K; ++d) slot[d] = ((it + Q - 1 - (2 * K - d)) % Q) * raw_plane;
      const int wslot = (it % Q) * raw_plane + raw_base;
      const int sums = Q * raw_plane + base;  // the partial-sum planes

      // The newest plane of level k (its output or the input) into the
      // window, then what other threads need of it into shared memory.
      auto push = [&](auto K_, const auto& plane_values) {  // Scalar[CY]
        constexpr int k = decltype(K_)::value;
#pragma unroll
        for (int j = 0; j < CY; ++j) {
#pragma unroll
          for (int d = 0; d < W - 1; ++d) win[k][j][d] = win[k][j][d + 1];
          win[k][j][W - 1] = plane_values[j];
        }
        static_for<CY>([&](auto J_) {
          constexpr int j = decltype(J_)::value;
          if constexpr (!PS) {
            smem[k * queue_stride + wslot + j * PX] = win[k][j][R + K];
          } else if constexpr (j < R || j >= CY - R) {  // only edge cells are read raw
            constexpr int e = j < R ? j : j - CY + 2 * R;
            smem[k * queue_stride + wslot + e * PX] = win[k][j][R + K];
          }
          if constexpr (PS) {
            Scalar own = Scalar(0);
            Scalar ex[2 * R + 1];
#pragma unroll
            for (int d = 0; d < 2 * R + 1; ++d) ex[d] = Scalar(0);
            static_for<Tr::points::size>([&](auto P_) {
              constexpr int p = decltype(P_)::value;
              constexpr int jj = j + PointAt3<Tr, p>::dy;
              if constexpr (jj >= 0 && jj < CY) {
                const Scalar term = eval.coefficients[p] * win[k][jj][R + PointAt3<Tr, p>::dz];
                if constexpr (PointAt3<Tr, p>::dx == 0) {
                  own += term;
                } else {
                  ex[R + PointAt3<Tr, p>::dx] += term;
                }
              }
            });
            acc[k][j] = own;
            static_for<2 * R + 1>([&](auto D_) {
              constexpr int d = decltype(D_)::value - R;
              if constexpr (ExportPlane3<Tr, d>::index >= 0) {
                smem[k * queue_stride + sums + ExportPlane3<Tr, d>::index * plane + j * PX] = ex[R + d];
              }
            });
          }
        });
      };

      // All levels compute first (registers only), then all store.
      Scalar out[T][CY];
      static_for<T>([&](auto S_) {
        constexpr int s = decltype(S_)::value + 1;  // 1 .. T
        const int c = z_start + it - s * (R + 1);
        const bool z_bnd = g.z.frame(c);
        [[maybe_unused]] const auto field_plane = field_index.plane(g, c);
        // Queue planes of field planes c-R..c+R (planes before z_start, the pipeline fill, wrap like the others).
        [[maybe_unused]] int fslot[2 * R + 1];
        if constexpr (NQF > 0) {
#pragma unroll
          for (int d = 0; d <= 2 * R; ++d) {
            int row = field_now + (FQ - s * (R + 1) + d - R);  // the constant lies in [P + 1 - R, FQ)
            row = row >= FQ ? row - FQ : row;
            fslot[d] = row * plane;
          }
        }
        const Scalar* q = smem + (s - 1) * queue_stride + (PS ? raw_base : base);
        static_for<CY>([&](auto J_) {
          constexpr int j = decltype(J_)::value;
          Scalar v;
          if constexpr (PS) {
            // Own column part, the x-neighbours' partial sums (cell x reads
            // the sum of offset d from the thread at x + d), and the points
            // in other thread rows raw.
            v = acc[s - 1][j];
            const Scalar* in = smem + (s - 1) * queue_stride + sums + j * PX;
            static_for<2 * R + 1>([&](auto D_) {
              constexpr int d = decltype(D_)::value - R;
              if constexpr (ExportPlane3<Tr, d>::index >= 0) v += in[ExportPlane3<Tr, d>::index * plane + d];
            });
            static_for<Tr::points::size>([&](auto P_) {
              constexpr int p = decltype(P_)::value;
              constexpr int jj = j + PointAt3<Tr, p>::dy;
              if constexpr (!(jj >= 0 && jj < CY)) {
                // Compact rows: the row above's bottom cells at -R..-1, the
                // row below's top cells at 2R..3R-1 (relative to raw_base).
                constexpr int row = jj < 0 ? jj : 2 * R + jj - CY;
                v += eval.coefficients[p] * q[slot[PointAt3<Tr, p>::dz + K] + row * PX + PointAt3<Tr, p>::dx];
              }
            });
          } else {
            CellAccessor<Scalar, R, K, CY, PX, Right, j> at{win[s - 1], q, slot};
            if constexpr (NF == 0) {
              v = eval(at);
            } else {
              // Field f's reader: its queue, or the read-only data cache.
              const auto reader = [&](auto F_) {
                constexpr int f = decltype(F_)::value;
                if constexpr (((QueueMask >> f) & 1u) != 0) {
                  constexpr int qk = count_bits(QueueMask & ((1u << f) - 1u));
                  return FieldQueueReader3<Scalar, R, PX, Right, j>{field_queue + qk * FQ * plane + base, fslot};
                } else {
                  return FieldReader3<Scalar, R, CY, Right, Mapped, j>{fields.data[f], field_index, field_plane};
                }
              };
              v = evaluate_with_fields(eval, at, reader, std::make_index_sequence<NF>{});
            }
          }
          out[s - 1][j] = (z_bnd || bnd[j]) ? win[s - 1][j][R] : v;
        });
      });
      // One buffer of partial sums: everybody has read it before it is rewritten.
      if constexpr (PS) __syncthreads();
      static_for<T - 1>([&](auto S_) {  // levels 1 .. T-1; the deepest goes to dst
        push(std::integral_constant<int, decltype(S_)::value + 1>{}, out[decltype(S_)::value]);
      });

      // Input plane z_start+it (requested P iterations ago) into level 0.
      async_wait<P - 1>();
      Scalar pf[CY];
#pragma unroll
      for (int j = 0; j < CY; ++j) pf[j] = *ring_at(it % (P + 1), j);
      push(std::integral_constant<int, 0>{}, pf);
      {
        const int field_next = field_now + P < FQ ? field_now + P : field_now + P - FQ;
        request(z_start + it + P, (it + P) % (P + 1), field_next);
      }

      const int c_last = z_start + it - T * (R + 1);
      if (c_last >= seg0) {
        Scalar* d = dst + static_cast<long>(gx) * g.dsx + static_cast<long>(gy0) * g.dsy +
                    static_cast<long>(c_last) * g.dsz;
#pragma unroll
        for (int j = 0; j < CY; ++j)
          if (out_ok[j]) d[j * g.dsy] = out[T - 1][j];
      }
      field_now = field_now + 1 < FQ ? field_now + 1 : 0;
      __syncthreads();
    }
    async_wait_all();  // the next piece reuses the ring
    // Field planes requested near the end of this piece land in queue planes that the next
    // piece's first levels read (as planes before its start, never stored): every copy
    // completes before any thread goes on (as in ebisu_2d.hpp).
    if constexpr (NQF > 0) __syncthreads();
  }
}

template <class... FieldKinds>
struct FieldKindList {};

template <class Stencil, class Scalar, bool Right, int Depth, class... FieldKinds>
struct Kernel {
  static constexpr int R = Stencil::radius;
  static constexpr int K = Traits<Stencil, Right>::K;
  static constexpr int fields = static_cast<int>(sizeof...(FieldKinds));
  static constexpr unsigned queue_mask = field_queue_mask<FieldKinds...>();
  static constexpr int field_queues = count_bits(queue_mask);
  using Eval = decltype(std::declval<const Stencil&>().template bind<Scalar, FieldKinds...>());
  /// Mapped: the instantiation whose loads go through periodic / mirror rules.
  template <bool Mapped = false>
  static constexpr auto function() {
    return &ebisu3d_kernel<Traits<Stencil, Right>, Eval, Scalar, R, K, Depth, Right, Mapped, fields, queue_mask>;
  }
};

// Calls go(kernel) with the instantiation of depth `depth` (for the fields' kinds).
template <class Stencil, class Scalar, bool Right, class Go, class... FieldKinds>
void dispatch_depth(int depth, Go&& go, FieldKindList<FieldKinds...> = {}) {
  constexpr int maxd = Traits<Stencil, Right>::max_depth;
  bool done = false;
  auto one = [&](auto D) {
    constexpr int d = decltype(D)::value;
    if constexpr (d <= maxd && compiles_depth(d, maxd)) {
      if (depth == d) {
        go(Kernel<Stencil, Scalar, Right, d, FieldKinds...>{});
        done = true;
      }
    }
  };
  one(std::integral_constant<int, 1>{});
  one(std::integral_constant<int, 2>{});
  one(std::integral_constant<int, 3>{});
  one(std::integral_constant<int, 4>{});
  if (!done) throw std::logic_error("EbisuKokkos: ebisu3d depth " + std::to_string(depth) + " is not compiled");
}

}  // namespace ebisu3d

// SM tiling in 3-D: the model's plan for a call over the compiled tile shapes
// (with their measured occupancy), and the launches. Backend::automatic weighs
// the plan against the other strategies (ebisu_cuda_backend.hpp). FieldKinds:
// the kinds of the call's read-only fields (none: the plain call).
template <class Stencil, class ViewType, class... FieldKinds>
struct SmTiling3D {
  using Scalar = typename ViewType::non_const_value_type;
  static constexpr bool right = std::is_same_v<typename ViewType::array_layout, Kokkos::LayoutRight>;
  static constexpr int R = Stencil::radius;
  static constexpr int NF = static_cast<int>(sizeof...(FieldKinds));
  static constexpr int NQF = ebisu3d::count_bits(ebisu3d::field_queue_mask<FieldKinds...>());
  using Tr = ebisu3d::Traits<Stencil, right>;
  static constexpr int ix = right ? 2 : 0, iz = right ? 0 : 2;
  static constexpr ebisu3d::FieldKindList<FieldKinds...> kinds{};

  struct Plan {
    bool valid = false;
    std::string why_not;
    PlanSM3D sm;
    SmTileShape3D shapes[Tr::max_depth + 1];
    double predicted_seconds = 0;
    double interior_cells = 0;
  };

  static void extents(const ViewType& u, long& nz, long& ny, long& nx) {
    nx = static_cast<long>(u.extent(ix));
    ny = static_cast<long>(u.extent(1));
    nz = static_cast<long>(u.extent(iz));
  }

  /// The generic path's predicted time for the same call (what automatic weighs the plans against).
  static double generic_seconds(const StencilPolicy<Kokkos::Cuda>& policy, const ViewType& u) {
    long nz, ny, nx;
    extents(u, nz, ny, nx);
    return predict_generic_seconds_3d(device_model(policy.space().cuda_device()),
                                      stencil_model<Stencil>(static_cast<int>(sizeof(Scalar))), nz, ny, nx,
                                      policy.steps());
  }

  /// Why the kernel cannot read these fields ("" if it can): one set of strides for all, x contiguous.
  template <class FieldSet>
  static std::string field_refusal(const FieldSet& fields) {
    if constexpr (FieldSet::size > 0) {
      for (int k = 0; k < FieldSet::size; ++k) {
        const auto& f = fields.views[k];
        if (f.stride(ix) != 1 || f.stride(1) != fields.views[0].stride(1) ||
            f.stride(iz) != fields.views[0].stride(iz)) {
          return "3-D SM tiling reads read-only fields of one set of strides only";
        }
      }
    }
    return "";
  }

  template <class FieldSet = NoFields>
  static Plan plan(const StencilPolicy<Kokkos::Cuda>& policy, const ViewType& u, const FieldSet& fields = FieldSet{}) {
    static_assert(FieldSet::size == NF, "EbisuKokkos: SmTiling3D planned with another set of fields");
    Plan plan;
    const int steps = policy.steps();
    if (steps <= 0) {
      plan.why_not = "no steps";
      return plan;
    }
    plan.why_not = field_refusal(fields);
    if (!plan.why_not.empty()) return plan;
    long nz, ny, nx;
    extents(u, nz, ny, nx);
    const DeviceModel& dm = device_model(policy.space().cuda_device());
    const StencilModel sm = stencil_model<Stencil>(static_cast<int>(sizeof(Scalar)));
    const char* kname = "ebisu3d_kernel";
    // Compiled shapes with their real occupancy (shared memory set first).
    SmTileShape3D* shapes = plan.shapes;
    for (int t = 1; t <= Tr::max_depth; ++t) {
      if (!compiles_depth(t, Tr::max_depth)) continue;  // (smem_bytes 0: not usable)
      shapes[t] = sm_tile_shape_3d(t, R, Tr::K, static_cast<int>(sizeof(Scalar)), Tr::export_planes, NQF);
      if constexpr (Tr::partial_sums) shapes[t].smem_accesses_per_cell = Tr::partial_sum_accesses(shapes[t].cells_y);
      // A field read over the footprint: its distinct shared-memory loads per cell; a centre-only
      // field one L1 load.
      shapes[t].read_only_fields = NF;
      shapes[t].field_reads_per_cell =
          (0.0 + ... + (FieldKinds::centre_only ? 1.0 : Tr::footprint_reads_per_cell(shapes[t].cells_y)));
      if (shapes[t].smem_bytes > dm.smem_per_block_bytes) {
        shapes[t].smem_bytes = 0;
        continue;
      }
      ebisu3d::dispatch_depth<Stencil, Scalar, right>(t, [&](auto k) {
        using KernelOfDepth = decltype(k);
        // Both instantiations (fixed frames, mapped loads) take the shape's shared memory.
        for (const auto kernel : {KernelOfDepth::template function<false>(), KernelOfDepth::template function<true>()}) {
          EBISU_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                static_cast<int>(shapes[t].smem_bytes)),
                           kname);
        }
        const auto kernel = KernelOfDepth::template function<false>();
        int per_sm = 0;
        EBISU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, sm3d_threads,
                                                                       static_cast<std::size_t>(shapes[t].smem_bytes)),
                         kname);
        if (per_sm < 1) shapes[t].smem_bytes = 0;  // cannot run: not usable
        shapes[t].blocks_per_sm = per_sm < 1 ? 1 : per_sm;
        if constexpr (NF > 0) {
          // With fields, a depth that spills its register window to local memory is not planned.
          cudaFuncAttributes a{};
          EBISU_CUDA_CHECK(cudaFuncGetAttributes(&a, kernel), kname);
          if (t > 1 && a.localSizeBytes > 0) shapes[t].smem_bytes = 0;
          // The fields are read through L1: leave it what the blocks' shared memory does not need (by
          // default the driver may give shared memory the whole carveout, and every level's field
          // reads then go to L2).
          const long per_sm = static_cast<long>(shapes[t].blocks_per_sm) * (shapes[t].smem_bytes + 1024);
          const int percent = static_cast<int>(std::min<long>(100, (100 * per_sm + dm.smem_per_sm_bytes - 1) /
                                                                       std::max<long>(1, dm.smem_per_sm_bytes)));
          for (const auto f : {KernelOfDepth::template function<false>(), KernelOfDepth::template function<true>()}) {
            EBISU_CUDA_CHECK(cudaFuncSetAttribute(f, cudaFuncAttributePreferredSharedMemoryCarveout, percent), kname);
          }
        }
      }, kinds);
    }
    plan.sm = choose_plan_3d_sm(dm, sm, nz, ny, nx, steps, policy.knobs(), shapes, Tr::max_depth);
    plan.valid = plan.sm.valid;
    if (!plan.valid) plan.why_not = "no SM tiling fits";
    plan.predicted_seconds = plan.sm.predicted_seconds;
    plan.interior_cells = static_cast<double>(nx - 2 * R) * (ny - 2 * R) * (nz - 2 * R);
    return plan;
  }

  template <class FieldSet = NoFields>
  static StencilOutcome run(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                            const Stencil& stencil, const ViewType& u, const ViewType& scratch, const Plan& plan,
                            const FieldSet& fields = FieldSet{}) {
    static_assert(FieldSet::size == NF, "EbisuKokkos: SmTiling3D run with another set of fields than planned");
    StencilOutcome outcome;
    StencilReport& report = outcome.report;
    report.backend = Backend::ebisu;
    report.strategy = Strategy::sm_tiling;
    report.launches = 0;
    const int steps = policy.steps();
    long nz, ny, nx;
    extents(u, nz, ny, nx);
    const DeviceModel& dm = device_model(policy.space().cuda_device());
    const auto eval = stencil.template bind<Scalar, FieldKinds...>();
    ebisu3d::FieldPointers3<Scalar, NF> field_pointers{};
    long fsy = 0, fsz = 0;
    if constexpr (NF > 0) {
      for (int k = 0; k < NF; ++k) field_pointers.data[k] = fields.views[k].data();
      fsy = static_cast<long>(fields.views[0].stride(1));
      fsz = static_cast<long>(fields.views[0].stride(iz));
    }
    const cudaStream_t stream = policy.space().cuda_stream();
    report.temporal_depth = plan.sm.depth;
    report.predicted_gcells_per_s = plan.sm.predicted_gcells_per_s;
    report.plan = plan.sm.describe();

    Kokkos::Profiling::pushRegion("EbisuKokkos::ebisu3d::" + label);
    const bool mapped = !policy.boundaries().all_fixed();
    ViewType src = u, dst = scratch;
    int done = 0;
    while (done < steps) {
      // The remainder in launches of the deepest usable depths, as the plan counted them.
      int d = std::min(plan.sm.depth, steps - done);
      while (d > 1 && plan.shapes[d].smem_bytes == 0) --d;
      const SmTileShape3D& sh = plan.shapes[d];
      ebisu3d::Geometry g;
      g.ssx = static_cast<long>(src.stride(ix));
      g.ssy = static_cast<long>(src.stride(1));
      g.ssz = static_cast<long>(src.stride(iz));
      g.dsx = static_cast<long>(dst.stride(ix));
      g.dsy = static_cast<long>(dst.stride(1));
      g.dsz = static_cast<long>(dst.stride(iz));
      g.fsy = fsy;
      g.fsz = fsz;
      g.nx = static_cast<int>(nx);
      g.ny = static_cast<int>(ny);
      g.nz = static_cast<int>(nz);
      g.x = axis_rules(u, policy.boundaries(), ix, R);
      g.y = axis_rules(u, policy.boundaries(), 1, R);
      g.z = axis_rules(u, policy.boundaries(), iz, R);
      g.ox = sh.tile_x - 2 * d * R;
      g.oy = sh.tile_y - 2 * d * R;
      g.tiles_x = static_cast<int>((nx + g.ox - 1) / g.ox);
      const long tiles_y = (ny + g.oy - 1) / g.oy;
      g.plane = (sh.tile_x + 2 * R) * (sh.tile_y + 2 * R);
      g.total = static_cast<long>(g.tiles_x) * tiles_y * nz;
      long blocks = static_cast<long>(dm.sm_count) * sh.blocks_per_sm;
      g.per_block = (g.total + blocks - 1) / blocks;
      blocks = (g.total + g.per_block - 1) / g.per_block;
      ebisu3d::dispatch_depth<Stencil, Scalar, right>(d, [&](auto k) {
        using KernelOfDepth = decltype(k);
        // The attribute was set for both instantiations when the shapes were measured.
        const auto kernel =
            mapped ? KernelOfDepth::template function<true>() : KernelOfDepth::template function<false>();
        kernel<<<static_cast<unsigned>(blocks), sm3d_threads, static_cast<std::size_t>(sh.smem_bytes), stream>>>(
            eval, src.data(), dst.data(), g, field_pointers);
        EBISU_CUDA_CHECK(cudaGetLastError(), "ebisu3d_kernel");
      }, kinds);
      ++report.launches;
      done += d;
      std::swap(src, dst);
    }
    Kokkos::Profiling::popRegion();
    if (NQF > 0) report.plan += "; " + std::to_string(NQF) + " read-only field queue(s) in shared memory";
    if (NF > NQF) {
      report.plan += "; " + std::to_string(NF - NQF) + " centre-only field(s) read through the read-only data cache";
    }
    ebisu3d::dispatch_depth<Stencil, Scalar, right>(plan.sm.depth, [&](auto k) {
      cudaFuncAttributes a{};
      EBISU_CUDA_CHECK(cudaFuncGetAttributes(&a, decltype(k)::template function<false>()), "ebisu3d_kernel");
      report.plan += "; regs/thread " + std::to_string(a.numRegs) +
                     (a.localSizeBytes > 0 ? ", local memory " + std::to_string(a.localSizeBytes) + " B" : "");
    }, kinds);
    outcome.result_in_scratch = src.data() != u.data();
    return outcome;
  }
};

/// SmTiling3D for the field kinds of a FieldViews (NoFields: none).
template <class Stencil, class ViewType, class FieldSet>
struct SmTiling3DFor;
template <class Stencil, class ViewType, class ConstView, class... Kinds>
struct SmTiling3DFor<Stencil, ViewType, FieldViews<ConstView, Kinds...>> {
  using type = SmTiling3D<Stencil, ViewType, Kinds...>;
};

}  // namespace Cuda
}  // namespace Impl
}  // namespace EbisuKokkos

#endif
