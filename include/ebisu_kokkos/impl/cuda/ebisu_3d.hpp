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
// read per update, of the thread's own cells: the first such field of a
// one-level kernel without a footprint queue is kept in a thread-private ring
// of planes (centre_ring_mask: loaded with the input plane, read by every
// level from shared memory); any others are read by every level from global
// memory through the read-only data cache (the deeper levels find the plane in
// L1, which the plan leaves free of shared memory).
// Several state fields and time levels (state.hpp) are the same pipeline with
// one register window and plane queue per field and stream (as in ebisu_2d.hpp):
// level s reads level l of a field from the stream of step s-1-l, whose planes
// are kept l (R+1) planes longer; the last NL levels store the NL new levels
// into buffers no block of the launch reads (LevelPool). Such kernels take the
// 32 x 32 tile and fewer planes in flight (Sm3dShape, sm3d_prefetch_states).

#include <ebisu_kokkos/impl/boundary.hpp>
#include <ebisu_kokkos/impl/cuda/cuda_check.hpp>
#include <ebisu_kokkos/impl/cuda/device_helpers.hpp>
#include <ebisu_kokkos/impl/cuda/device_properties.hpp>
#include <ebisu_kokkos/impl/level_pool.hpp>
#include <ebisu_kokkos/impl/ebisu_backend_fwd.hpp>
#include <ebisu_kokkos/impl/fields.hpp>
#include <ebisu_kokkos/impl/performance_model_3d.hpp>
#include <ebisu_kokkos/impl/source_response.hpp>
#include <ebisu_kokkos/impl/source_response_claim.hpp>
#include <ebisu_kokkos/stencil.hpp>
#include <ebisu_kokkos/impl/state_ring.hpp>
#include <ebisu_kokkos/policy.hpp>

#include <Kokkos_Core.hpp>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <numeric>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

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
  // The plane loop unrolled by the window length rotates the register windows by renaming instead
  // of moves (as 2-D's row loop, perf-notes-2d.md v9). Only where that fits the 128 registers of
  // the kernels' launch bounds: unrolled, the radius-1 star (depth 3, 4) and the full box (depth 2,
  // 4) spill 4-60 B, and spilling depth 3 ran j3d7pt 512^3 20% slower. Kept (H200, 2560x288x384,
  // probe A/B): j3d13pt +5.5%, j3d17pt +1.6%, poisson +0.5%, periodic poisson +3.6%; no spills.
  static constexpr bool unroll_planes =
      Stencil::is_linear && (R == 2 || (K > 0 && points::size < (2 * R + 1) * (2 * R + 1) * (2 * R + 1)));
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
// offsets of the queued planes, oldest first; the pitch PX is a compile-time
// constant, so every shared-memory address is slot + immediate. WO / SO: the
// window plane and the slot index of the cell's own plane (a state's older
// level is read from the same stream as its newest, further back).
template <class Scalar, int R, int K, int CY, int PX, bool Right, int J, int WL = 2 * R + 1, int NSLOT = 2 * K + 1,
          int WO = R, int SO = K>
struct CellAccessor {
  const Scalar (&w)[CY][WL];
  const Scalar* q;
  const int (&slot)[NSLOT];

  template <int D0, int D1, int D2>
  __device__ __forceinline__ Scalar get() const {
    constexpr int dz = Right ? D0 : D2;
    constexpr int dy = D1;
    constexpr int dx = Right ? D2 : D0;
    static_assert(dz >= -R && dz <= R && dy >= -R && dy <= R && dx >= -R && dx <= R,
                  "EbisuKokkos: offset beyond the stencil radius");
    constexpr int jj = J + dy;
    if constexpr (dx == 0 && jj >= 0 && jj < CY) {
      return w[jj][WO + dz];
    } else {
      static_assert(dz >= -K && dz <= K, "EbisuKokkos: off-column z offset beyond the queue reach");
      return q[slot[SO + dz] + jj * PX + dx];
    }
  }
};

// Several state fields and levels (state.hpp): stage s reads field f's level l
// from the stream of step s-1-l (streams 0 .. NL-1 are the input levels NL-1
// .. 0, loaded together; stream NL-1+k the output of level k); the read's age
// (planes behind the stream's newest) follows from (s, l). One level: stream
// s-1 at age R, the single-field kernel's read.
template <class Tr, int T, int NL, bool OlderAround, class Scalar, bool Right, int CY, int PX, int J, int S, int Q>
struct StreamRead3 {
  using Sh = Sm3dStreams<Tr::R, Tr::K, T, NL, OlderAround>;
  static constexpr int field = Q / NL, level = Q % NL;
  static constexpr int step = S - 1 - level;
  static constexpr int stream = step + NL - 1;
  static constexpr int age = step >= 0 ? (level + 1) * Sh::lag - 1 : S * Sh::lag - 1;  // of the cell's own plane
  using Accessor = CellAccessor<Scalar, Tr::R, Tr::K, CY, PX, Right, J, Sh::window, Sh::queue - 1,
                                Sh::window - 1 - age, Sh::queue - 2 - age + Tr::R - Tr::K>;
};

// The state levels of a launch besides the kernel's src / dst (q = f * NL + l,
// q = 0 unused): level l of field f in, and the new level l out when the
// launch computes it (l < depth). Every buffer has src's strides.
template <class Scalar, int NQ>
struct StateLevels3 {
  const Scalar* in[NQ];
  Scalar* out[NQ];
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

// Bit F of the mask: read-only field F is read over the footprint (a
// shared-memory queue). The first Skip kinds are other state fields and levels.
template <int Skip, class... FieldKinds>
constexpr unsigned field_queue_mask() {
  unsigned mask = 0;
  int k = 0;
  ((mask |= k >= Skip && !FieldKinds::centre_only ? 1u << (k - Skip) : 0u, ++k), ...);
  return mask;
}
__host__ __device__ constexpr int count_bits(unsigned m) { return m == 0 ? 0 : static_cast<int>(m & 1u) + count_bits(m >> 1); }

// Bit F of the mask: read-only field F, read at the cell only, is kept in a
// thread-private ring of planes in shared memory (loaded once per launch with
// the input plane, read there by every level) instead of being read by every
// level through L1 (an L1 read per update, with its 64-bit address and mostly
// missing L1, made a source term cost 36-40% of the 7-point kernel's speed at
// depth 4; docs/perf-notes-3d.md). One such field, in a
// kernel of one state level without a footprint queue: its ring (Sm3dCentreRing,
// 96 KB at depth 4 in fp64) fits beside the 32 x 32 tile's queues; a second
// ring or a footprint queue would not. Other centre-only fields use L1.
template <int Skip, class... FieldKinds>
constexpr unsigned centre_ring_mask() {
  if (Skip > 0 || field_queue_mask<Skip, FieldKinds...>() != 0u) return 0u;
  unsigned mask = 0;
  int k = 0;
  ((mask |= mask == 0u && k >= Skip && FieldKinds::centre_only ? 1u << (k - Skip) : 0u, ++k), ...);
  return mask;
}

// A cell's value of a field kept in a centre ring: p points at the reading
// level's plane of the ring at the thread's cell 0 (cell J is J planes of the
// thread block further).
template <class Scalar, int J>
struct CentreRingReader3 {
  const Scalar* p;

