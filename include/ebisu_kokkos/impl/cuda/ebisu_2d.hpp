#ifndef EBISU_KOKKOS_IMPL_CUDA_EBISU_2D_HPP
#define EBISU_KOKKOS_IMPL_CUDA_EBISU_2D_HPP

// The 2-D EBISU CUDA backend: SM tiling with temporal blocking (EBISU paper,
// sections 3-6), one kernel template for every stencil.
//
// A block owns a tile of TW = threads * CX contiguous columns (each thread CX
// adjacent columns) and streams rows along the slow axis. The `t` time steps of
// a launch are `t` pipelined stages: stage s computes step s one row behind
// ((R+1) rows per stage) the stage before it, so every stage of one streamed
// row reads only data written before the row's single __syncthreads (lazy
// streaming). Each thread keeps the last 2R+1 rows of its own columns of every
// stage in registers (redundant register streaming); what other threads need
// goes through shared memory, one plane per value and thread so that every
// access is bank-conflict free: the raw off-column neighbours in a per-stage
// circular queue of 2K+2 rows, or, for linear box-like stencils, one
// double-buffered partial sum per (fast offset, column) (see Traits). Input
// rows are prefetched 3 rows ahead with cp.async into a per-thread ring. The
// fast axis uses overlapped halos (a tile yields TW - 2 t R valid columns);
// the grid is persistent: SMs x blocks-per-SM blocks, each streaming an equal
// run of the strip-major list of rows. Periodic and mirror sides act in the
// loads only (AxisRules): a tile reaching such a side loads the cells beyond
// it through the rule and computes them like its other halo cells. The
// mapped loads are a separate instantiation (Mapped): inlined into the
// fixed-frame kernel they cost the partial-sum kernels 5-8% (instruction
// footprint), out of line (a call) 10-30% (H200, 2026-11-23). A domain with no
// fixed side has no frame: its mapped instantiation drops the frame's per-cell
// selects (Framed; periodic j2d5pt 8352^2 0.89-0.91 -> 1.06 of the fixed
// frame's GCells/s, mirror +30%, H200 2026-11-30).
// Several state fields and time levels (state.hpp) are the same pipeline with
// one register window and row queue per field and stream: stage s reads level
// l of a field from the stream of step s-1-l, whose rows are kept l (R+1)
// rows longer; the last NL stages store the NL new levels. Blocks overlap
// their halos, so a launch's new levels go to buffers no block reads in it
// (SmTiling2D::run_state borrows NL-1 per field for that).
// The plan (depth, tile, grid) comes from performance_model_2d.

#include <ebisu_kokkos/impl/boundary.hpp>
#include <ebisu_kokkos/impl/cuda/cuda_check.hpp>
#include <ebisu_kokkos/impl/cuda/device_helpers.hpp>
#include <ebisu_kokkos/impl/cuda/device_properties.hpp>
#include <ebisu_kokkos/impl/level_pool.hpp>
#include <ebisu_kokkos/impl/ebisu_backend_fwd.hpp>
#include <ebisu_kokkos/impl/fields.hpp>
#include <ebisu_kokkos/impl/performance_model_2d.hpp>
#include <ebisu_kokkos/impl/state_ring.hpp>
#include <ebisu_kokkos/policy.hpp>
#include <ebisu_kokkos/impl/source_response.hpp>
#include <ebisu_kokkos/impl/source_response_claim.hpp>
#include <ebisu_kokkos/stencil.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>
#include <stdexcept>
#include <utility>
#include <vector>

namespace EbisuKokkos {
namespace Impl {
namespace Cuda {
namespace ebisu2d {

constexpr int kMaxThreads = 256;
constexpr int kCols = 2;          // CX: adjacent columns per thread
constexpr int kPrefetchRows = 3;  // input rows in flight per thread (asynchronous copies)
// The depths compiled with an added output array (SourceForm::response):
// shallower launches gain too little per launch to repay the response's
// set-up; at depth 10 the j2d5pt kernel with the array spills (12-24 B) at the
// three-block bound (ptxas, sm_90).
constexpr int kMinResponseDepth = 6;
constexpr int kMaxResponseDepth = 8;
// The response form's launch costs (ResponseCosts), fitted to calls at several intervals (H200, fp64,
// j2d5pt at 8352^2, depth 8): L's own launch 0.52 ms, the source kernel's 0.69, the adding kernel's 0.63.
constexpr ResponseCosts kResponseCosts{0.32, 0.20};
// SourceForm::automatic takes the response form from this many launches of the main depth on (and where
// the schedule is predicted cheaper than the source at every step).
constexpr long kResponseMinLaunches = 12;
template <int T>
constexpr bool response_depth = T >= kMinResponseDepth && T <= kMaxResponseDepth;

// Compile-time facts of a stencil as the 2-D kernel sees it: offsets along
// the streamed (slow) and the fast axis, and how neighbouring threads share
// data through shared memory. (Functions here, constants in Traits below: a
// class's constexpr functions can only be evaluated once the class is complete.)
template <class Stencil, bool SlowIs0>
struct Geometry2D {
  using points = typename Stencil::points;
  static constexpr int R = Stencil::radius;
  static constexpr int CX = kCols;
  static constexpr int ds(int p) { return points::offset(p, SlowIs0 ? 0 : 1); }
  static constexpr int df(int p) { return points::offset(p, SlowIs0 ? 1 : 0); }
  static constexpr bool own_column(int j) { return j >= 0 && j < CX; }

  // Largest |slow offset| among points off the thread's own column.
  static constexpr int off_column_reach() {
    int k = 0;
    for (int p = 0; p < points::size; ++p) {
      const int d = ds(p) < 0 ? -ds(p) : ds(p);
      if (df(p) != 0 && d > k) k = d;
    }
    return k;
  }
  static constexpr bool has_df(int d) {
    for (int p = 0; p < points::size; ++p)
      if (df(p) == d) return true;
    return false;
  }
  // Column jp's partial sum for fast offset d serves the cell jp - d: another
  // thread's when that lies outside this thread's columns.
  static constexpr bool exported(int d, int jp) { return has_df(d) && !own_column(jp - d); }
  static constexpr int export_index(int d, int jp) {
    int e = 0;
    for (int dd = -R; dd <= R; ++dd)
      for (int j = 0; j < CX; ++j) {
        if (dd == d && j == jp) return exported(d, jp) ? e : -1;
        if (exported(dd, j)) ++e;
      }
    return -1;
  }
  static constexpr int count_exports() {
    int e = 0;
    for (int d = -R; d <= R; ++d)
      for (int j = 0; j < CX; ++j) e += exported(d, j) ? 1 : 0;
    return e;
  }
  // Whether some cell of the thread reads column jj (counted from its first
  // column) at slow offset r from another thread's queue, and that value's
  // place among all such values (column-major over jj, then r).
  static constexpr bool off_thread_read(int jj, int r) {
    if (own_column(jj)) return false;
    for (int j = 0; j < CX; ++j)
      for (int p = 0; p < points::size; ++p)
        if (j + df(p) == jj && ds(p) == r) return true;
    return false;
  }
  static constexpr int off_thread_index(int jj, int r) {
    int n = 0;
    for (int c = -R; c < CX + R; ++c)
      for (int d = -R; d <= R; ++d) {
        if (c == jj && d == r) return off_thread_read(c, d) ? n : -1;
        n += off_thread_read(c, d) ? 1 : 0;
      }
    return -1;
  }
  // Shared-memory loads per thread and stage: partial sums (one per
  // off-thread (cell, d)), or distinct off-thread (column, row) values.
  static constexpr int loads_per_stage(bool partial_sums) {
    int n = 0;
    if (partial_sums) {
      for (int j = 0; j < CX; ++j)
        for (int d = -R; d <= R; ++d) n += has_df(d) && !own_column(j + d) ? 1 : 0;
      return n;
    }
    for (int jj = -R; jj < CX + R; ++jj)
      for (int r = -R; r <= R; ++r) n += off_thread_read(jj, r) ? 1 : 0;
    return n;
  }
};

template <class Stencil, bool SlowIs0>
struct Traits : Geometry2D<Stencil, SlowIs0> {
  using G = Geometry2D<Stencil, SlowIs0>;
  static constexpr int W = 2 * G::R + 1;
  static constexpr int K = G::off_column_reach();

  // Linear stencils whose off-column points span several rows (box-like)
  // exchange column partial sums instead of rows: the owner of column x sums
  // c_p * v(y + ds_p, x) over the points of each fast offset d from its
  // register window, and the cell x - d adds that one number. Neighbours then
  // need one value per (column, d) of the current row instead of 2K+1 rows of
  // raw values (j2d25pt: 6 instead of 11 shared accesses per cell update).
  static constexpr bool is_linear = Stencil::is_linear;
  static constexpr bool partial_sums = is_linear && K > 0;
  static constexpr int exports = G::count_exports();

  // Shared-memory planes of one stage (each nthreads + pads values): two
  // buffers of exported partial sums, or a queue of 2K+2 rows of every column.
  static constexpr int planes_per_stage = partial_sums ? 2 * exports : (2 * K + 2) * G::CX;
  static constexpr int stores_per_stage = partial_sums ? exports : G::CX;
  static constexpr double smem_accesses_per_cell =
      static_cast<double>(G::loads_per_stage(partial_sums) + stores_per_stage) / G::CX;