  template <int D0, int D1, int D2>
  __device__ __forceinline__ Scalar get() const {
    static_assert(D0 == 0 && D1 == 0 && D2 == 0, "EbisuKokkos: a centre_only field is read at the cell only");
    return p[J * sm3d_threads];
  }
};

// eval(state level 0 .. NQ-1, read-only field 0 .. NF-1).
template <class Eval, class Level, class Reader, int... Q, std::size_t... F>
__device__ __forceinline__ auto evaluate_stage(const Eval& eval, const Level& level, std::integer_sequence<int, Q...>,
                                               const Reader& reader, std::index_sequence<F...>) {
  return eval(level(std::integral_constant<int, Q>{})..., reader(std::integral_constant<int, static_cast<int>(F)>{})...);
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
  StreamedAxis z_planes;  // the planes that stand in for those beyond the z sides
};

// T: the depth of this instantiation. NF: read-only fields; NS state fields
// of NL levels (one field of one level: src -> dst; otherwise the other levels
// in `state`, and every field has a window and a queue per stream).
// AddOut: the output is the last level's value plus one more array
// (fields.data[NF], the fields' strides; the source term's precomputed
// response, SmTiling3D::run), streamed through the input ring T (R+1) planes
// behind the input plane, so no level holds it (as in ebisu_2d.hpp).
template <class Tr, class Eval, class Scalar, int R, int K, int T, bool Right, bool Mapped, int NF, unsigned QueueMask,
          unsigned RingMask = 0u, int NS = 1, int NL = 1, bool OlderAround = true, bool AddOut = false>
__global__ void __launch_bounds__(sm3d_threads, 1)
    ebisu3d_kernel(const Eval eval, const Scalar* __restrict__ src, Scalar* __restrict__ dst, const Geometry g,
                   const FieldPointers3<Scalar, NF + (AddOut ? 1 : 0)> fields,
                   const StateLevels3<Scalar, NS * NL> state) {
  constexpr int NQ = NS * NL;                 // state levels read
  constexpr int NQF = count_bits(QueueMask);  // fields streamed through shared-memory queues
  constexpr int NRF = count_bits(RingMask);   // centre-only fields in thread-private rings
  static_assert((QueueMask & RingMask) == 0u, "EbisuKokkos: a field is queued or ringed, not both");
  static_assert(!AddOut || NQ == 1, "EbisuKokkos: an added output array is for one state field of one level");
  constexpr int NRING = NQ + (AddOut ? 1 : 0);  // input ring levels: the state's, then the addend
  constexpr int CY = Sm3dShape<T, R, K, NQF + NRF, NQ>::cells_y;
  static_assert(T * R <= StreamedAxis::kOverhang, "EbisuKokkos: ebisu3d_kernel streams further beyond a side than StreamedAxis resolves");
  constexpr int TX = Sm3dShape<T, R, K, NQF + NRF, NQ>::threads_x;
  constexpr int TY = sm3d_threads / TX;
  constexpr int PX = TX + 2 * R;
  using Streams = Sm3dStreams<R, K, T, NL, OlderAround>;
  constexpr int Q = Streams::queue;       // 2K + 2 for one level
  constexpr int W = Streams::window;      // 2R + 1 for one level
  constexpr int NSTR = Streams::per_field;  // T for one level
  constexpr bool PS = Tr::partial_sums;
  static_assert(!PS || NQ == 1, "EbisuKokkos: partial sums are for one linear field");
  constexpr int P = Sm3dPrefetch<PS, NQ>::planes;
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
  // Stream k of field f (stream k = level k's input for one level).
  auto queue_of = [&](int k, int f) { return smem + (k * NS + f) * queue_stride; };
  Scalar* const ring = smem + NSTR * NS * queue_stride;
  // This thread's cell 0 in a queue plane (tile-local (lx, ly*CY) plus the pad).
  const int base = (R + ly * CY) * PX + R + lx;
  const int raw_base = PS ? (ly + 1) * 2 * R * PX + R + lx : base;
  constexpr int FQ = NQF > 0 ? Sm3dFieldQueue<T, R, P>::planes : 1;  // planes per field queue
  Scalar* const field_queue = ring + NRING * (P + 1) * CY * sm3d_threads;
  // Centre rings: FR planes of the thread's CY cells per field, thread-private
  // (element (plane * CY + j) * sm3d_threads + tid: conflict-free).
  constexpr int FR = NRF > 0 ? Sm3dCentreRing<T, R, P>::planes : 1;
  constexpr int RP = CY * sm3d_threads;  // elements per ring plane (ring offsets are kept in elements)
  Scalar* const centre_ring = field_queue + NQF * FQ * plane + tid;

  // Zero the queues once: the pads (R around the tile) are never written.
  for (int i = tid; i < NSTR * NS * queue_stride; i += sm3d_threads) smem[i] = Scalar(0);
  for (int i = tid; i < NQF * FQ * plane; i += sm3d_threads) field_queue[i] = Scalar(0);
  for (int i = 0; i < NRF * FR * CY; ++i) centre_ring[i * sm3d_threads] = Scalar(0);
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
    // Mapped: cells more than T R beyond the tile's last output cell feed no
    // output and are not loaded (beyond a periodic or mirror side, the last
    // tile's overhang would load up to a tile of wrapped cells per plane).
    const int x_need = Mapped ? (outx0 + g.ox < g.nx ? outx0 + g.ox : g.nx) + T * R : g.nx;
    const int y_need = Mapped ? (outy0 + g.oy < g.ny ? outy0 + g.oy : g.ny) + T * R : g.ny;
    const bool x_in = g.x.loadable(gx) && gx < x_need;
    const bool x_bnd = g.x.frame(gx);
    const bool x_out = gx >= outx0 && gx < outx0 + g.ox && gx < g.nx;
    bool y_in[CY], bnd[CY], out_ok[CY];
    // Mapped: the cells each load reads, resolved through the rules once per
    // piece (per plane, the rule's loop in the plane loop made the periodic
    // poisson kernel execute 17% more instructions; H200 2026-11-28).
    int y_src[CY];
    const int x_src = Mapped && x_in ? g.x.source(gx) : gx;
#pragma unroll
    for (int j = 0; j < CY; ++j) {
      const int y = gy0 + j;
      y_in[j] = g.y.loadable(y) && y < y_need;
      bnd[j] = x_bnd || g.y.frame(y);
      out_ok[j] = x_out && y >= outy0 && y < outy0 + g.oy && y < g.ny;
      y_src[j] = Mapped ? (y_in[j] ? g.y.source(y) : 0) : y;
    }
    const FieldIndex3<R, CY, Mapped> field_index(g, gx, gy0);
    // Planes beyond a fixed face are not loaded (the frame keeps its value).
    const int z_start = seg0 - T * R > 0 || g.z.lo != Boundary::fixed ? seg0 - T * R : 0;
    const int z_end = seg1 + T * R < g.nz || g.z.hi != Boundary::fixed ? seg1 + T * R : g.nz;
    const long mapped_column = static_cast<long>(x_in ? x_src : 0) * g.ssx + static_cast<long>(y_src[0]) * g.ssy;
    long mapped_row[CY];  // cell j's row offset from cell 0's (j ssy inside the y sides)
#pragma unroll
    for (int j = 0; j < CY; ++j) mapped_row[j] = static_cast<long>(y_src[j] - y_src[0]) * g.ssy;

    // win[f][k]: the last W planes of field f's stream k at the thread's cells.
    Scalar win[NS][NSTR][CY][W];
    Scalar acc[T][CY];  // partial sums: the own-column part of the next output plane of each level
#pragma unroll
    for (int s = 0; s < T; ++s)
#pragma unroll
      for (int j = 0; j < CY; ++j) acc[s][j] = Scalar(0);
#pragma unroll
    for (int f = 0; f < NS; ++f)
#pragma unroll
      for (int k = 0; k < NSTR; ++k)
#pragma unroll
        for (int j = 0; j < CY; ++j)
#pragma unroll
          for (int d = 0; d < W; ++d) win[f][k][j][d] = Scalar(0);

    // Input level q's ring (q = f * NL + l).
    auto ring_at = [&](int q, int slot, int j) { return ring + ((q * (P + 1) + slot) * CY + j) * sm3d_threads + tid; };
    const long col = static_cast<long>(gx) * g.ssx + static_cast<long>(gy0) * g.ssy;
    // Input plane z of every level into ring slot `slot`, of every queued field into queue plane
    // `field_slot` (the padded tile's layout) and of every ringed field into its centre ring at
    // `ring_slot` (the thread's own cells).
    auto request = [&](int z, int slot, int field_slot, int ring_slot) {
      if constexpr (NQF + NRF > 0) {
        const long fz = static_cast<long>(Mapped ? g.z_planes.source(z < z_end ? z : 0) : z) * g.fsz;
        const long fx = Mapped ? (x_in ? x_src : 0) : gx;
        static_for<NF>([&](auto F_) {
          constexpr int f = decltype(F_)::value;
          constexpr bool ringed = ((RingMask >> f) & 1u) != 0;
          if constexpr (ringed || ((QueueMask >> f) & 1u) != 0) {
            constexpr int k = count_bits((ringed ? RingMask : QueueMask) & ((1u << f) - 1u));
            Scalar* const to = ringed ? centre_ring + k * FR * RP + ring_slot
                                      : field_queue + (k * FQ + field_slot) * plane + base;
            constexpr int cell_stride = ringed ? sm3d_threads : PX;
#pragma unroll
            for (int j = 0; j < CY; ++j) {
              const bool valid = z < z_end && x_in && y_in[j];
              const long fy = y_src[j];
              async_copy_or_zero(to + j * cell_stride, valid ? fields.data[f] + fz + fy * g.fsy + fx : fields.data[f],
                                 valid);
            }
          }
        });
      }
      if constexpr (AddOut) {  // the output plane of the iteration that reads this slot (a stored cell's own)
        const int ze = z - T * (R + 1);
#pragma unroll
        for (int j = 0; j < CY; ++j) {
          const bool stored = ze >= 0 && ze < g.nz && out_ok[j];
          const Scalar* a = fields.data[NF];
          async_copy_or_zero(ring_at(NQ, slot, j),
                             stored ? a + static_cast<long>(ze) * g.fsz + static_cast<long>(gy0 + j) * g.fsy + gx : a,
                             stored);
        }
      }
      if constexpr (!Mapped) {
        const long at = col + static_cast<long>(z) * g.ssz;
#pragma unroll
        for (int j = 0; j < CY; ++j) {
          const bool valid = z < z_end && x_in && y_in[j];
#pragma unroll
          for (int q = 0; q < NQ; ++q) {
            const Scalar* level = q == 0 ? src : state.in[q];
            async_copy_or_zero(ring_at(q, slot, j), valid ? level + at + j * g.ssy : src, valid);
          }
        }
      } else {
        // Planes beyond a z side are looked up (|z - inside| <= T R); planes from z_end on are not loaded.
        const int zs = g.z_planes.source(z < z_end ? z : 0);
        const long column = static_cast<long>(zs) * g.ssz + mapped_column;
#pragma unroll
        for (int j = 0; j < CY; ++j) {
          const bool valid = z < z_end && x_in && y_in[j];
          const long at = column + mapped_row[j];
#pragma unroll
          for (int q = 0; q < NQ; ++q) {
            const Scalar* level = q == 0 ? src : state.in[q];
            async_copy_or_zero(ring_at(q, slot, j), valid ? level + at : src, valid);
          }
        }
      }
      async_commit();
    };
    for (int p = 0; p < P; ++p) request(z_start + p, p, p, p * RP);
    // The field queue plane of input plane z_start + it: it mod FQ, kept by
    // increments; its centre ring plane's offset: (it mod FR) RP (a compare
    // and a select per level, no multiply).
    int field_now = 0;
    int ring_now = 0;

    const int n_iter = seg1 - z_start + T * (R + 1);
    constexpr int plane_unroll = Tr::unroll_planes && NQ == 1 && NF == 0 ? W : 1;
#pragma unroll plane_unroll
    for (int it = 0; it < n_iter; ++it) {
      // Queue planes stored in iterations it + 1 + e - Q (e = 0 .. Q - 2, oldest
      // first); one level: planes c-K..c+K of the previous level.
      int slot[Q - 1];
#pragma unroll
      for (int e = 0; e < Q - 1; ++e) slot[e] = ((it + 1 + e) % Q) * raw_plane;
      const int wslot = (it % Q) * raw_plane + raw_base;
      [[maybe_unused]] const Scalar* const ring_current = centre_ring + ring_now;
      const int sums = Q * raw_plane + base;  // the partial-sum planes

      // The newest plane of field f's stream k (a level's output or an input
      // level) into the window, then what other threads need of it into shared memory.
      auto push = [&](auto F_, auto K_, const auto& plane_values) {  // Scalar[CY]
        constexpr int f = decltype(F_)::value;
        constexpr int k = decltype(K_)::value;
        auto& w = win[f][k];
#pragma unroll
        for (int j = 0; j < CY; ++j) {
#pragma unroll
          for (int d = 0; d < W - 1; ++d) w[j][d] = w[j][d + 1];
          w[j][W - 1] = plane_values[j];
        }
        Scalar* const queue = queue_of(k, f);
        static_for<CY>([&](auto J_) {
          constexpr int j = decltype(J_)::value;
          if constexpr (!PS) {
            queue[wslot + j * PX] = w[j][W - 1 - R + K];
          } else if constexpr (j < R || j >= CY - R) {  // only edge cells are read raw
            constexpr int e = j < R ? j : j - CY + 2 * R;
            queue[wslot + e * PX] = w[j][W - 1 - R + K];
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
                const Scalar term = eval.coefficients[p] * w[jj][R + PointAt3<Tr, p>::dz];
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
                queue[sums + ExportPlane3<Tr, d>::index * plane + j * PX] = ex[R + d];
              }
            });
          }
        });
      };

      // All levels compute first (registers only), then all store.
      Scalar out[NS][T][CY];
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
        // Centre rings: the plane of field plane c (before z_start: the pipeline fill, never stored),
        // s (R+1) planes before the current one: a compare and a select of two constants per level.
        [[maybe_unused]] const Scalar* ring_at_level = nullptr;
        if constexpr (NRF > 0) {
          constexpr int back = s * (R + 1) * RP;
          ring_at_level = ring_current + (ring_now < back ? FR * RP - back : -back);
        }
        [[maybe_unused]] const Scalar* q = queue_of(s - 1, 0) + raw_base;  // partial sums
        static_for<CY>([&](auto J_) {
          constexpr int j = decltype(J_)::value;
          if constexpr (PS) {
            // Own column part, the x-neighbours' partial sums (cell x reads
            // the sum of offset d from the thread at x + d), and the points
            // in other thread rows raw.
            Scalar v = acc[s - 1][j];
            const Scalar* in = queue_of(s - 1, 0) + sums + j * PX;
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
            out[0][s - 1][j] = (z_bnd || bnd[j]) ? win[0][s - 1][j][R] : v;
          } else {
            // Level Q of the state (field Q / NL, level Q % NL) as level s reads it.
            const auto level = [&](auto Q_) {
              using Read = StreamRead3<Tr, T, NL, OlderAround, Scalar, Right, CY, PX, j, s, decltype(Q_)::value>;
              return typename Read::Accessor{win[Read::field][Read::stream], queue_of(Read::stream, Read::field) + base,
                                             slot};
            };
            // Field f's reader: its queue, its centre ring, or the read-only data cache.
            const auto reader = [&](auto F_) {
              constexpr int f = decltype(F_)::value;
              if constexpr (((RingMask >> f) & 1u) != 0) {
                constexpr int rk = count_bits(RingMask & ((1u << f) - 1u));
                return CentreRingReader3<Scalar, j>{ring_at_level + rk * FR * RP};
              } else if constexpr (((QueueMask >> f) & 1u) != 0) {
                constexpr int qk = count_bits(QueueMask & ((1u << f) - 1u));
                return FieldQueueReader3<Scalar, R, PX, Right, j>{field_queue + qk * FQ * plane + base, fslot};
              } else {
                return FieldReader3<Scalar, R, CY, Right, Mapped, j>{fields.data[f], field_index, field_plane};
              }
            };
            const auto v = evaluate_stage(eval, level, std::make_integer_sequence<int, NQ>{}, reader,
                                          std::make_index_sequence<NF>{});
            // Frame cells keep each field's newest level.
#pragma unroll
            for (int f = 0; f < NS; ++f) {
              out[f][s - 1][j] =
                  (z_bnd || bnd[j]) ? win[f][s - 2 + NL][j][W - 1 - R] : static_cast<Scalar>(component(v, f));
            }
          }
        });
      });
      // One buffer of partial sums: everybody has read it before it is rewritten.
      if constexpr (PS) __syncthreads();
      static_for<T - 1>([&](auto S_) {  // levels 1 .. T-1 (streams NL .. NL+T-2); the deepest is stored
        constexpr int s = decltype(S_)::value + 1;
        static_for<NS>([&](auto F_) {
          push(F_, std::integral_constant<int, s - 1 + NL>{}, out[decltype(F_)::value][s - 1]);
        });
      });

      // Input plane z_start+it (requested P iterations ago) of level l of
      // field f into stream NL-1-l.
      async_wait<P - 1>();
      static_for<NQ>([&](auto Q_) {
        constexpr int q = decltype(Q_)::value;
        Scalar pf[CY];
#pragma unroll
        for (int j = 0; j < CY; ++j) pf[j] = *ring_at(q, it % (P + 1), j);
        push(std::integral_constant<int, q / NL>{}, std::integral_constant<int, NL - 1 - q % NL>{}, pf);
      });
      {
        const int field_next = field_now + P < FQ ? field_now + P : field_now + P - FQ;
        const int ring_next = ring_now + P * RP < FR * RP ? ring_now + P * RP : ring_now + P * RP - FR * RP;
        request(z_start + it + P, (it + P) % (P + 1), field_next, ring_next);
      }

      // The new levels: level l from step T - l (levels l >= T are the
      // launch's input levels, already in place).
      static_for<(T < NL ? T : NL)>([&](auto L_) {
        constexpr int l = decltype(L_)::value;
        const int c = z_start + it - (T - l) * (R + 1);
        if (c >= seg0 && (l == 0 || c < seg1)) {
          const long at = static_cast<long>(gx) * g.dsx + static_cast<long>(gy0) * g.dsy + static_cast<long>(c) * g.dsz;
#pragma unroll
          for (int f = 0; f < NS; ++f) {
            const int q = f * NL + l;
            Scalar* d = (q == 0 ? dst : state.out[q]) + at;
#pragma unroll
            for (int j = 0; j < CY; ++j) {
              Scalar v = out[f][T - 1 - l][j];
              if constexpr (AddOut) v += *ring_at(NQ, it % (P + 1), j);
              if (out_ok[j]) d[j * g.dsy] = v;
            }
          }
        }
      });
      field_now = field_now + 1 < FQ ? field_now + 1 : 0;
      ring_now = ring_now + RP < FR * RP ? ring_now + RP : 0;
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

// NS state fields of NL levels; FieldKinds: for NS x NL > 1 the NS * NL - 1
// other state fields and levels (state_ring.hpp) before the read-only fields.
template <class Stencil, class Scalar, bool Right, int Depth, int NS, int NL, class... FieldKinds>
struct Kernel {
  static constexpr int depth = Depth;
  static constexpr int R = Stencil::radius;
  static constexpr int K = Traits<Stencil, Right>::K;
  static constexpr int other_levels = NS * NL - 1;
  static constexpr int read_only = static_cast<int>(sizeof...(FieldKinds)) - other_levels;
  static_assert(read_only >= 0, "EbisuKokkos: ebisu3d needs a kind for every other state field and level");
  static constexpr unsigned queue_mask = field_queue_mask<other_levels, FieldKinds...>();
  static constexpr unsigned ring_mask = centre_ring_mask<other_levels, FieldKinds...>();
  using Eval = decltype(std::declval<const Stencil&>().template bind<Scalar, FieldKinds...>());
  /// Mapped: the instantiation whose loads go through periodic / mirror rules; AddOut: the one that adds
  /// one more array to its output (ebisu3d_kernel).
  template <bool Mapped = false, bool AddOut = false>
  static constexpr auto function() {
    return &ebisu3d_kernel<Traits<Stencil, Right>, Eval, Scalar, R, K, Depth, Right, Mapped, read_only, queue_mask,
                           ring_mask, NS, NL, reads_older_levels_around<NS, NL, FieldKinds...>(), AddOut>;
  }
};