  static constexpr int max_depth = G::R == 1 ? 10 : 6;
  // Radius-1 kernels are compiled for blocks of 128 threads (0: the block
  // size is a launch parameter): the shared-memory plane pitch is then a
  // constant and every exchange address an immediate offset (~40 fewer
  // instructions per row), and depths <= 8 fit three blocks per SM. 128 is
  // what the model picks for every radius-1 preset (H200, docs/perf-notes-2d.md v6).
  static constexpr int block_threads = G::R == 1 ? 128 : 0;
  static constexpr int launch_threads(int requested) { return block_threads > 0 ? block_threads : requested; }
  // Depths compiled (bit d = depth d): the stages of one streamed row form a
  // single basic block only when the depth is a compile-time constant.
  static constexpr unsigned depth_mask =
      compiled_depths(G::R == 1 ? ((1u << 1) | (1u << 2) | (1u << 4) | (1u << 8) | (1u << 10))
                                : ((1u << 1) | (1u << 2) | (1u << 4) | (1u << 6)),
                      max_depth);
  // Several state fields or levels keep one register window per field and
  // stream (deeper by (L-1)(R+1) rows per older level): fewer, shallower depths.
  static constexpr int max_state_depth = G::R == 1 ? 8 : 4;
  static constexpr unsigned state_depth_mask =
      compiled_depths(G::R == 1 ? ((1u << 1) | (1u << 2) | (1u << 4) | (1u << 8)) : ((1u << 1) | (1u << 2) | (1u << 4)),
                      max_state_depth, /*deepest_only=*/true);
  static constexpr int max_depth_for(int levels) { return levels == 1 ? max_depth : max_state_depth; }
  static constexpr unsigned depth_mask_for(int levels) { return levels == 1 ? depth_mask : state_depth_mask; }
};

// The same facts as constants, for device code (which may not call the
// host-side constexpr functions that compute them).
template <class Tr, int P>
struct PointAt {
  static constexpr int ds = Tr::ds(P);
  static constexpr int df = Tr::df(P);
};
template <class Tr, int D>
struct HasFastOffset {
  static constexpr bool value = Tr::has_df(D);
};
template <class Tr, int D, int JP>
struct Export {
  static constexpr bool exported = Tr::exported(D, JP);
  static constexpr int index = Tr::export_index(D, JP);
};

template <class Tr, int JJ, int R>
struct OffThreadRead {
  static constexpr int index = Tr::off_thread_index(JJ, R);
};
template <class Tr>
struct OffThreadReads {
  static constexpr int count = Tr::loads_per_stage(false);
};

// Column JJ counted from a thread's first column (JJ may lie in a neighbour's):
// mo threads away, that thread's column jp. A row queue keeps column jp of
// thread m at plane jp, position m: read(q, row slot, plane) fetches it.
template <int JJ, int CX>
struct ThreadColumn {
  static constexpr int mo = JJ >= 0 ? JJ / CX : -((-JJ + CX - 1) / CX);
  static constexpr int jp = JJ - mo * CX;
  template <class Scalar>
  __device__ __forceinline__ static Scalar read(const Scalar* q, int row_slot, int plane) {
    return q[row_slot + jp * plane + mo];
  }
};

// Reads of one cell update (column J of the thread) in row-exchange mode: own
// columns from the register window, the other threads' columns from the
// shared-memory queue. WO / SO: the window row and the queue slot index of
// the cell's own row (a stream's older rows sit lower in both: a state's
// older level is read from the same stream as its newest, further back).
template <class Scalar, int R, int K, int CX, bool SlowIs0, int J, int WL = 2 * R + 1, int NSLOT = 2 * K + 1,
          int WO = R, int SO = K>
struct CellAccessor {
  const Scalar (&w)[CX][WL];
  const Scalar* q;
  const int (&slot)[NSLOT];
  int plane;

  template <int D0, int D1, int D2>
  __device__ __forceinline__ Scalar get() const {
    constexpr int ds = SlowIs0 ? D0 : D1;
    constexpr int df = SlowIs0 ? D1 : D0;
    static_assert(D2 == 0, "EbisuKokkos: a 2-D stencil has no third offset");
    static_assert(ds >= -R && ds <= R && df >= -R && df <= R, "EbisuKokkos: offset beyond the stencil radius");
    constexpr int jj = J + df;
    if constexpr (jj >= 0 && jj < CX) {
      return w[jj][WO + ds];
    } else {
      static_assert(ds >= -K && ds <= K, "EbisuKokkos: off-column slow offset beyond the queue reach");
      return ThreadColumn<jj, CX>::read(q, slot[SO + ds], plane);
    }
  }
};

// One field in row-exchange mode with the other threads' values of the row
// already loaded (off: Tr::loads_per_stage(false) values, OffThreadRead's
// order; see `gather` in ebisu2d_kernel).
template <class Tr, class Scalar, bool SlowIs0, int J>
struct GatheredCellAccessor {
  const Scalar (&w)[Tr::CX][Tr::W];
  const Scalar* off;

  template <int D0, int D1, int D2>
  __device__ __forceinline__ Scalar get() const {
    constexpr int ds = SlowIs0 ? D0 : D1;
    constexpr int df = SlowIs0 ? D1 : D0;
    static_assert(D2 == 0, "EbisuKokkos: a 2-D stencil has no third offset");
    constexpr int jj = J + df;
    if constexpr (jj >= 0 && jj < Tr::CX) {
      return w[jj][Tr::R + ds];
    } else {
      constexpr int k = OffThreadRead<Tr, jj, ds>::index;
      static_assert(k >= 0, "EbisuKokkos: an off-thread read the stencil's shape does not declare");
      return off[k];
    }
  }
};

// Several state fields and levels (state.hpp). Every field has one stream of
// rows per step a launch holds: its input levels NL-1 .. 0 (stream indices
// 0 .. NL-1, loaded together) and the outputs of stages 1 .. T-1. Stage s
// reads field f's level l from the stream of step s-1-l: the newest rows of
// a stage stream lag (R+1) rows per stage, those of the input do not, so a
// read's age (rows behind the stream's newest) follows from (s, l).
// OlderAround: some older level is read over its neighbourhood (else the
// queues need only the newest level's rows: older levels come from the window).
template <class Tr, int T, int NL, bool OlderAround = true>
struct StreamShape {
  static constexpr int R = Tr::R, K = Tr::K;
  static constexpr int lag = R + 1;
  static constexpr int WL = Tr::W + (NL - 1) * lag;                            // register rows per stream
  static constexpr int QL = 2 * K + 2 + (OlderAround ? (NL - 1) * lag : 0);  // queue rows per stream (one being written)
  static constexpr int streams = T + NL - 1;                                   // per field
};
template <class Tr, int T, int NS, int NL, bool OlderAround, class Scalar, bool SlowIs0, int J, int S, int Q>
struct StreamRead {
  using Sh = StreamShape<Tr, T, NL, OlderAround>;
  static constexpr int field = Q / NL, level = Q % NL;
  static constexpr int step = S - 1 - level;
  static constexpr int stream = step + NL - 1;
  static constexpr int age = step >= 0 ? (level + 1) * Sh::lag - 1 : S * Sh::lag - 1;  // of the cell's own row
  using Accessor = CellAccessor<Scalar, Tr::R, Tr::K, Tr::CX, SlowIs0, J, Sh::WL, Sh::QL - 1, Sh::WL - 1 - age,
                                Sh::QL - 2 - age + Tr::R - Tr::K>;
};

// The other state levels' buffers of a launch (q = f * NL + l; q = 0 is the
// kernel's src / dst): level l of field f in, and the new level l out when
// the launch computes it (l < depth).
template <class Scalar, int NQ>
struct StateRows {
  const Scalar* in[NQ];
  long in_stride[NQ];
  Scalar* out[NQ];
  long out_stride[NQ];
};

// Read-only fields (FieldKinds): each streams through its own circular queue
// of rows in shared memory, in the layout of the state's row queue (one plane
// per column of a thread, conflict-free). Every stage reads the same queue at
// its own row: a field row is loaded once per launch with the input row of
// the same index (cp.async), and kept until the deepest stage has read it.
template <class Scalar, int NF>
struct FieldRows {
  const Scalar* data[NF > 0 ? NF : 1];
  long stride[NF > 0 ? NF : 1];  // slow-axis stride (elements)
};
// Queue rows per field: the rows in flight (P), the rows between the newest
// stage's and the deepest stage's reads (T (R+1) + R) and the row being read.
template <int T, int R, int P>
struct FieldQueueRows {
  static constexpr int value = P + T * (R + 1) + R + 1;
};

// One cell update's reads of a field: row slots of rows c-R..c+R of the stage.
template <class Scalar, int R, int CX, bool SlowIs0, int J>
struct FieldQueueAccessor {
  const Scalar* q;
  const int (&slot)[2 * R + 1];
  int plane;