// The depths compiled with an added output array (SourceForm::response): a
// launch of one or two steps saves too little to repay the response's own
// launch, and at depth 3 the 7-point kernel with the array spills 4-16 B at the
// 128-register bound (ptxas, sm_90).
template <int T>
constexpr bool response_depth = T >= 4;
// The response form's launch costs (ResponseCosts), fitted to calls at several intervals (H200, fp64,
// j3d7pt 2560x288x384, depth 4): L's own launch 3.34 ms, the source kernel's 5.2 (its per-level ring
// reads issue more than the model counts), the adding kernel's 4.2 (30 bytes per owned cell to 22: the
// tile reads 1.78x the cells it owns).
constexpr ResponseCosts kResponseCosts{0.56, 0.26};
// SourceForm::automatic takes the response form from this many launches of the main depth on (and where
// the schedule is predicted cheaper than the source at every step).
constexpr long kResponseMinLaunches = 12;

// The depths compiled for a state of NQ levels (bit d: depth d). Several
// fields or levels: a check build compiles the deepest only (the shallow
// depths are the same code with fewer windows).
template <class Stencil, bool Right>
constexpr unsigned depth_mask(int nq) {
  constexpr int maxd = Traits<Stencil, Right>::max_depth;
  return compiled_depths((1u << (maxd + 1)) - 2u, maxd, nq > 1);
}