  template <int D0, int D1, int D2>
  __device__ __forceinline__ Scalar get() const {
    constexpr int ds = SlowIs0 ? D0 : D1;
    constexpr int df = SlowIs0 ? D1 : D0;
    return ThreadColumn<J + df, CX>::read(q, slot[ds + R], plane);
  }
};

// How a kernel of depth T exchanges rows (compile-time constants, usable in
// device code): `gather` (one state field of radius 1 in row exchange: every
// stage's values from the other threads loaded before the row's first store,
// see ebisu2d_kernel) and whether its read-only fields ride in registers.
// Centre-only fields in registers: stage s reads a field at its own row only,
// (R+1) rows behind stage s-1, so a thread's CX columns need the last T (R+1)
// rows of each field, loaded once per row through the input ring and shifted
// with the row (the loop unrolled by W = 3 renames 3 of the 16 rows of a column
// and moves 13): one shared-memory read per field and row instead of one per
// stage, whose queue made j2d5pt-source 1.45x j2d5pt's L1 / shared-memory
// bytes. The 32 values at depth 8 leave room for two blocks per SM (234
// registers; held to three, 372 B spilled). H200, 8352^2, with the interior
// pieces (below): j2d5pt-source 677 -> 785 GCells/s (perf-notes-2d.md v12).
template <class Tr, int T, int NQ, int NRO, bool CentreFields>
struct RowMode {
  static constexpr bool gatherable = !Tr::partial_sums && NQ == 1 && Tr::R == 1 && T * Tr::loads_per_stage(false) <= 24;
  static constexpr bool fields_in_registers = NRO > 0 && CentreFields && gatherable && NRO * T * (Tr::R + 1) * Tr::CX <= 32;
  static constexpr bool gather = gatherable && (NRO == 0 || fields_in_registers);
  static constexpr int field_rows = fields_in_registers ? T * (Tr::R + 1) : 1;  // register rows per field and column
};

// A centre-only field's value at the cell, from the registers (RowMode).
template <class Scalar>
struct CentreValue {
  Scalar v;
  template <int D0, int D1, int D2>
  __device__ __forceinline__ Scalar get() const {
    static_assert(D0 == 0 && D1 == 0 && D2 == 0, "EbisuKokkos: a centre_only field read off its cell");
    return v;
  }
};
// eval(state, field values) for cell J of stage s: field F's value of the
// stage's row sits Pos rows behind the newest of its register rows fw[F][J].
template <int J, int Pos, class Eval, class Accessor, class Scalar, int NRO, int CX, int N, std::size_t... F>
__device__ __forceinline__ auto evaluate_with_centre_values(const Eval& eval, const Accessor& at,
                                                            const Scalar (&fw)[NRO][CX][N], std::index_sequence<F...>) {
  return eval(at, CentreValue<Scalar>{fw[F][J][N - 1 - Pos]}...);
}

// Partial-sum mode, from the register window w of one step: the part of cell
// J's update that reads this thread's own columns ...
template <class Tr, int J, class Eval, class Scalar>
__device__ __forceinline__ Scalar own_columns_sum(const Eval& eval, const Scalar (&w)[Tr::CX][Tr::W]) {
  Scalar a = Scalar(0);
  static_for<Tr::points::size>([&](auto P_) {
    constexpr int p = decltype(P_)::value;
    constexpr int jj = J + PointAt<Tr, p>::df;
    if constexpr (jj >= 0 && jj < Tr::CX) {
      a += eval.coefficients[p] * w[jj][Tr::R + PointAt<Tr, p>::ds];
    }
  });
  return a;
}
// ... and column JP's partial sum over the points of fast offset D.
template <class Tr, int D, int JP, class Eval, class Scalar>
__device__ __forceinline__ Scalar column_partial_sum(const Eval& eval, const Scalar (&w)[Tr::CX][Tr::W]) {
  Scalar a = Scalar(0);
  static_for<Tr::points::size>([&](auto P_) {
    constexpr int p = decltype(P_)::value;
    if constexpr (PointAt<Tr, p>::df == D) {
      a += eval.coefficients[p] * w[JP][Tr::R + PointAt<Tr, p>::ds];
    }
  });
  return a;
}

// Row exchange, one linear field: the weighted sum over the thread's own
// columns (registers) first and the other threads' values (shared-memory
// loads) last, so that each load has its cell's own-column FMAs to hide
// behind wherever ptxas places it. In the evaluator's order the load of a
// thread's first cell starts its chain: the depth-8 j2d5pt kernel ran 909
// against 962 GCells/s at 8192^2 (H200, 2026-11-29, perf-notes-2d.md).
template <class Tr, int J, class Eval, class Accessor>
__device__ __forceinline__ auto own_columns_first_sum(const Eval& eval, const Accessor& at) {
  using Scalar = std::decay_t<decltype(eval.coefficients[0])>;
  using Points = typename Tr::points;
  Scalar a = -Scalar(0);  // x + (-0) is x: the first product starts the chain
  auto add = [&](auto P_, auto Own_) {
    constexpr int p = decltype(P_)::value;
    constexpr int jj = J + PointAt<Tr, p>::df;
    if constexpr ((jj >= 0 && jj < Tr::CX) == decltype(Own_)::value) {
      a += eval.coefficients[p] * at.template get<Point<Points, p>::d0, Point<Points, p>::d1, Point<Points, p>::d2>();
    }
  };
  static_for<Points::size>([&](auto P_) { add(P_, std::true_type{}); });
  static_for<Points::size>([&](auto P_) { add(P_, std::false_type{}); });
  return a;
}

// eval(state levels, read-only field 0 .. NRO-1) for cell J of the thread;
// state(integral_constant<Q>) gives the accessor of state level Q.
template <int R, int CX, bool SlowIs0, int J, class Eval, class StateAccessor, class Scalar, int... Q, std::size_t... F>
__device__ __forceinline__ auto evaluate_stage(const Eval& eval, const StateAccessor& state,
                                               std::integer_sequence<int, Q...>, const Scalar* queues, int queue_size,
                                               const int (&slot)[2 * R + 1], int plane, std::index_sequence<F...>) {
  return eval(state(std::integral_constant<int, Q>{})...,
              FieldQueueAccessor<Scalar, R, CX, SlowIs0, J>{queues + static_cast<int>(F) * queue_size, slot, plane}...);
}

struct Geometry {
  long src_stride, dst_stride;  // slow strides (elements)
  int ns, nf;                   // extents along the slow and the fast axis
  int strips, strip_w;          // output columns per strip
  long rows_per_block;          // run length in the strip-major row list
  AxisRules slow, fast;         // boundary rules of the two axes
};

// The mapped instantiation's geometry: also the rows that stand in for those
// beyond the slow sides. (A separate type, so that the fixed-frame kernels'
// parameters stay as they were: with the table in every Geometry, nvcc
// allocated the fixed-frame kernels' registers differently, depth 8 2% slower
// and depth 10 8% faster, H200 2026-11-28.)
struct MappedGeometry : Geometry {
  StreamedAxis slow_rows;
};
template <bool Mapped>
using GeometryFor = std::conditional_t<Mapped, MappedGeometry, Geometry>;

// The blocks per SM ptxas must fit (__launch_bounds__): three for the
// fixed-block-size kernels up to depth 8, and at depth 10 for one linear field
// with a frame's selects only when it loads directly, or with mapped loads,
// no frame and the row exchange (168 registers, no spills with `gather`; the
// others would spill: 32 B for j2d5pt's mapped kernel with a frame, 40-72 B
// for j2d9pt-gol's partial sums without one, which ran 707 against 889
// GCells/s at depth 8, H200 2026-11-30). At depth 10, three blocks of 4
// warps instead of two ran j2d5pt 8192^2 968 against 870 GCells/s and
// j2d9pt-gol 882 against 790 (H200, 2026-11-29); at 2048^2, where the shorter
// runs per block cost more than the warps gain (450 against 534), the model's
// depth-8 plan runs.
template <class Tr, int T, bool Mapped, bool Framed, int NF>
constexpr int blocks_per_sm_bound() {
  if (Tr::block_threads == 0 || NF != 0) return 1;
  return T <= 8 || (T <= 10 && Tr::is_linear && (!Mapped || (!Framed && !Tr::partial_sums))) ? 3 : 1;
}

// T: the depth (time steps per launch) of this instantiation. NF: the other
// levels the functor reads besides field 0's newest (NS * NL - 1 other state
// fields and levels, then the read-only fields); NS state fields of NL levels.
// Framed: some cell keeps its value (a fixed side); a mapped kernel with no
// fixed side anywhere (a periodic or mirror box) is compiled without the
// frame's per-cell selects, about a fifth of its row loop's instructions.
// CentreFields: every read-only field is read at the output cell only.
// AddOut: the launch's output is the last stage's value plus one more array
// (fields.data[NRO], read at the output cell; the source term's precomputed
// response, see SmTiling2D::run): streamed through the input ring like a
// register field, T (R+1) rows behind the input row, so no stage holds it.
template <class Tr, class Eval, class Scalar, int T, bool SlowIs0, bool Mapped, bool Framed, int NF, int NS = 1,
          int NL = 1, bool OlderAround = true, bool CentreFields = false, bool AddOut = false>
__global__ void __launch_bounds__(Tr::block_threads > 0 ? Tr::block_threads : kMaxThreads,
                                  blocks_per_sm_bound<Tr, T, Mapped, Framed, NF>())
    ebisu2d_kernel(const Eval eval, const Scalar* __restrict__ src, Scalar* __restrict__ dst, const GeometryFor<Mapped> g,
                   const FieldRows<Scalar, NF - (NS * NL - 1) + (AddOut ? 1 : 0)> fields,
                   const StateRows<Scalar, NS * NL> state) {
  constexpr int R = Tr::R;
  constexpr int K = Tr::K;
  constexpr int CX = Tr::CX;
  constexpr int NQ = NS * NL;     // state levels in
  constexpr int NE = NQ - 1;      // read besides field 0's newest
  constexpr int NRO = NF - NE;    // read-only fields
  static_assert(NRO >= 0, "EbisuKokkos: ebisu2d_kernel needs a kind for every other state field and level");
  static_assert(T * R <= StreamedAxis::kOverhang, "EbisuKokkos: ebisu2d_kernel streams further beyond a side than StreamedAxis resolves");
  static_assert(!Tr::partial_sums || NQ == 1, "EbisuKokkos: partial sums are for one linear field");
  static_assert(Framed || Mapped, "EbisuKokkos: ebisu2d_kernel without a frame is for periodic / mirror sides");
  static_assert(!AddOut || NS * NL == 1, "EbisuKokkos: an added output array is for one state field of one level");
  constexpr bool PS = Tr::partial_sums;
  using Sh = StreamShape<Tr, T, NL, OlderAround>;
  constexpr int WL = Sh::WL;      // W for one level
  constexpr int QL = Sh::QL;      // 2K + 2 for one level
  constexpr int NSTR = Sh::streams;
  constexpr int E = Tr::exports;
  constexpr int PADM = (R + CX - 1) / CX;
  using Mode = RowMode<Tr, T, NQ, NRO, CentreFields>;
  constexpr bool RF = Mode::fields_in_registers;
  constexpr int NQF = RF ? 0 : NRO;  // read-only fields in shared-memory queues
  constexpr int NRING = NQ + NRO - NQF + (AddOut ? 1 : 0);  // ring rows per slot: state levels, register fields, addend
  extern __shared__ __align__(16) unsigned char ebisu2d_smem_raw[];
  Scalar* smem = reinterpret_cast<Scalar*>(ebisu2d_smem_raw);

  const int m = threadIdx.x;
  const int nthreads = Tr::block_threads > 0 ? Tr::block_threads : static_cast<int>(blockDim.x);
  const int plane = nthreads + 2 * PADM;  // one value per thread, plus pads
  // One stream's queue of one field (or, partial sums, its two buffers).
  const int stage_stride = (PS ? Tr::planes_per_stage : QL * CX) * plane;
  auto queue_of = [&](int stream, int f) { return smem + (stream * NS + f) * stage_stride; };

  // Input rings after the queues: kPrefetchRows + 1 rows per state level (and
  // register field), each thread's own CX values per row (only the owning
  // thread touches them).
  constexpr int P = kPrefetchRows;
  Scalar* ring = smem + NSTR * NS * stage_stride;
  // Field queues after the rings (FQ rows of CX planes each per field).
  constexpr int FQ = FieldQueueRows<T, R, P>::value;
  const int field_row = CX * plane;
  Scalar* field_queue = ring + NRING * (P + 1) * CX * nthreads;

  // Zero the stage memory and the field queues once (pads are never written
  // again; rows before the first loaded one feed only rows never stored).
  for (int i = threadIdx.x; i < NSTR * NS * stage_stride; i += nthreads) smem[i] = Scalar(0);
  for (int i = threadIdx.x; i < NQF * FQ * field_row; i += nthreads) field_queue[i] = Scalar(0);
  __syncthreads();

  const long total = static_cast<long>(g.strips) * g.ns;
  long run0 = static_cast<long>(blockIdx.x) * g.rows_per_block;
  const long run1 = run0 + g.rows_per_block < total ? run0 + g.rows_per_block : total;

  while (run0 < run1) {
    const int strip = static_cast<int>(run0 / g.ns);
    const int seg0 = static_cast<int>(run0 - static_cast<long>(strip) * g.ns);
    const long piece_end = static_cast<long>(strip + 1) * g.ns < run1 ? static_cast<long>(strip + 1) * g.ns : run1;
    const int seg1 = static_cast<int>(piece_end - static_cast<long>(strip) * g.ns);
    run0 = piece_end;

    const int out0 = strip * g.strip_w;
    const int out1 = out0 + g.strip_w < g.nf ? out0 + g.strip_w : g.nf;
    const int gx0 = out0 - T * R + m * CX;  // global column of this thread's column 0
    // Rows and columns beyond a fixed side are not loaded (the frame keeps its value).
    const int y_start = seg0 - T * R > 0 || g.slow.lo != Boundary::fixed ? seg0 - T * R : 0;
    const int y_end = seg1 + T * R < g.ns || g.slow.hi != Boundary::fixed ? seg1 + T * R : g.ns;

    // col_src: the column each of the thread's columns loads, resolved once per
    // piece: through the rule per row, the loop of the threads beyond a side
    // diverged their warp every row and made the edge strips' blocks the
    // launch's last (periodic / mirror 8-20% slower, H200 2026-11-28).
    bool col_in[CX], col_bnd[CX], col_out[CX];
    [[maybe_unused]] int col_src[CX];
#pragma unroll
    for (int j = 0; j < CX; ++j) {
      const int x = gx0 + j;
      col_in[j] = g.fast.loadable(x) && (!Mapped || x < out1 + T * R);  // beyond: feeds no output (a wrapped overhang)
      col_bnd[j] = g.fast.frame(x);
      col_out[j] = x >= out0 && x < out1;
      col_src[j] = Mapped && col_in[j] ? g.fast.source(x) : 0;
    }

    // The row loop of this piece; framed_piece: with the frame's per-cell selects.
    const auto stream_piece = [&](auto FramedPiece_) {
      constexpr bool framed_piece = decltype(FramedPiece_)::value;
      // win[f][k]: the last WL rows of field f's stream k at this thread's
      // columns (one level: stream s is step s, stream 0 the input). acc[s]:
      // partial-sum mode, the own-column part of the next output row of step s + 1.
      Scalar win[NS][NSTR][CX][WL];
      // fw[k][j][d]: register fields, field k's rows y_start + it - N .. - 1 (d = 0 .. N - 1) at column j.
      constexpr int NFW = RF ? NRO : 1, NFR = Mode::field_rows;
      [[maybe_unused]] Scalar fw[NFW][CX][NFR];
#pragma unroll
      for (int k = 0; k < NFW; ++k)
#pragma unroll
        for (int j = 0; j < CX; ++j)
#pragma unroll
          for (int d = 0; d < NFR; ++d) fw[k][j][d] = Scalar(0);
      Scalar acc[T][CX];
#pragma unroll
      for (int s = 0; s < T; ++s)
#pragma unroll
        for (int j = 0; j < CX; ++j) acc[s][j] = Scalar(0);
#pragma unroll
      for (int f = 0; f < NS; ++f)
#pragma unroll
        for (int k = 0; k < NSTR; ++k)
#pragma unroll
          for (int j = 0; j < CX; ++j)
#pragma unroll
            for (int d = 0; d < WL; ++d) win[f][k][j][d] = Scalar(0);

      auto ring_at = [&](int q, int slot, int j) { return ring + ((q * (P + 1) + slot) * CX + j) * nthreads + m; };
      // Row y of every state level into ring slot `slot`, and of every field into queue row `field_slot`.
      auto request_row = [&](int y, int slot, int field_slot) {
        const int fslot = field_slot * field_row + PADM + m;
        // Rows beyond a slow side are looked up (|y - inside| <= T R); rows from y_end on are not loaded.
        int sy = y;
        if constexpr (Mapped) sy = g.slow_rows.source(y < y_end ? y : 0);
#pragma unroll
        for (int j = 0; j < CX; ++j) {
          const bool valid = y < y_end && col_in[j];
          const int sx = Mapped ? col_src[j] : gx0 + j;
#pragma unroll
          for (int q = 0; q < NQ; ++q) {
            const Scalar* level = q == 0 ? src : state.in[q];
            const long stride = q == 0 ? g.src_stride : state.in_stride[q];
            // Fixed sides: the row's address plus a constant per column (with
            // the int gx0 + j in it, the depth-10 j2d5pt kernel had 7% more
            // instructions and ran 2% slower, H200 2026-11-29).
            const Scalar* from = Mapped ? level + static_cast<long>(sy) * stride + sx
                                        : level + gx0 + static_cast<long>(sy) * stride + j;
            async_copy_or_zero(ring_at(q, slot, j), valid ? from : src, valid);
          }
#pragma unroll
          for (int k = 0; k < NRO; ++k) {
            const Scalar* f = fields.data[k];
            Scalar* to = RF ? ring_at(NQ + k, slot, j) : field_queue + k * FQ * field_row + fslot + j * plane;
            async_copy_or_zero(to, valid ? f + static_cast<long>(sy) * fields.stride[k] + sx : f, valid);
          }
          if constexpr (AddOut) {  // the output row of the iteration that reads this slot
            const int ye = y - T * (R + 1);
            const bool stored = ye >= 0 && ye < g.ns && col_out[j];
            const Scalar* a = fields.data[NRO];
            async_copy_or_zero(ring_at(NRING - 1, slot, j), stored ? a + static_cast<long>(ye) * fields.stride[NRO] + gx0 + j : a,
                               stored);
          }
        }
        async_commit();
      };
      for (int p = 0; p < P; ++p) request_row(y_start + p, p, p);
      // Field queue row of input row y_start + it: it mod FQ, kept by increments
      // (a modulo per stage and row measured as a large share of the field kernels' issue slots).
      int field_now = 0;

      const int n_iter = seg1 - y_start + T * (R + 1);

      // `gather` (one field of radius 1 in row exchange, read-only fields only
      // in registers; see its use below). At most 24 values: a box functor's
      // row would hold 6 per stage, 60 at depth 10, and spill. Radius 2 keeps
      // the general path: j2d9pt (depth 6) ran 3% slower gathered.
      constexpr bool gather = Mode::gather;
      // The row loop unrolled W times: the register windows then rotate by
      // renaming instead of being copied every row (~130 copies per row at depth
      // 10). H200, 2026-11-29: gathered j2d5pt 8192^2 969 -> 1114 GCells/s; up to
      // depth 8, j2d9pt (depth 6) 563 -> 726, j2d25pt (depth 4) 300 -> 319,
      // periodic j2d9pt-gol 675 -> 783, a box functor 780 -> 834. Kept in one
      // body where unrolling measured slower or spills: the deeper kernels that
      // do not gather (depth-10 partial sums spill, j2d9pt-gol 890 -> 795);
      // read-only fields (source term 670 -> 645, variable heat 386 -> 365 at
      // depth 4); periodic / mirror functors (16 B of spills at the three-block
      // bound, 698 -> 677); several state levels (the windows turn every
      // W + (NL - 1)(R + 1) rows, and the depth-8 wave kernel spills).
      // Register fields: 2 W rows, so that their T (R + 1) rows shift every
      // 2 W rows instead of every W (depth 8: 585 instead of 632 instructions
      // per three rows; j2d5pt-source 8352^2 772-792 -> 804-807 GCells/s,
      // 4096^2 696 -> 731, H200 2026-11-30). 4 W rows issued fewer (553) and ran
      // slower (778-788): the two copies of the loop outgrow the instruction cache.
      constexpr bool unrolled = gather || (NQ == 1 && NRO == 0 && T <= 8 && (Tr::is_linear || !Mapped));
      constexpr int row_unroll = RF ? 2 * Tr::W : unrolled ? Tr::W : 1;
#pragma unroll row_unroll
      for (int it = 0; it < n_iter; ++it) {
        // Row exchange: queue offsets of the rows stored in iterations
        // it + 1 + e - QL (e = 0 .. QL - 2, oldest first). Partial sums: the
        // buffer written in the previous iteration is read, the other written.
        int slot[QL - 1];
#pragma unroll
        for (int e = 0; e < QL - 1; ++e) slot[e] = ((it + 1 + e) % QL) * CX * plane + PADM + m;
        const int read_buf = ((it + 1) & 1) * E * plane + PADM + m;
        const int write_buf = (it & 1) * E * plane + PADM + m;

        // Shifts the newest row of field f's stream k into its window, then
        // puts what the next stages need of it in shared memory.
        auto push = [&](auto F_, auto K_, const auto& row) {  // row: Scalar[CX] (an array parameter here crashes nvcc 13.0's front end)
          constexpr int f = decltype(F_)::value;
          constexpr int k = decltype(K_)::value;
#pragma unroll
          for (int j = 0; j < CX; ++j) {
#pragma unroll
            for (int d = 0; d < WL - 1; ++d) win[f][k][j][d] = win[f][k][j][d + 1];
            win[f][k][j][WL - 1] = row[j];
          }
          if constexpr (PS) {
            Scalar* out_buf = smem + k * stage_stride + write_buf;
            static_for<CX>([&](auto J_) {
              constexpr int j = decltype(J_)::value;
              acc[k][j] = own_columns_sum<Tr, j>(eval, win[0][k]);
            });
            static_for<Tr::W>([&](auto D_) {
              constexpr int d = decltype(D_)::value - R;
              static_for<CX>([&](auto J_) {
                constexpr int jp = decltype(J_)::value;
                if constexpr (Export<Tr, d, jp>::exported) {
                  out_buf[Export<Tr, d, jp>::index * plane] = column_partial_sum<Tr, d, jp>(eval, win[0][k]);
                }
              });
            });
          } else {
            const int wslot = (it % QL) * CX * plane + PADM + m;
            Scalar* q = queue_of(k, f);
#pragma unroll
            for (int j = 0; j < CX; ++j) q[wslot + j * plane] = win[f][k][j][WL - 1 - R + K];
          }
        };

        // In general all stages read first, then all stages write: every value a
        // stage reads (the previous stages' register windows and shared memory
        // written in earlier iterations) predates this row's updates, so
        // computing every output before the first shared-memory store leaves the
        // compiler free to interleave the t independent stages (loads may not
        // move above a store that could alias them).
        // `gather`: every stage's values from the other threads first, then stage by stage from the
        // deepest, each stage's output pushed once no later stage reads its
        // stream's old rows, so that the row's first store pins all its loads
        // above it (a load may not move below a store that could alias it).
        // With the loads inside each stage, the depth-10 j2d5pt kernel capped
        // at 168 registers spilled and ran 800 against 968 GCells/s (8192^2,
        // H200, 2026-11-29, perf-notes-2d.md).
        constexpr int NOFF = OffThreadReads<Tr>::count > 0 ? OffThreadReads<Tr>::count : 1;
        [[maybe_unused]] Scalar off[T][NOFF];
        if constexpr (gather) {
          static_for<T>([&](auto S_) {
            constexpr int s = decltype(S_)::value;  // stage s + 1 reads stream s
            const Scalar* q = queue_of(s, 0);
            static_for<CX + 2 * R>([&](auto C_) {
              constexpr int jj = decltype(C_)::value - R;
              static_for<2 * R + 1>([&](auto D_) {
                constexpr int r = decltype(D_)::value - R;
                if constexpr (OffThreadRead<Tr, jj, r>::index >= 0) {
                  off[s][OffThreadRead<Tr, jj, r>::index] = ThreadColumn<jj, CX>::read(q, slot[K + r], plane);
                }
              });
            });
          });
        }
        Scalar out[NS][T][CX];
        const auto compute_stage = [&](auto S_) {
          constexpr int s = decltype(S_)::value + 1;  // 1 .. T
          // Always computed (no branch: all stages of the row interleave);
          // rows outside a stage's useful range only feed rows never stored.
          const int c = y_start + it - s * (R + 1);
          const bool row_bnd = g.slow.frame(c);
          static_for<CX>([&](auto J_) {
            constexpr int j = decltype(J_)::value;
            if constexpr (PS) {
              const Scalar* in_buf = smem + (s - 1) * stage_stride + read_buf;
              Scalar v = acc[s - 1][j];
              static_for<Tr::W>([&](auto D_) {
                constexpr int d = decltype(D_)::value - R;
                constexpr int jj = j + d;
                if constexpr (HasFastOffset<Tr, d>::value && !(jj >= 0 && jj < CX)) {
                  using Column = ThreadColumn<jj, CX>;
                  v += in_buf[Export<Tr, d, Column::jp>::index * plane + Column::mo];
                }
              });
              out[0][s - 1][j] = (framed_piece && (row_bnd || col_bnd[j])) ? win[0][s - 1][j][R] : v;
            } else {
              // Level Q of the state (field Q / NL, level Q % NL) as stage s reads it.
              const auto level = [&](auto Q_) {
                using Read = StreamRead<Tr, T, NS, NL, OlderAround, Scalar, SlowIs0, j, s, decltype(Q_)::value>;
                return typename Read::Accessor{win[Read::field][Read::stream], queue_of(Read::stream, Read::field), slot,
                                               plane};
              };
              // Queue slots of field rows c-R..c+R, c = y_start + it - s (R+1): rows before y_start (the
              // pipeline fill, never stored) wrap to the end of the queue like the others.
              int fslot[2 * R + 1];
#pragma unroll
              for (int d = 0; d <= 2 * R; ++d) {
                int row = field_now + (FQ - s * (R + 1) + d - R);  // the constant lies in [P + 1, FQ + R]
                row = row >= FQ ? row - FQ : row;
                fslot[d] = row * field_row + PADM + m;
              }
              const auto v = [&] {
                if constexpr (gather) {
                  const GatheredCellAccessor<Tr, Scalar, SlowIs0, j> at{win[0][s - 1], off[s - 1]};
                  if constexpr (Tr::is_linear && NRO == 0) {
                    return own_columns_first_sum<Tr, j>(eval, at);
                  } else {
                    return evaluate_with_centre_values<j, s * (R + 1) - 1>(eval, at, fw,
                                                                          std::make_index_sequence<RF ? NRO : 0>{});
                  }
                } else {
                  return evaluate_stage<R, CX, SlowIs0, j>(eval, level, std::make_integer_sequence<int, NQ>{},
                                                           field_queue, FQ * field_row, fslot, plane,
                                                           std::make_index_sequence<NRO>{});
                }
              }();
              // Frame cells keep each field's newest level.
#pragma unroll
              for (int f = 0; f < NS; ++f) {
                out[f][s - 1][j] = (framed_piece && (row_bnd || col_bnd[j])) ? win[f][s - 2 + NL][j][WL - 1 - R]
                                                           : static_cast<Scalar>(component(v, f));
              }
            }
          });
        };
        if constexpr (gather) {
          static_for<T>([&](auto I_) {
            constexpr int s = T - decltype(I_)::value;  // T .. 1
            compute_stage(std::integral_constant<int, s - 1>{});
            if constexpr (s < T) push(std::integral_constant<int, 0>{}, std::integral_constant<int, s>{}, out[0][s - 1]);
          });
        } else {
          static_for<T>(compute_stage);
          static_for<T - 1>([&](auto S_) {  // stages 1 .. T-1; the deepest is stored to dst
            constexpr int s = decltype(S_)::value + 1;
            static_for<NS>([&](auto F_) {
              push(F_, std::integral_constant<int, s - 1 + NL>{}, out[decltype(F_)::value][s - 1]);
            });
          });
        }

        // Load stage: push input row y_start+it (requested P iterations ago),
        // request row y_start+it+P into the ring slot read in the previous
        // iteration (the barrier since then ends that read).
        async_wait<P - 1>();
        static_for<NQ>([&](auto Q_) {  // level l of field f: stream NL - 1 - l
          constexpr int q = decltype(Q_)::value;
          Scalar pf[CX];
#pragma unroll
          for (int j = 0; j < CX; ++j) pf[j] = *ring_at(q, it % (P + 1), j);
          push(std::integral_constant<int, q / NL>{}, std::integral_constant<int, NL - 1 - q % NL>{}, pf);
        });
        if constexpr (RF) {
#pragma unroll
          for (int k = 0; k < NRO; ++k)
#pragma unroll
            for (int j = 0; j < CX; ++j) {
#pragma unroll
              for (int d = 0; d < NFR - 1; ++d) fw[k][j][d] = fw[k][j][d + 1];
              fw[k][j][NFR - 1] = *ring_at(NQ + k, it % (P + 1), j);
            }
        }
        {
          const int field_next = field_now + P < FQ ? field_now + P : field_now + P - FQ;
          request_row(y_start + it + P, (it + P) % (P + 1), field_next);
        }
        // The new levels: level l from stage T - l (levels l >= T are the
        // launch's input levels, already in place).
        static_for<(T < NL ? T : NL)>([&](auto L_) {
          constexpr int l = decltype(L_)::value;
          const int c = y_start + it - (T - l) * (R + 1);
          if (c >= seg0 && (l == 0 || c < seg1)) {
#pragma unroll
            for (int f = 0; f < NS; ++f) {
              const int q = f * NL + l;
              Scalar* d = (q == 0 ? dst + static_cast<long>(c) * g.dst_stride
                                  : state.out[q] + static_cast<long>(c) * state.out_stride[q]) +
                          gx0;
#pragma unroll
              for (int j = 0; j < CX; ++j) {
                Scalar v = out[f][T - 1 - l][j];
                if constexpr (AddOut) v += *ring_at(NRING - 1, it % (P + 1), j);
                if (col_out[j]) d[j] = v;
              }
            }
          }
        });
        field_now = field_now + 1 < FQ ? field_now + 1 : 0;
        __syncthreads();
      }
    };
    // A piece whose tile, halo included, lies inside the frame on both axes
    // computes no frame cell: the depth-8 one-level kernels run it without
    // the frame's selects, a second copy of the row loop (a fifth of its
    // instructions; the edge pieces keep the selects). H200, 2026-11-30,
    // automatic: j2d5pt 8352^2 1055-1059 -> 1088-1092 GCells/s, j2d9pt-gol
    // 839-852 -> 881-900. At depth 10 the two copies spilled at the
    // three-block bound (8-28 B) and ran no faster.
    constexpr bool split_pieces = Framed && NQ == 1 && (NRO == 0 || RF) && T == 8 && Tr::block_threads > 0;
    if constexpr (!Framed) {
      stream_piece(std::false_type{});
    } else if constexpr (split_pieces) {
      const int tile0 = out0 - T * R;
      if (g.slow.frame_free(seg0 - T * R, seg1 + T * R) && g.fast.frame_free(tile0, tile0 + nthreads * CX)) {
        stream_piece(std::false_type{});
      } else {
        stream_piece(std::true_type{});
      }
    } else {
      stream_piece(std::true_type{});
    }
    async_wait_all();  // the next piece reuses the ring
    // Field rows requested near the end of this piece land in slots that the
    // next piece's first rows read (as rows before its start, never stored):
    // every copy completes before any thread goes on (compute-sanitizer
    // racecheck flagged the depth-1 radius-2 kernel without this barrier).
    if constexpr (NQF > 0) __syncthreads();
  }
}

template <class... FieldKinds>
struct FieldKindList {};

// Whether every read-only field (the kinds after the NE other state fields and levels) is centre-only.
template <int NE, class... FieldKinds>
constexpr bool read_only_fields_centre_only() {
  bool all = true;
  int k = 0;
  ((all = all && (k < NE || FieldKinds::centre_only), ++k), ...);
  return all;
}

template <class Stencil, class Scalar, bool SlowIs0, int Depth, int NS, int NL, class... FieldKinds>
struct Kernel {
  static constexpr int depth = Depth;
  using Tr = Traits<Stencil, SlowIs0>;
  using Eval = decltype(std::declval<const Stencil&>().template bind<Scalar, FieldKinds...>());
  static constexpr int fields = static_cast<int>(sizeof...(FieldKinds));
  static constexpr bool centre_fields = read_only_fields_centre_only<NS * NL - 1, FieldKinds...>();
  /// Whether this depth keeps its read-only fields in registers (RowMode).
  static constexpr bool fields_in_registers =
      RowMode<Tr, Depth, NS * NL, fields - (NS * NL - 1), centre_fields>::fields_in_registers;
  /// Mapped: the instantiation whose loads go through periodic / mirror rules;
  /// Framed: the one that keeps fixed sides' frame (every instantiation but a
  /// mapped one for a domain without fixed sides).
  /// AddOut: the instantiation that adds one more array to its output (ebisu2d_kernel).
  template <bool Mapped = false, bool Framed = true, bool AddOut = false>
  static constexpr auto function() {
    return &ebisu2d_kernel<Tr, Eval, Scalar, Depth, SlowIs0, Mapped, Framed, fields, NS, NL,
                           reads_older_levels_around<NS, NL, FieldKinds...>(), centre_fields, AddOut>;
  }

  /// The registers and local memory of the instantiation that runs (the mapped
  /// one may take more registers, and so fewer blocks per SM).
  template <bool Mapped = false, bool Framed = true, bool AddOut = false>
  static const cudaFuncAttributes& attributes() {
    static const cudaFuncAttributes attr = [] {
      cudaFuncAttributes a{};
      EBISU_CUDA_CHECK(cudaFuncGetAttributes(&a, function<Mapped, Framed, AddOut>()), "ebisu2d_kernel");
      return a;
    }();
    return attr;
  }
  template <bool AddOut = false>
  static const cudaFuncAttributes& attributes(bool mapped, bool framed = true) {
    return !mapped ? attributes<false, true, AddOut>()
                   : framed ? attributes<true, true, AddOut>() : attributes<true, false, AddOut>();
  }
};

// Calls go(Kernel<..., depth>{}) for the instantiation of depth `depth` (one
// of Traits::depth_mask_for(NS * NL)), or for every compiled depth when `depth` is 0.
template <class Stencil, class Scalar, bool SlowIs0, int NS = 1, int NL = 1, class Go, class... FieldKinds>
void dispatch_depth(int depth, Go&& go, FieldKindList<FieldKinds...> = {}) {
  constexpr unsigned mask = Traits<Stencil, SlowIs0>::depth_mask_for(NS * NL);
  bool done = false;
  auto one = [&](auto D) {
    constexpr int d = decltype(D)::value;
    if constexpr (((mask >> d) & 1u) != 0) {
      if (depth == d || depth == 0) {
        go(Kernel<Stencil, Scalar, SlowIs0, d, NS, NL, FieldKinds...>{});
        done = true;
      }
    }
  };
  one(std::integral_constant<int, 1>{});
  one(std::integral_constant<int, 2>{});
  one(std::integral_constant<int, 4>{});
  one(std::integral_constant<int, 6>{});
  one(std::integral_constant<int, 8>{});
  one(std::integral_constant<int, 10>{});
  if (!done) throw std::logic_error("EbisuKokkos: ebisu2d depth " + std::to_string(depth) + " is not compiled");
}

}  // namespace ebisu2d

// SM tiling in 2-D: the model's plan for a call (a launch of the chosen depth
// per `depth` steps, the remainder as launches of compiled depths), and the
// launches. Backend::automatic weighs the plan against the other strategies
// (ebisu_cuda_backend.hpp). NS state fields of NL levels (state.hpp);
// FieldKinds: for NS x NL > 1 the NS * NL - 1 other state fields and levels
// (NeighbourhoodField, state_ring.hpp) before the read-only fields.
template <class Stencil, class ViewType, int NS, int NL, class... FieldKinds>
struct SmTiling2D {
  using Scalar = typename ViewType::non_const_value_type;
  static constexpr bool slow_is_0 = std::is_same_v<typename ViewType::array_layout, Kokkos::LayoutRight>;
  using Tr = ebisu2d::Traits<Stencil, slow_is_0>;
  static constexpr int R = Stencil::radius;
  static constexpr int NF = static_cast<int>(sizeof...(FieldKinds));
  static constexpr int NQ = NS * NL;         // state levels
  static constexpr int NE = NQ - 1;          // other state fields and levels
  static constexpr int NRO = NF - NE;        // read-only fields
  static constexpr int RS = NL + 1;          // ring slots per state field
  static constexpr int NB = NS * RS;         // state buffers
  static_assert(NRO >= 0, "EbisuKokkos: SmTiling2D needs a kind for every other state field and level");
  static constexpr int max_depth = Tr::max_depth_for(NQ);
  static constexpr unsigned depth_mask = Tr::depth_mask_for(NQ);
  using K = ebisu2d::Kernel<Stencil, Scalar, slow_is_0, max_depth, NS, NL, FieldKinds...>;  // register use of the deepest
  static constexpr ebisu2d::FieldKindList<FieldKinds...> kinds{};
  /// A linear stencil plus a source (with_source) on one field: the response form may run (SourceForm).
  static constexpr bool source_response = LinearPlusSource<Stencil>::value && NQ == 1 && NRO == 1;
  /// The source-free kernels of the response form.
  using LinearTiling = SmTiling2D<typename LinearPartOf<Stencil>::type, ViewType, 1, 1>;
  /// Where the response form keeps g (SourceForm::response).
  using ResponseView = Kokkos::View<Scalar**, typename ViewType::array_layout, typename ViewType::memory_space>;