// Calls go(kernel) with the instantiation of depth `depth` (for the state and the fields' kinds).
template <class Stencil, class Scalar, bool Right, int NS = 1, int NL = 1, class Go, class... FieldKinds>
void dispatch_depth(int depth, Go&& go, FieldKindList<FieldKinds...> = {}) {
  constexpr unsigned mask = depth_mask<Stencil, Right>(NS * NL);
  bool done = false;
  auto one = [&](auto D) {
    constexpr int d = decltype(D)::value;
    if constexpr (((mask >> d) & 1u) != 0) {
      if (depth == d) {
        go(Kernel<Stencil, Scalar, Right, d, NS, NL, FieldKinds...>{});
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
// the plan against the other strategies (ebisu_cuda_backend.hpp). NS state
// fields of NL levels (state.hpp); FieldKinds: for NS x NL > 1 the NS * NL - 1
// other state fields and levels before the read-only fields' kinds.
template <class Stencil, class ViewType, int NS, int NL, class... FieldKinds>
struct SmTiling3D {
  using Scalar = typename ViewType::non_const_value_type;
  static constexpr bool right = std::is_same_v<typename ViewType::array_layout, Kokkos::LayoutRight>;
  static constexpr int R = Stencil::radius;
  static constexpr int NQ = NS * NL;                                          // state levels
  static constexpr int NE = NQ - 1;                                           // other state fields and levels
  static constexpr int NRO = static_cast<int>(sizeof...(FieldKinds)) - NE;  // read-only fields
  static_assert(NRO >= 0, "EbisuKokkos: SmTiling3D needs a kind for every other state field and level");
  static constexpr int NQF = ebisu3d::count_bits(ebisu3d::field_queue_mask<NE, FieldKinds...>());
  static constexpr int NRF = ebisu3d::count_bits(ebisu3d::centre_ring_mask<NE, FieldKinds...>());
  using Tr = ebisu3d::Traits<Stencil, right>;
  static constexpr int ix = right ? 2 : 0, iz = right ? 0 : 2;
  static constexpr ebisu3d::FieldKindList<FieldKinds...> kinds{};
  /// A linear stencil plus a source (with_source) on one field: the response form may run (SourceForm).
  static constexpr bool source_response = LinearPlusSource<Stencil>::value && NQ == 1 && NRO == 1;
  /// The source-free kernels of the response form.
  using LinearTiling = SmTiling3D<typename LinearPartOf<Stencil>::type, ViewType, 1, 1>;
  /// Where the response form keeps g (SourceForm::response).
  using ResponseView = Kokkos::View<Scalar***, typename ViewType::array_layout, typename ViewType::memory_space>;

  struct Plan {
    bool valid = false;
    std::string why_not;
    PlanSM3D sm;
    SmTileShape3D shapes[Tr::max_depth + 1];
    double predicted_seconds = 0;
    double interior_cells = 0;
    int deeper_depth = 0;  ///< PlanSM3D::deeper_depth
    /// SourceForm::response (smem_bytes 0: the per-step form runs): the shapes of the source-free
    /// kernel's launches of the main depth, adding the response and not (own), and their schedules
    /// (built by the call, or kept by the policy: run_response claims one); own_shapes: the source-free
    /// kernel's of every depth (a whole-call response runs the others' launches with it).
    SmTileShape3D response, own;
    std::vector<SmTileShape3D> own_shapes;
    ResponseChoice schedules;
    std::vector<int> tail_depths() const {  // the launches of other depths than the response's
      std::vector<int> depths;
      for (const int depth : sm.launch_depths) {
        if (depth != response.depth) depths.push_back(depth);
      }
      return depths;
    }
  };

  /// The shape of one launch of `depth` steps of this source-free one-field
  /// kernel that also adds one array to its output (SourceForm::response), its
  /// shared memory set and its occupancy measured; smem_bytes 0 where it cannot run.
  static SmTileShape3D response_shape(const StencilPolicy<Kokkos::Cuda>& policy, int depth) {
    SmTileShape3D shape{};
    shape.smem_bytes = 0;
    if constexpr (NQ == 1 && NRO == 0) {
      const DeviceModel& dm = device_model(policy.space().cuda_device());
      const bool mapped = !policy.boundaries().all_fixed();
      constexpr unsigned compiled = ebisu3d::depth_mask<Stencil, right>(1);
      ebisu3d::dispatch_depth<Stencil, Scalar, right>(depth, [&](auto k) {
        using KernelOfDepth = decltype(k);
        constexpr int d = KernelOfDepth::depth;
        if constexpr (ebisu3d::response_depth<d> && ((compiled >> d) & 1u) != 0) {
          shape = sm_tile_shape_3d(d, R, Tr::K, static_cast<int>(sizeof(Scalar)), Tr::export_planes);
          if constexpr (Tr::partial_sums) shape.smem_accesses_per_cell = Tr::partial_sum_accesses(shape.cells_y);
          // The addend's ring beside the input's; read once per launch.
          shape.smem_bytes += static_cast<long>(Sm3dPrefetch<Tr::partial_sums, 1>::planes + 1) * shape.cells_y *
                              sm3d_threads * static_cast<long>(sizeof(Scalar));
          shape.read_only_fields = 1;
          shape.field_reads_per_cell = 1.0 / d;
          if (shape.smem_bytes > dm.smem_per_block_bytes) {
            shape.smem_bytes = 0;
            return;
          }
          const char* kname = "ebisu3d_kernel";
          for (const auto kernel : {KernelOfDepth::template function<false, true>(), KernelOfDepth::template function<true, true>()}) {
            EBISU_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                  static_cast<int>(shape.smem_bytes)),
                             kname);
          }
          const auto kernel = mapped ? KernelOfDepth::template function<true, true>()
                                     : KernelOfDepth::template function<false, true>();
          int per_sm = 0;
          EBISU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, sm3d_threads,
                                                                         static_cast<std::size_t>(shape.smem_bytes)),
                           kname);
          cudaFuncAttributes a{};
          EBISU_CUDA_CHECK(cudaFuncGetAttributes(&a, kernel), kname);
          if (per_sm < 1 || a.localSizeBytes > 0) shape.smem_bytes = 0;
          shape.blocks_per_sm = per_sm < 1 ? 1 : per_sm;
        }
      });
    }
    return shape;
  }

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
                                      policy.steps(), PolicyAccess::copy_back_free(policy));
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

  /// Why run_state cannot take these buffers (empty: it can).
  static std::string state_refusal(const std::array<ViewType, NS*(NL + 1)>& ring) { return level_pool_refusal(ring); }

  /// The read-only fields' loads per cell update: a field read over the footprint its distinct
  /// shared-memory loads, a centre-only field one L1 load.
  static double field_reads_per_cell(int cells_y) {
    double reads = 0;
    int k = 0;
    ((reads += k++ < NE ? 0.0 : (FieldKinds::centre_only ? 1.0 : Tr::footprint_reads_per_cell(cells_y))), ...);
    return reads;
  }

  /// fields: the call's read-only fields (FieldViews of NRO kinds, NoFields when there are none).
  template <class FieldSet = NoFields>
  static Plan plan(const StencilPolicy<Kokkos::Cuda>& policy, const ViewType& u, const FieldSet& fields = FieldSet{}) {
    static_assert(FieldSet::size == NRO, "EbisuKokkos: SmTiling3D planned with another set of fields");
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
    const bool mapped = !policy.boundaries().all_fixed();
    constexpr unsigned compiled = ebisu3d::depth_mask<Stencil, right>(NQ);
    // Compiled shapes with their real occupancy (shared memory set first).
    SmTileShape3D* shapes = plan.shapes;
    for (int t = 1; t <= Tr::max_depth; ++t) {
      if (((compiled >> t) & 1u) == 0) continue;  // (smem_bytes 0: not usable)
      shapes[t] = sm_tile_shape_3d(t, R, Tr::K, static_cast<int>(sizeof(Scalar)), Tr::export_planes, NQF, NS, NL,
                                   reads_older_levels_around<NS, NL, FieldKinds...>(), NRF);
      if constexpr (Tr::partial_sums) shapes[t].smem_accesses_per_cell = Tr::partial_sum_accesses(shapes[t].cells_y);
      shapes[t].read_only_fields = NRO;
      shapes[t].field_reads_per_cell = field_reads_per_cell(shapes[t].cells_y);
      if (shapes[t].smem_bytes > dm.smem_per_block_bytes) {
        shapes[t].smem_bytes = 0;
        continue;
      }
      ebisu3d::dispatch_depth<Stencil, Scalar, right, NS, NL>(t, [&](auto k) {
        using KernelOfDepth = decltype(k);
        // Both instantiations (fixed frames, mapped loads) take the shape's shared memory.
        for (const auto kernel : {KernelOfDepth::template function<false>(), KernelOfDepth::template function<true>()}) {
          EBISU_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                static_cast<int>(shapes[t].smem_bytes)),
                           kname);
        }
        // The instantiation that runs: the mapped one may take more registers (fewer blocks per SM).
        const auto kernel = mapped ? KernelOfDepth::template function<true>() : KernelOfDepth::template function<false>();
        int per_sm = 0;
        EBISU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, sm3d_threads,
                                                                       static_cast<std::size_t>(shapes[t].smem_bytes)),
                         kname);
        if (per_sm < 1) shapes[t].smem_bytes = 0;  // cannot run: not usable
        shapes[t].blocks_per_sm = per_sm < 1 ? 1 : per_sm;
        if constexpr (NRO > 0 || NQ > 1) {
          // With fields or several levels, a depth that spills its register windows to local memory is
          // not planned.
          cudaFuncAttributes a{};
          EBISU_CUDA_CHECK(cudaFuncGetAttributes(&a, kernel), kname);
          if (t > 1 && a.localSizeBytes > 0) shapes[t].smem_bytes = 0;
        }
        if constexpr (NRO > NQF + NRF) {
          // Centre-only fields outside the rings are read through L1: leave it what the blocks' shared
          // memory does not need (by default the driver may give shared memory the whole carveout, and
          // every level's field reads then go to L2).
          const long per_sm_bytes = static_cast<long>(shapes[t].blocks_per_sm) * (shapes[t].smem_bytes + 1024);
          const int percent = static_cast<int>(std::min<long>(
              100, (100 * per_sm_bytes + dm.smem_per_sm_bytes - 1) / std::max<long>(1, dm.smem_per_sm_bytes)));
          for (const auto f : {KernelOfDepth::template function<false>(), KernelOfDepth::template function<true>()}) {
            EBISU_CUDA_CHECK(cudaFuncSetAttribute(f, cudaFuncAttributePreferredSharedMemoryCarveout, percent), kname);
          }
        }
      }, kinds);
    }
    plan.sm = choose_plan_3d_sm(dm, sm, nz, ny, nx, steps, policy.knobs(), shapes, Tr::max_depth,
                                PolicyAccess::copy_back_free(policy));
    plan.valid = plan.sm.valid;
    if (!plan.valid) plan.why_not = "no SM tiling fits";
    plan.predicted_seconds = plan.sm.predicted_seconds;
    if constexpr (source_response) {
      // The response form (SourceForm, impl/source_response.hpp): g_{nd} from n launches of the source
      // kernel of the main depth d from zero, then groups of n launches of depth d, L's own kernel with the
      // last adding g_{nd}.
      const int d = plan.sm.depth;
      const long launches_of_d = std::count(plan.sm.launch_depths.begin(), plan.sm.launch_depths.end(), d);
      if (plan.valid && policy.knobs().source_form != SourceForm::per_step && launches_of_d > 0) {
        const SmTileShape3D response = LinearTiling::response_shape(policy, d);
        const auto linear_plan = LinearTiling::plan(policy, u);
        const SmTileShape3D own = linear_plan.shapes[d];
        if (response.smem_bytes > 0 && own.smem_bytes > 0) {
          const StencilModel linear = stencil_model<typename LinearPartOf<Stencil>::type>(static_cast<int>(sizeof(Scalar)));
          // The launches of other depths (the tail), with the source and source-free (a whole-call response).
          ResponseTail tail;
          tail.own_seconds = 0;
          std::vector<int> tail_depths;
          for (const int depth : plan.sm.launch_depths) {
            if (depth == d) continue;
            ++tail.launches;
            tail_depths.push_back(depth);
            tail.source_seconds += predict_sm_launch_seconds_3d(dm, sm, nz, ny, nx, plan.shapes[depth]);
            const SmTileShape3D& o = linear_plan.shapes[depth];
            if (o.smem_bytes <= 0) tail.own_seconds = -1;
            if (tail.own_seconds >= 0) tail.own_seconds += predict_sm_launch_seconds_3d(dm, linear, nz, ny, nx, o);
          }
          KeptResponse& kept_response = PolicyAccess::kept_response(policy);
          const ResponseSpan kept = kept_response.kept_span(d);
          const KeptResponse::LoopLength loop = kept_response.loop_length(steps);
          const ResponseChoice schedules = choose_response(
              launches_of_d, predict_sm_launch_seconds_3d(dm, linear, nz, ny, nx, own), ebisu3d::kResponseCosts,
              static_cast<double>(nx) * ny * nz * sizeof(Scalar), policy.knobs().source_form == SourceForm::response,
              policy.knobs().response_interval,
              KeptState{kept.interval, !kept.folded.empty() && kept.folded == tail_depths, loop.calls,
                        loop.calls_of_these_steps},
              ebisu3d::kResponseMinLaunches, tail);
          if (schedules.any()) {
            plan.response = response;
            plan.own = own;
            plan.own_shapes.assign(std::begin(linear_plan.shapes), std::end(linear_plan.shapes));
            plan.schedules = schedules;
          }
          if (schedules.per_call.interval > 0) {
            plan.predicted_seconds += schedules.per_call.seconds - tail.source_seconds -
                                      launches_of_d * predict_sm_launch_seconds_3d(dm, sm, nz, ny, nx, plan.shapes[d]);
          }
        }
      }
    }
    plan.deeper_depth = plan.sm.deeper_depth;
    plan.interior_cells = static_cast<double>(nx - 2 * R) * (ny - 2 * R) * (nz - 2 * R);
    return plan;
  }

  /// One field on (u, scratch); fields: the read-only fields (NoFields when there are none). The
  /// outcome says which of the two holds step T.
  template <class FieldSet = NoFields>
  static StencilOutcome run(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                            const Stencil& stencil, const ViewType& u, const ViewType& scratch, const Plan& plan,
                            const FieldSet& fields = FieldSet{}) {
    static_assert(NQ == 1, "EbisuKokkos: SmTiling3D::run is the single-field form (run_state otherwise)");
    if constexpr (source_response) {
      if (plan.response.smem_bytes > 0) return run_response(label, policy, stencil, u, scratch, plan, fields);
      // (A plan that did not weigh the response form: the loop's length still counts, for the build's share.)
      if (!plan.schedules.any() && policy.knobs().source_form != SourceForm::per_step) {
        count_source_call<ResponseView>(policy, stencil, u);
      }
    }
    const ViewType ends[2] = {u, scratch};
    StencilOutcome outcome = launches(label, policy, stencil, u, plan, fields, [&](int launch, int, Buffers& b) {
      const ViewType& from = ends[launch % 2];
      const ViewType& to = ends[(launch + 1) % 2];
      b.src = from.data();
      b.dst = to.data();
      b.from = from;
      b.to = to;
    });
    outcome.result_in_scratch = outcome.report.launches % 2 == 1;
    return outcome;
  }

  /// Several state fields or levels: the buffers in StateRing order (field f's slot j at
  /// f * (NL + 1) + j, slot 0 its newest level); fields: the read-only fields. On return field f's
  /// level l is in its ring slot T - l (LevelPool: where each launch reads and writes).
  template <class FieldSet>
  static StencilOutcome run_state(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                                  const Stencil& stencil, const std::array<ViewType, NS*(NL + 1)>& ring,
                                  const Plan& plan, const FieldSet& fields) {
    LevelPool<Scalar, typename ViewType::memory_space, NS, NL> pool(ring);
    StencilOutcome outcome = launches(label, policy, stencil, ring[0], plan, fields, [&](int, int depth, Buffers& b) {
      pool.next_launch(depth, b.state.in, b.state.out);
      b.src = b.state.in[0];
      b.dst = b.state.out[0];
      b.from = b.to = ring[0];  // unpadded, one extent: every buffer's strides
    });
    const int copies = pool.settle(policy.steps(), policy.space());
    outcome.report.plan += pool.describe(copies);
    pool.release_after(policy.space());
    return outcome;
  }

 private:
  template <class, class, int, int, class...>
  friend struct SmTiling3D;

  // The depth of each launch of a call of `steps` steps: the plan's (its main depth, then a short tail:
  // choose_plan_3d_sm). A plan of another step count is not run as a wrong number of steps: its own
  // split would differ, so the remainder then takes the deepest usable depths.
  static std::vector<int> launch_depths(const Plan& plan, int steps) {
    if (std::accumulate(plan.sm.launch_depths.begin(), plan.sm.launch_depths.end(), 0) == steps) {
      return plan.sm.launch_depths;
    }
    unsigned usable = 0;
    for (int d = 1; d <= Tr::max_depth; ++d) usable |= plan.shapes[d].smem_bytes > 0 ? 1u << d : 0u;
    return greedy_launch_depths(steps, plan.sm.depth, usable);
  }

  // SourceForm::response (plan.response.smem_bytes > 0; impl/source_response.hpp): g_{nd} from n launches
  // of the source kernel of the main depth d from zero (ping-pong between scratch and the response's
  // buffer, the last into the buffer), then groups of n launches of depth d of the source-free kernel, the
  // last adding g_{nd}; the launches of depth d after the last group and the others the source kernel. A
  // whole-call response (g_T: the others in the set-up too) runs the others first source-free, then one group.
  template <class FieldSet>
  static StencilOutcome run_response(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                                     const Stencil& stencil, const ViewType& u, const ViewType& scratch, const Plan& plan,
                                     const FieldSet& fields) {
    using Response = ResponseView;
    const int d = plan.response.depth;
    // (The plan's launches of this call: a plan of another step count keeps the groups that fit, and
    // no whole-call response.)
    const std::vector<int> depths = launch_depths(plan, policy.steps());
    const std::vector<int> tail_depths = plan.tail_depths();
    const auto span = [&](const ResponseSchedule& schedule) {
      return schedule.whole_call && depths != plan.sm.launch_depths ? ResponseSpan{} : span_of(schedule, tail_depths);
    };
    const ResponseClaim<Response> claim = claim_source_response<Response>(policy, stencil, u, fields, d,
                                                                          span(plan.schedules.per_call),
                                                                          span(plan.schedules.kept));
    if (!claim.run) {  // the per-step form: the plan without its response
      Plan per_step = plan;
      per_step.response = SmTileShape3D{};
      StencilOutcome outcome = run(label, policy, stencil, u, scratch, per_step, fields);
      outcome.report.plan += "; per step: " + claim.note;
      return outcome;
    }
    const Response& response = claim.response;
    const int n = claim.span.interval;
    const std::vector<int>& folded = claim.span.folded;  // non-empty: g_T of all the call's launches
    // (A view of the response with ViewType's type: the launches take the strides of `from` and `to`.)
    const ViewType g(response.data(), response.layout());
    // Set-up launch j of m writes g if m - 1 - j is even, scratch otherwise; the first reads the other, zeroed.
    const ViewType setup_ends[2] = {g, scratch};
    Plan source = plan;
    if (claim.set_up) {
      source.sm.launch_depths.assign(n, d);
      source.sm.launch_depths.insert(source.sm.launch_depths.end(), folded.begin(), folded.end());
      const int m = static_cast<int>(source.sm.launch_depths.size());
      Kokkos::deep_copy(policy.space(), setup_ends[m % 2], Scalar(0));
      launches(label + ":source-response",
               policy.with_steps(std::accumulate(source.sm.launch_depths.begin(), source.sm.launch_depths.end(), 0)),
               stencil, u, source, fields, [&](int j, int, Buffers& b) {
                 b.from = setup_ends[(m - j) % 2];
                 b.to = setup_ends[(m - 1 - j) % 2];
                 b.src = b.from.data();
                 b.dst = b.to.data();
               });
    }

    const ViewType ends[2] = {u, scratch};
    int done = 0;  // launches of the call so far: the next reads ends[done % 2]
    const auto next = [&](int, int, auto& b) {
      b.from = ends[done % 2];
      b.to = ends[(done + 1) % 2];
      b.src = b.from.data();
      b.dst = b.to.data();
      ++done;
    };
    const auto linear = LinearPlusSource<Stencil>::linear_part(stencil);
    typename LinearTiling::Plan own, adding;
    own.valid = adding.valid = true;
    own.sm = adding.sm = plan.sm;
    for (std::size_t t = 0; t < plan.own_shapes.size() && t < std::size(own.shapes); ++t) {
      own.shapes[t] = plan.own_shapes[t];
    }
    if (!folded.empty()) {  // the tail first, source-free: the call's last launch adds g_T
      own.sm.launch_depths = folded;
      LinearTiling::launches(label, policy.with_steps(std::accumulate(folded.begin(), folded.end(), 0)), linear, u,
                             own, NoFields{}, next);
    }
    own.sm.launch_depths.assign(n - 1, d);
    adding.shapes[d] = plan.response;
    adding.sm.launch_depths.assign(1, d);
    const long of_d = std::count(depths.begin(), depths.end(), d);
    const long groups = of_d / n;
    for (long group = 0; group < groups; ++group) {
      if (n > 1) LinearTiling::launches(label, policy.with_steps((n - 1) * d), linear, u, own, NoFields{}, next);
      LinearTiling::template launches<true>(label, policy.with_steps(d), linear, u, adding, NoFields{}, next,
                                            response.data(), static_cast<long>(response.stride(1)),
                                            static_cast<long>(response.stride(iz)));
    }
    // The rest with the source: depth-d launches after the last group, then the others in the plan's order.
    source.sm.launch_depths.assign(of_d - groups * n, d);
    for (const int depth : depths) {
      if (depth != d && folded.empty()) source.sm.launch_depths.push_back(depth);
    }
    const int rest_steps = std::accumulate(source.sm.launch_depths.begin(), source.sm.launch_depths.end(), 0);
    if (rest_steps > 0) launches(label, policy.with_steps(rest_steps), stencil, u, source, fields, next);

    StencilOutcome outcome;
    StencilReport& report = outcome.report;
    report.backend = Backend::ebisu;
    report.strategy = Strategy::sm_tiling;
    report.launches = done;
    report.temporal_depth = d;
    report.predicted_gcells_per_s =
        plan.predicted_seconds > 0 ? plan.interior_cells * policy.steps() / plan.predicted_seconds * 1e-9 : 0;
    report.plan = describe_response_form(claim.span, d, groups, claim.note, source.sm.launch_depths) + " (tile " +
                  std::to_string(plan.response.tile_x) + " x " + std::to_string(plan.response.tile_y) + ", smem " +
                  std::to_string(plan.own.smem_bytes) + " / " + std::to_string(plan.response.smem_bytes) + " B)";
    outcome.result_in_scratch = done % 2 == 1;
    return outcome;
  }

  struct Buffers {
    const Scalar* src = nullptr;
    Scalar* dst = nullptr;
    ViewType from, to;  // whose strides src and dst have
    ebisu3d::StateLevels3<Scalar, NQ> state{};
  };

  // The call's launches and report; buffers_of(launch, depth, b) points b at the launch's buffers.
  // AddOut: the kernels add `addend` (its y and z strides) to their output (SourceForm::response).
  template <bool AddOut = false, class FieldSet, class BuffersOf>
  static StencilOutcome launches(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                                 const Stencil& stencil, const ViewType& u, const Plan& plan, const FieldSet& fields,
                                 BuffersOf&& buffers_of, const Scalar* addend = nullptr, long addend_sy = 0,
                                 long addend_sz = 0) {
    static_assert(FieldSet::size == NRO, "EbisuKokkos: SmTiling3D run with another set of fields than planned");
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
    ebisu3d::FieldPointers3<Scalar, NRO + (AddOut ? 1 : 0)> field_pointers{};
    long fsy = 0, fsz = 0;
    if constexpr (NRO > 0) {
      for (int k = 0; k < NRO; ++k) field_pointers.data[k] = fields.views[k].data();
      fsy = static_cast<long>(fields.views[0].stride(1));
      fsz = static_cast<long>(fields.views[0].stride(iz));
    }
    if constexpr (AddOut) {
      static_assert(NRO == 0, "EbisuKokkos: the addend takes the fields' strides: a kernel with fields adds none");
      field_pointers.data[NRO] = addend;
      fsy = addend_sy;
      fsz = addend_sz;
    }
    const cudaStream_t stream = policy.space().cuda_stream();
    report.temporal_depth = plan.sm.depth;
    report.predicted_gcells_per_s = plan.sm.predicted_gcells_per_s;
    report.plan = plan.sm.describe();

    Kokkos::Profiling::pushRegion("EbisuKokkos::ebisu3d::" + label);
    const bool mapped = !policy.boundaries().all_fixed();
    for (const int d : launch_depths(plan, steps)) {
      Buffers b;
      buffers_of(report.launches, d, b);
      const SmTileShape3D& sh = plan.shapes[d];
      ebisu3d::Geometry g;
      g.ssx = static_cast<long>(b.from.stride(ix));
      g.ssy = static_cast<long>(b.from.stride(1));
      g.ssz = static_cast<long>(b.from.stride(iz));
      g.dsx = static_cast<long>(b.to.stride(ix));
      g.dsy = static_cast<long>(b.to.stride(1));
      g.dsz = static_cast<long>(b.to.stride(iz));
      g.fsy = fsy;
      g.fsz = fsz;
      g.nx = static_cast<int>(nx);
      g.ny = static_cast<int>(ny);
      g.nz = static_cast<int>(nz);
      g.x = axis_rules(u, policy.boundaries(), ix, R);
      g.y = axis_rules(u, policy.boundaries(), 1, R);
      g.z = axis_rules(u, policy.boundaries(), iz, R);
      if (!policy.boundaries().all_fixed()) g.z_planes = StreamedAxis(g.z);
      g.ox = sh.tile_x - 2 * d * R;
      g.oy = sh.tile_y - 2 * d * R;
      g.tiles_x = static_cast<int>((nx + g.ox - 1) / g.ox);
      const long tiles_y = (ny + g.oy - 1) / g.oy;
      g.plane = (sh.tile_x + 2 * R) * (sh.tile_y + 2 * R);
      g.total = static_cast<long>(g.tiles_x) * tiles_y * nz;
      long blocks = static_cast<long>(dm.sm_count) * sh.blocks_per_sm;
      g.per_block = (g.total + blocks - 1) / blocks;
      blocks = (g.total + g.per_block - 1) / g.per_block;
      ebisu3d::dispatch_depth<Stencil, Scalar, right, NS, NL>(d, [&](auto k) {
        using KernelOfDepth = decltype(k);
        if constexpr (AddOut && !ebisu3d::response_depth<KernelOfDepth::depth>) {
          throw std::logic_error("EbisuKokkos: ebisu3d depth " + std::to_string(d) +
                                 " is not compiled with an added output array");
        } else {
          // The attribute was set for both instantiations when the shapes were measured.
          const auto kernel = mapped ? KernelOfDepth::template function<true, AddOut>()
                                     : KernelOfDepth::template function<false, AddOut>();
          kernel<<<static_cast<unsigned>(blocks), sm3d_threads, static_cast<std::size_t>(sh.smem_bytes), stream>>>(
              eval, b.src, b.dst, g, field_pointers, b.state);
          EBISU_CUDA_CHECK(cudaGetLastError(), "ebisu3d_kernel");
        }
      }, kinds);
      ++report.launches;
    }
    Kokkos::Profiling::popRegion();
    if constexpr (AddOut) return outcome;  // run_response reports (and the plain kernels stay uninstantiated)
    if (NQF > 0) report.plan += "; " + std::to_string(NQF) + " read-only field queue(s) in shared memory";
    if (NRF > 0) {
      report.plan += "; " + std::to_string(NRF) + " centre-only field(s) in per-thread rings in shared memory";
    }
    if (NRO > NQF + NRF) {
      report.plan += "; " + std::to_string(NRO - NQF - NRF) +
                     " centre-only field(s) read through the read-only data cache";
    }
    ebisu3d::dispatch_depth<Stencil, Scalar, right, NS, NL>(plan.sm.depth, [&](auto k) {
      cudaFuncAttributes a{};
      EBISU_CUDA_CHECK(cudaFuncGetAttributes(&a, mapped ? decltype(k)::template function<true>()
                                                        : decltype(k)::template function<false>()),
                       "ebisu3d_kernel");
      report.plan += "; regs/thread " + std::to_string(a.numRegs) +
                     (a.localSizeBytes > 0 ? ", local memory " + std::to_string(a.localSizeBytes) + " B" : "");
    }, kinds);
    return outcome;
  }
};

/// SmTiling3D for the field kinds of a FieldViews (NoFields: none); for
/// several state fields or levels, FieldSet is the step's fields (StepFields).
template <class Stencil, class ViewType, class FieldSet, int NS = 1, int NL = 1>
struct SmTiling3DFor;
template <class Stencil, class ViewType, class ConstView, class... Kinds, int NS, int NL>
struct SmTiling3DFor<Stencil, ViewType, FieldViews<ConstView, Kinds...>, NS, NL> {
  using type = SmTiling3D<Stencil, ViewType, NS, NL, Kinds...>;
};

}  // namespace Cuda
}  // namespace Impl
}  // namespace EbisuKokkos

#endif