  struct Plan {
    bool valid = false;
    std::string why_not;
    Plan2D main;
    std::vector<Plan2D> remainder;
    int full_launches = 0;
    double predicted_seconds = 0;
    double interior_cells = 0;
    bool block_knob_ignored = false;
    int deeper_depth = 0;  ///< the next usable depth above a free choice (0: none or forced; PlanSM3D's)
    /// SourceForm::response (response.depth 0: the per-step form runs): the source-free kernel's
    /// launches of the main depth, adding the response and not (own), and their schedules (built by the
    /// call, or kept by the policy: run_response claims one); the plan's full launches are the main depth's.
    Plan2D response{0}, own{0};
    ResponseChoice schedules;
    int response_launches = 0;               ///< of the main depth, where the response form runs
    std::vector<Plan2D> response_remainder;  ///< the launches after them (with the source)
    std::vector<Plan2D> response_folded;     ///< the same depths source-free (a whole-call response)
    std::vector<int> tail_depths() const {
      std::vector<int> depths;
      for (const Plan2D& p : response_remainder) depths.push_back(p.depth);
      return depths;
    }
  };

  /// The plan of one launch of `depth` steps of this source-free one-field
  /// kernel, AddOut: the one that also adds one array to its output
  /// (SourceForm::response); depth 0 where that depth is not compiled so.
  template <bool AddOut>
  static Plan2D launch_plan(const StencilPolicy<Kokkos::Cuda>& policy, const ViewType& u, int depth,
                            TuningKnobs knobs) {
    Plan2D none;
    none.depth = 0;
    if constexpr (NQ != 1 || NRO != 0 || (AddOut && max_depth < ebisu2d::kMinResponseDepth)) {
      return none;
    } else {
      const KernelLimits2D lim = limits<AddOut>(policy, u);
      if (depth >= 32 || ((lim.depth_mask >> depth) & 1u) == 0) return none;
      int ns, nf;
      extents(u, ns, nf);
      knobs.temporal_depth = depth;
      if (Tr::block_threads > 0) {
        knobs.threads = Tr::block_threads;
        knobs.tile_width = 0;
      }
      const Plan2D p = choose_plan_2d(device_model(policy.space().cuda_device()), stencil_facts(), ns, nf, depth, knobs, lim);
      return p.depth == depth ? p : none;
    }
  }

  /// Whether some cell of u keeps its value under `rules` (else the mapped
  /// kernel runs without the frame's selects).
  static bool has_frame(const ViewType& u, const BoundaryRules& rules) {
    return axis_rules(u, rules, 0, R).has_frame() || axis_rules(u, rules, 1, R).has_frame();
  }
  static void extents(const ViewType& u, int& ns, int& nf) {
    ns = static_cast<int>(u.extent(slow_is_0 ? 0 : 1));
    nf = static_cast<int>(u.extent(slow_is_0 ? 1 : 0));
  }

  static StencilModel stencil_facts() {
    StencilModel sm = stencil_model<Stencil>(static_cast<int>(sizeof(Scalar)));
    sm.box_like = Tr::K > 0;
    return sm;
  }

  /// The generic path's predicted time for the same call (what automatic weighs the plans against).
  static double generic_seconds(const StencilPolicy<Kokkos::Cuda>& policy, const ViewType& u) {
    int ns, nf;
    extents(u, ns, nf);
    return predict_generic_seconds_2d(device_model(policy.space().cuda_device()), stencil_facts(), ns, nf,
                                      policy.steps(), PolicyAccess::copy_back_free(policy));
  }

  static Plan plan(const StencilPolicy<Kokkos::Cuda>& policy, const ViewType& u) {
    Plan plan;
    const int steps = policy.steps();
    if (steps <= 0) {
      plan.why_not = "no steps";
      return plan;
    }
    int ns, nf;
    extents(u, ns, nf);
    const DeviceModel& dev = device_model(policy.space().cuda_device());
    const StencilModel sm = stencil_facts();
    const KernelLimits2D lim = limits(policy, u);
    const unsigned usable_depths = lim.depth_mask;
    TuningKnobs knobs = policy.knobs();
    plan.block_knob_ignored = Tr::block_threads > 0 && (knobs.threads > 0 || knobs.tile_width > 0) &&
                              knobs.threads != Tr::block_threads && knobs.tile_width != Tr::block_threads * Tr::CX;
    if (Tr::block_threads > 0) {  // the threads / tile-width knobs cannot change a compiled block size
      knobs.threads = Tr::block_threads;
      knobs.tile_width = 0;
    }
    plan.main = choose_plan_2d(dev, sm, ns, nf, steps, knobs, lim);
    const int depth = plan.main.depth;
    // One launch's plan per depth; the steps split into launches of the main depth and a short tail
    // (split_launches), which may give main launches back for an even count: an odd one leaves a
    // (u, scratch) call's result in scratch, and the copy back costs a pass over the field (j2d5pt at
    // 8352^2, 100 steps: 12 x 8 + 4 became 10 x 8 + 10 + 10). The DoubleBuffer and State forms flip
    // their selector instead, and pay nothing for it (charged, the 8 steps of one depth-8 launch ran as
    // two depth-4 launches: j2d5pt 10208^2 758 against 1070 GCells/s for one launch, H200). A forced
    // depth keeps the tail at or below it.
    Plan2D of_depth[32];
    bool planned[32] = {};
    const auto plan_of = [&](int d) -> const Plan2D& {
      if (!planned[d]) {
        planned[d] = true;
        TuningKnobs rk = knobs;
        rk.temporal_depth = d;
        of_depth[d] = d == depth ? plan.main : choose_plan_2d(dev, sm, ns, nf, d, rk, lim);
      }
      return of_depth[d];
    };
    unsigned splittable = 0;
    for (int d = 1; d <= max_depth && d < 32; ++d) {
      if (((usable_depths >> d) & 1u) == 0 || (knobs.temporal_depth > 0 && d > depth)) continue;
      const Plan2D& p = plan_of(d);
      if (p.depth == d && p.predicted_seconds > 0) splittable |= 1u << d;
    }
    splittable |= 1u << depth;
    const double copy_back_seconds =
        NQ == 1 && !PolicyAccess::copy_back_free(policy)
            ? 2.0 * ns * nf * static_cast<double>(sizeof(Scalar)) / (dev.dram_bandwidth_gbs * 1e9)
            : 0.0;
    const LaunchSplit split = split_launches(
        steps, depth, splittable, [&](int d) { return plan_of(d).predicted_seconds; }, copy_back_seconds);
    plan.full_launches = split.main_launches;
    int covered = plan.full_launches * depth;
    for (int d : split.tail) {
      plan.remainder.push_back(plan_of(d));
      covered += plan.remainder.back().depth;
    }
    if (covered != steps) {  // a depth the model would not plan as asked: the deepest usable remainder
      plan.full_launches = 0;
      plan.remainder.clear();
      for (int d : greedy_launch_depths(steps, depth, splittable)) {
        if (d == depth && plan.remainder.empty()) {
          ++plan.full_launches;
        } else {
          plan.remainder.push_back(plan_of(d));
        }
      }
    }
    plan.predicted_seconds = plan.full_launches * plan.main.predicted_seconds;
    for (const Plan2D& p : plan.remainder) plan.predicted_seconds += p.predicted_seconds;
    if constexpr (source_response) {
      // The response form (SourceForm, impl/source_response.hpp): g_{nd} from n launches of the source
      // kernel of the main depth d from zero, then groups of n launches of depth d, L's own kernel with the
      // last adding g_{nd}.
      const SourceForm form = knobs.source_form;
      if (form != SourceForm::per_step && covered == steps && plan.full_launches > 0) {
        const Plan2D response = LinearTiling::template launch_plan<true>(policy, u, depth, knobs);
        const Plan2D own = LinearTiling::template launch_plan<false>(policy, u, depth, knobs);
        if (response.depth == depth && own.depth == depth && own.predicted_seconds > 0) {
          KeptResponse& kept_response = PolicyAccess::kept_response(policy);
          const ResponseSpan kept = kept_response.kept_span(depth);
          const KeptResponse::LoopLength loop = kept_response.loop_length(steps);
          // Two splits of the steps: the per-step form's, and as many launches of the main depth as fit
          // with the rest in one short tail (the per-step split may give main launches back for an even
          // count or a deeper tail: 8352^2, 100 steps, 10 x 8 + 10 + 10, where the response form with a
          // response every n launches would rather run 12 x 8 + 4). Each priced as the loop pays it (kept,
          // else per call); a whole-call response runs the tail source-free too.
          struct Split {
            int launches = 0;
            std::vector<Plan2D> tail, folded;
            ResponseChoice schedules;
            double seconds = 0;
          };
          const auto price = [&](int launches, std::vector<Plan2D> tail) {
            Split sp{launches, std::move(tail), {}, {}, 0};
            ResponseTail rt;
            rt.launches = static_cast<int>(sp.tail.size());
            rt.own_seconds = 0;
            std::vector<int> tail_depths;
            for (const Plan2D& p : sp.tail) {
              rt.source_seconds += p.predicted_seconds;
              tail_depths.push_back(p.depth);
              const Plan2D o = LinearTiling::template launch_plan<false>(policy, u, p.depth, knobs);
              if (o.depth != p.depth || o.predicted_seconds <= 0) rt.own_seconds = -1;
              if (rt.own_seconds >= 0) rt.own_seconds += o.predicted_seconds;
              sp.folded.push_back(o);
            }
            sp.schedules = choose_response(launches, own.predicted_seconds, ebisu2d::kResponseCosts,
                                           static_cast<double>(ns) * nf * sizeof(Scalar), form == SourceForm::response,
                                           knobs.response_interval,
                                           KeptState{kept.interval, !kept.folded.empty() && kept.folded == tail_depths,
                                                     loop.calls, loop.calls_of_these_steps},
                                           ebisu2d::kResponseMinLaunches, rt);
            const ResponseSchedule& s = sp.schedules.kept.interval > 0 ? sp.schedules.kept : sp.schedules.per_call;
            const bool odd = (launches + sp.tail.size()) % 2 == 1;
            sp.seconds = s.interval > 0 ? s.seconds + (odd ? copy_back_seconds : 0.0) : std::numeric_limits<double>::infinity();
            return sp;
          };
          Split best = price(plan.full_launches, plan.remainder);
          if (steps / depth != plan.full_launches) {
            std::vector<Plan2D> tail;
            for (int d : greedy_launch_depths(steps % depth, depth, splittable)) tail.push_back(plan_of(d));
            Split deepest = price(steps / depth, std::move(tail));
            if (deepest.seconds < best.seconds) best = std::move(deepest);
          }
          if (best.schedules.any()) {
            plan.response = response;
            plan.own = own;
            plan.schedules = best.schedules;
            plan.response_launches = best.launches;
            plan.response_remainder = best.tail;
            plan.response_folded = best.folded;
          }
          if (best.schedules.per_call.interval > 0) plan.predicted_seconds = best.schedules.per_call.seconds;
        }
      }
    }
    plan.interior_cells = static_cast<double>(ns - 2 * R) * (nf - 2 * R);
    plan.valid = true;
    if (knobs.temporal_depth <= 0) {
      for (int d = depth + 1; d <= std::min(max_depth, steps) && d < 32; ++d) {
        if (((usable_depths >> d) & 1u) != 0 && plan_of(d).depth == d && plan_of(d).predicted_seconds > 0) {
          plan.deeper_depth = d;
          break;
        }
      }
    }
    return plan;
  }

  /// What the model needs of this stencil's compiled kernels for a call on u.
  /// AddOut: of the instantiations that add one more array to their output
  /// (SourceForm::response; the response depths only), which stream
  /// it through the input ring like a register field.
  template <bool AddOut = false>
  static KernelLimits2D limits(const StencilPolicy<Kokkos::Cuda>& policy, const ViewType& u) {
    KernelLimits2D lim;
    lim.cols_per_thread = ebisu2d::kCols;
    lim.max_threads = Tr::launch_threads(ebisu2d::kMaxThreads);
    lim.max_depth = max_depth;
    lim.depth_mask = depth_mask;
    const bool mapped = !policy.boundaries().all_fixed();
    const bool framed = has_frame(u, policy.boundaries());
    static_assert(!AddOut || (NQ == 1 && NRO == 0), "EbisuKokkos: the response form runs a source-free one-field kernel");
    // The deepest instantiation that can run (AddOut: of the response depths).
    const cudaFuncAttributes* deepest = nullptr;
    if constexpr (!AddOut) deepest = &K::attributes(mapped, framed);
    // Fixed-block kernels: blocks per SM follow the registers of the depth that
    // runs (their launch bounds make room for three at depth <= 8). The others
    // keep the deepest one's count, as in the model's calibration: extra blocks
    // of the runtime-sized radius-2 kernels measured slower, not faster (H200:
    // j2d9pt depth 4 at 3/SM 547 vs depth 6 at 2/SM 565 GCells/s; j2d25pt
    // depth 2 at 4/SM 267 vs depth 4 at 3/SM 312).
    // Several fields or levels: a depth whose windows do not fit the registers
    // (at the 255 cap, or spilling to local memory) is not a candidate (H200,
    // Gray-Scott 4096^2 at depth 8: 255 registers, 170 GCells/s; depth 4: 154, 310).
    unsigned usable_depths = depth_mask;
    ebisu2d::dispatch_depth<Stencil, Scalar, slow_is_0, NS, NL>(0, [&](auto kernel) {
      constexpr int d = decltype(kernel)::depth;
      if constexpr (AddOut && !ebisu2d::response_depth<d>) {
        usable_depths &= ~(1u << d);
      } else {
        const cudaFuncAttributes& a = kernel.template attributes<AddOut>(mapped, framed);
        if (AddOut) deepest = &a;
        if (Tr::block_threads > 0 || AddOut) lim.regs_by_depth[d] = a.numRegs;
        if (NQ > 1 && d > 1 && (a.localSizeBytes > 0 || a.numRegs >= 255)) usable_depths &= ~(1u << d);
        if (decltype(kernel)::fields_in_registers || AddOut) lim.register_field_depths |= 1u << d;
      }
    }, kinds);
    lim.depth_mask = usable_depths;
    if (deepest == nullptr) return lim;  // no response depth compiled (depth_mask 0)
    lim.regs_per_thread = deepest->numRegs;
    using Shape = ebisu2d::StreamShape<Tr, 1, NL, reads_older_levels_around<NS, NL, FieldKinds...>()>;
    lim.queue_slots = Shape::QL;
    lim.planes_per_stage = NQ == 1 ? Tr::planes_per_stage : NS * Shape::QL * Tr::CX;
    lim.smem_accesses_per_cell = NS * Tr::smem_accesses_per_cell;
    lim.prefetch_rows = ebisu2d::kPrefetchRows;
    lim.state_fields = NS;
    lim.state_levels = NL;
    // A field read over the footprint may touch its whole box (what the functor does not read, the compiler
    // drops): the distinct values of a thread's CX cells, (CX + 2R) columns x (2R + 1) rows, per cell.
    constexpr double box_reads = static_cast<double>((Tr::CX + 2 * R) * (2 * R + 1)) / Tr::CX;
    lim.read_only_fields = NRO + (AddOut ? 1 : 0);
    double field_accesses = AddOut ? 1.0 : 0.0;
    [[maybe_unused]] int kind = 0;
    ((field_accesses += kind++ < NE ? 0.0 : (FieldKinds::centre_only ? 1.0 : box_reads)), ...);
    lim.field_accesses_per_cell = field_accesses;
    if (deepest->maxThreadsPerBlock < lim.max_threads) lim.max_threads = deepest->maxThreadsPerBlock / 32 * 32;
    return lim;
  }

  /// One field on (u, scratch); fields: FieldViews of FieldKinds (NoFields
  /// when there are none). The outcome says which of the two holds step T.
  template <class FieldSet = NoFields>
  static StencilOutcome run(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                            const Stencil& stencil, const ViewType& u, const ViewType& scratch, const Plan& plan,
                            const FieldSet& fields = FieldSet{}) {
    static_assert(NQ == 1, "EbisuKokkos: SmTiling2D::run is the single-field form (run_state otherwise)");
    if constexpr (source_response) {
      if (plan.response.depth > 0) return run_response(label, policy, stencil, u, scratch, plan, fields);
      // (A plan that did not weigh the response form: the loop's length still counts, for the build's share.)
      if (!plan.schedules.any() && policy.knobs().source_form != SourceForm::per_step) {
        count_source_call<ResponseView>(policy, stencil, u);
      }
    }
    const ViewType ends[2] = {u, scratch};
    StencilOutcome outcome = launches(label, policy, stencil, u, plan, fields, [&](int launch, int, int, Buffers& b) {
      const ViewType& from = ends[launch % 2];
      const ViewType& to = ends[(launch + 1) % 2];
      b.src = from.data();
      b.dst = to.data();
      b.src_stride = static_cast<long>(from.stride(slow_is_0 ? 0 : 1));
      b.dst_stride = static_cast<long>(to.stride(slow_is_0 ? 0 : 1));
    });
    outcome.result_in_scratch = outcome.report.launches % 2 == 1;
    return outcome;
  }

  /// Why run_state cannot take these buffers (empty: it can).
  static std::string state_refusal(const std::array<ViewType, NB>& ring) { return level_pool_refusal(ring); }

  /// Several state fields or levels: the buffers in StateRing order (field
  /// f's slot j at f * (NL + 1) + j, slot 0 its newest level); fields: the
  /// read-only fields. On return field f's level l is in its ring slot T - l.
  /// A launch reads NL levels of a field and writes up to NL new ones, which
  /// must not land in a buffer another block may still read (blocks overlap
  /// their halos): with NL >= 2 the ring's NL + 1 buffers are too few, so
  /// NL - 1 more per field are borrowed for the call, and at the end the levels
  /// are copied to the slots the ring expects where they are not already there.
  template <class FieldSet>
  static StencilOutcome run_state(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                                  const Stencil& stencil, const std::array<ViewType, NB>& ring, const Plan& plan,
                                  const FieldSet& fields) {
    LevelPool<Scalar, typename ViewType::memory_space, NS, NL> pool(ring);
    const long stride = static_cast<long>(ring[0].stride(slow_is_0 ? 0 : 1));  // unpadded: every buffer's
    StencilOutcome outcome = launches(label, policy, stencil, ring[0], plan, fields, [&](int, int, int k, Buffers& b) {
      pool.next_launch(k, b.state.in, b.state.out);
      for (int q = 0; q < NQ; ++q) b.state.in_stride[q] = b.state.out_stride[q] = stride;
      b.src = b.state.in[0];
      b.src_stride = stride;
      b.dst = b.state.out[0];
      b.dst_stride = stride;
    });
    const int copies = pool.settle(policy.steps(), policy.space());
    outcome.report.plan += pool.describe(copies);
    pool.release_after(policy.space());
    return outcome;
  }

 private:
  template <class, class, int, int, class...>
  friend struct SmTiling2D;

  // SourceForm::response (plan.response.depth = d > 0; impl/source_response.hpp): g_{nd} from n launches
  // of the source kernel of depth d from zero (ping-pong between scratch and the response's buffer, the
  // last into the buffer), then groups of n launches of depth d of L's own kernel, the last adding g_{nd}
  // at its output (one read per cell, streamed through the input ring like a register field: no stage
  // holds it, so the kernel keeps L's occupancy); the launches of depth d after the last group and the
  // plan's remainder the source kernel. A whole-call response (g_T: the remainder's launches in the
  // set-up too) runs the remainder first with L's own kernel, then one group.
  template <class FieldSet>
  static StencilOutcome run_response(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                                     const Stencil& stencil, const ViewType& u, const ViewType& scratch, const Plan& plan,
                                     const FieldSet& fields) {
    using Response = ResponseView;
    const int d = plan.main.depth;
    const std::vector<int> tail_depths = plan.tail_depths();
    const ResponseClaim<Response> claim =
        claim_source_response<Response>(policy, stencil, u, fields, d, span_of(plan.schedules.per_call, tail_depths),
                                        span_of(plan.schedules.kept, tail_depths));
    if (!claim.run) {  // the per-step form: the plan without its response
      Plan per_step = plan;
      per_step.response = Plan2D{0};
      StencilOutcome outcome = run(label, policy, stencil, u, scratch, per_step, fields);
      outcome.report.plan += "; per step: " + claim.note;
      return outcome;
    }
    const Response& response = claim.response;
    const int n = claim.span.interval;
    const bool whole_call = !claim.span.folded.empty();  // g_T of all the call's launches
    const auto stride_of = [](Scalar* data, const auto& v) {
      return std::pair<Scalar*, long>(data, static_cast<long>(v.stride(slow_is_0 ? 0 : 1)));
    };
    const std::pair<Scalar*, long> g = stride_of(response.data(), response), s = stride_of(scratch.data(), scratch);
    // Set-up launch j of m writes g if m - 1 - j is even, scratch otherwise; the first reads the other, zeroed.
    const std::pair<Scalar*, long> setup_ends[2] = {g, s};
    Plan source = plan;
    if (claim.set_up) {
      source.full_launches = n;
      source.remainder = whole_call ? plan.response_remainder : std::vector<Plan2D>{};
      const int m = n + static_cast<int>(source.remainder.size());
      if (m % 2 == 1) {
        Kokkos::deep_copy(policy.space(), scratch, Scalar(0));
      } else {
        Kokkos::deep_copy(policy.space(), response, Scalar(0));
      }
      launches(label + ":source-response", policy, stencil, u, source, fields, [&](int j, int, int, Buffers& b) {
        b.src = setup_ends[(m - j) % 2].first;
        b.src_stride = setup_ends[(m - j) % 2].second;
        b.dst = setup_ends[(m - 1 - j) % 2].first;
        b.dst_stride = setup_ends[(m - 1 - j) % 2].second;
      });
    }

    const ViewType ends[2] = {u, scratch};
    int done = 0;  // launches of the call so far: the next reads ends[done % 2]
    const auto next = [&](int, int, int, auto& b) {
      b.src = ends[done % 2].data();
      b.src_stride = static_cast<long>(ends[done % 2].stride(slow_is_0 ? 0 : 1));
      b.dst = ends[(done + 1) % 2].data();
      b.dst_stride = static_cast<long>(ends[(done + 1) % 2].stride(slow_is_0 ? 0 : 1));
      ++done;
    };
    const auto linear = LinearPlusSource<Stencil>::linear_part(stencil);
    typename LinearTiling::Plan own, adding;
    own.valid = adding.valid = true;
    own.main = plan.own;
    own.full_launches = n - 1;
    adding.main = plan.response;
    adding.full_launches = 1;
    if (whole_call) {  // the tail first, source-free: the last launch of the call adds g_T
      typename LinearTiling::Plan folded;
      folded.valid = true;
      folded.main = plan.own;
      folded.remainder = plan.response_folded;
      LinearTiling::launches(label, policy, linear, u, folded, NoFields{}, next);
    }
    const long groups = plan.response_launches / n;
    for (long group = 0; group < groups; ++group) {
      if (n > 1) LinearTiling::launches(label, policy, linear, u, own, NoFields{}, next);
      LinearTiling::template launches<true>(label, policy, linear, u, adding, NoFields{}, next, g.first, g.second);
    }
    // The rest with the source: depth-d launches after the last group, then the plan's remainder.
    source.full_launches = static_cast<int>(plan.response_launches - groups * n);
    source.remainder = whole_call ? std::vector<Plan2D>{} : plan.response_remainder;
    if (source.full_launches > 0 || !source.remainder.empty()) {
      launches(label, policy, stencil, u, source, fields, next);
    }

    StencilOutcome outcome;
    StencilReport& report = outcome.report;
    report.backend = Backend::ebisu;
    report.strategy = Strategy::sm_tiling;
    report.launches = done;
    report.temporal_depth = d;
    report.predicted_gcells_per_s =
        plan.predicted_seconds > 0 ? plan.interior_cells * policy.steps() / plan.predicted_seconds * 1e-9 : 0;
    const bool mapped = !policy.boundaries().all_fixed();
    const bool framed = has_frame(u, policy.boundaries());
    int regs = 0;
    ebisu2d::dispatch_depth<typename LinearPartOf<Stencil>::type, Scalar, slow_is_0>(d, [&](auto kernel) {
      if constexpr (ebisu2d::response_depth<decltype(kernel)::depth>) {
        regs = kernel.template attributes<true>(mapped, framed).numRegs;
      }
    });
    std::vector<int> with_source(source.full_launches, d);
    for (const Plan2D& p : source.remainder) with_source.push_back(p.depth);
    report.plan = describe_response_form(claim.span, d, groups, claim.note, with_source) + " [source " +
                  plan.main.describe() + "; source-free " + plan.own.describe() + "; adding " +
                  plan.response.describe() + ", regs/thread " + std::to_string(regs) + "]";
    report.plan += " on " + device_model(policy.space().cuda_device()).name;
    outcome.result_in_scratch = done % 2 == 1;
    return outcome;
  }

  struct Buffers {
    const Scalar* src = nullptr;
    Scalar* dst = nullptr;
    long src_stride = 0, dst_stride = 0;
    ebisu2d::StateRows<Scalar, NQ> state{};
  };

  // The call's launches and report; buffers_of(launch, done, depth, b)
  // points b at the launch's buffers. AddOut: the kernels add `addend` (a
  // View's data and slow stride) to their output (SourceForm::response).
  template <bool AddOut = false, class FieldSet, class BuffersOf>
  static StencilOutcome launches(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                                 const Stencil& stencil, const ViewType& u, const Plan& plan, const FieldSet& fields,
                                 BuffersOf&& buffers_of, const Scalar* addend = nullptr, long addend_stride = 0) {
    static_assert(FieldSet::size == NRO, "EbisuKokkos: SM tiling run with another set of fields than planned");
    StencilOutcome outcome;
    StencilReport& report = outcome.report;
    report.backend = Backend::ebisu;
    report.strategy = Strategy::sm_tiling;
    report.launches = 0;
    int ns, nf;
    extents(u, ns, nf);
    const DeviceModel& dev = device_model(policy.space().cuda_device());
    const auto eval = stencil.template bind<Scalar, FieldKinds...>();
    const cudaStream_t stream = policy.space().cuda_stream();
    ebisu2d::FieldRows<Scalar, NRO + (AddOut ? 1 : 0)> field_rows{};
    if constexpr (NRO > 0) {
      for (int k = 0; k < NRO; ++k) {
        field_rows.data[k] = fields.views[k].data();
        field_rows.stride[k] = static_cast<long>(fields.views[k].stride(slow_is_0 ? 0 : 1));
      }
    }
    if constexpr (AddOut) {
      field_rows.data[NRO] = addend;
      field_rows.stride[NRO] = addend_stride;
    }
    Kokkos::Profiling::pushRegion("EbisuKokkos::ebisu2d::" + label);
    const BoundaryRules& rules = policy.boundaries();
    const bool mapped = !rules.all_fixed();
    const bool framed = has_frame(u, rules);
    int done = 0;
    auto launch = [&](const Plan2D& p) {
      Buffers b;
      buffers_of(report.launches, done, p.depth, b);
      ebisu2d::MappedGeometry g;
      g.src_stride = b.src_stride;
      g.dst_stride = b.dst_stride;
      g.ns = ns;
      g.nf = nf;
      g.strips = p.strips;
      g.strip_w = p.strip_width;
      g.rows_per_block = p.rows_per_block;
      g.slow = axis_rules(u, rules, slow_is_0 ? 0 : 1, R);
      g.fast = axis_rules(u, rules, slow_is_0 ? 1 : 0, R);
      if (mapped) g.slow_rows = StreamedAxis(g.slow);
      auto go = [&](auto kernel) {
        if constexpr (AddOut && !ebisu2d::response_depth<decltype(kernel)::depth>) {
          throw std::logic_error("EbisuKokkos: ebisu2d depth " + std::to_string(p.depth) +
                                 " is not compiled with an added output array");
        } else {
        auto start = [&](auto function, const auto& geometry) {
          EBISU_CUDA_CHECK(cudaFuncSetAttribute(function, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                static_cast<int>(p.smem_bytes)),
                           "ebisu2d_kernel");
          function<<<p.blocks, p.threads, p.smem_bytes, stream>>>(eval, b.src, b.dst, geometry, field_rows, b.state);
          EBISU_CUDA_CHECK(cudaGetLastError(), "ebisu2d_kernel");
        };
        if (mapped && framed) {
          start(kernel.template function<true, true, AddOut>(), g);
        } else if (mapped) {
          start(kernel.template function<true, false, AddOut>(), g);
        } else {
          start(kernel.template function<false, true, AddOut>(), static_cast<const ebisu2d::Geometry&>(g));
        }
        }
      };
      ebisu2d::dispatch_depth<Stencil, Scalar, slow_is_0, NS, NL>(p.depth, go, kinds);
      ++report.launches;
      done += p.depth;
    };
    for (int i = 0; i < plan.full_launches; ++i) launch(plan.main);
    for (const Plan2D& p : plan.remainder) launch(p);
    Kokkos::Profiling::popRegion();
    if constexpr (AddOut) return outcome;  // run_response reports (and the plain kernels stay uninstantiated)

    const int depth = plan.main.depth;
    const int steps = policy.steps();
    report.temporal_depth = depth;
    report.predicted_gcells_per_s =
        plan.predicted_seconds > 0 ? plan.interior_cells * steps / plan.predicted_seconds * 1e-9 : 0;
    report.plan = plan.main.describe() + "; " + std::to_string(plan.full_launches) + " launch(es) of depth " +
                  std::to_string(depth);
    for (const Plan2D& p : plan.remainder) {
      report.plan += " + 1 of depth " + std::to_string(p.depth) + " [" + p.describe() + "]";
    }
    int depth_regs = K::attributes(mapped, framed).numRegs;
    std::size_t depth_local = 0;
    bool fields_in_registers = false;
    ebisu2d::dispatch_depth<Stencil, Scalar, slow_is_0, NS, NL>(depth, [&](auto kernel) {
      depth_regs = kernel.attributes(mapped, framed).numRegs;
      depth_local = kernel.attributes(mapped, framed).localSizeBytes;
      fields_in_registers = decltype(kernel)::fields_in_registers;
    }, kinds);
    report.plan += "; regs/thread " + std::to_string(depth_regs) +
                   (depth_local > 0 ? ", local memory " + std::to_string(depth_local) + " B" : "") + " on " + dev.name;
    if (plan.block_knob_ignored) {
      report.plan += "; threads/tile_width knob ignored (radius-1 kernels are compiled for " +
                     std::to_string(Tr::block_threads) + "-thread blocks)";
    }
    if (Tr::partial_sums) report.plan += "; column partial sums exchanged";
    if (NRO > 0) {
      report.plan += "; " + std::to_string(NRO) +
                     (fields_in_registers ? " centre-only field(s) in registers" : " read-only field queue(s) in shared memory");
    }
    return outcome;
  }
};

/// SmTiling2D for the field kinds of a FieldViews (NoFields: none); for
/// several state fields or levels, FieldSet is the step's fields (StepFields).
template <class Stencil, class ViewType, class FieldSet, int NS = 1, int NL = 1>
struct SmTiling2DFor;
template <class Stencil, class ViewType, class ConstView, class... Kinds, int NS, int NL>
struct SmTiling2DFor<Stencil, ViewType, FieldViews<ConstView, Kinds...>, NS, NL> {
  using type = SmTiling2D<Stencil, ViewType, NS, NL, Kinds...>;
};

}  // namespace Cuda
}  // namespace Impl
}  // namespace EbisuKokkos

#endif
