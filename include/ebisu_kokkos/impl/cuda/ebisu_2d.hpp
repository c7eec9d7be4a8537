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
// stage in registers (redundant register streaming); the values other threads
// need (off-column neighbours) go through a per-stage circular queue of Q rows
// in shared memory, stored column-plane-wise ([col % CX][col / CX]) so that
// every access is bank-conflict free. Input rows are prefetched one row
// ahead into registers. The fast axis uses overlapped halos (a tile yields
// TW - 2 t R valid columns); the grid is persistent: SMs x blocks-per-SM
// blocks, each streaming an equal run of the strip-major list of rows.
// The plan (depth, tile, grid) comes from performance_model_2d.

#include <ebisu_kokkos/impl/cuda/cuda_check.hpp>
#include <ebisu_kokkos/impl/cuda/device_helpers.hpp>
#include <ebisu_kokkos/impl/cuda/device_properties.hpp>
#include <ebisu_kokkos/impl/performance_model_2d.hpp>
#include <ebisu_kokkos/policy.hpp>

#include <Kokkos_Core.hpp>

#include <cstdio>
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

template <class Stencil>
struct Traits {
  using points = typename Stencil::points;
  static constexpr int R = Stencil::radius;
  // Largest |slow offset| among points off the thread's own column.
  static constexpr int off_column_reach(int slow_axis, int fast_axis) {
    int k = 0;
    for (int p = 0; p < points::size; ++p) {
      if (points::offset(p, fast_axis) != 0) {
        const int d = points::offset(p, slow_axis);
        k = (d < 0 ? -d : d) > k ? (d < 0 ? -d : d) : k;
      }
    }
    return k;
  }
  static constexpr int max_depth = R == 1 ? 10 : 6;
  // Depths compiled (bit d = depth d): the stages of one streamed row form a
  // single basic block only when the depth is a compile-time constant.
  static constexpr unsigned depth_mask = R == 1 ? ((1u << 1) | (1u << 2) | (1u << 4) | (1u << 8) | (1u << 10))
                                                : ((1u << 1) | (1u << 2) | (1u << 4) | (1u << 6));
};

// Reads of one cell update (column J of the thread): own columns from the
// register window, the other threads' columns from the shared-memory queue.
template <class Scalar, int R, int K, int Q, int CX, bool SlowIs0, int J>
struct CellAccessor {
  const Scalar (&w)[CX][2 * R + 1];
  const Scalar* q;
  const int (&slot)[2 * K + 1];
  int plane;

  template <int D0, int D1, int D2>
  __device__ __forceinline__ Scalar get() const {
    constexpr int ds = SlowIs0 ? D0 : D1;
    constexpr int df = SlowIs0 ? D1 : D0;
    static_assert(D2 == 0, "EbisuKokkos: a 2-D stencil has no third offset");
    static_assert(ds >= -R && ds <= R && df >= -R && df <= R, "EbisuKokkos: offset beyond the stencil radius");
    constexpr int jj = J + df;
    if constexpr (jj >= 0 && jj < CX) {
      return w[jj][R + ds];
    } else {
      static_assert(ds >= -K && ds <= K, "EbisuKokkos: off-column slow offset beyond the queue reach");
      constexpr int mo = jj >= 0 ? jj / CX : -((-jj + CX - 1) / CX);
      constexpr int jp = jj - mo * CX;
      return q[slot[ds + K] + jp * plane + mo];
    }
  }
};

struct Geometry {
  long src_stride, dst_stride;  // slow strides (elements)
  int ns, nf;                   // extents along the slow and the fast axis
  int strips, strip_w;          // output columns per strip
  long rows_per_block;          // run length in the strip-major row list
};

// MAXT: the depth (time steps per launch) of this instantiation.
template <class Eval, class Scalar, int R, int K, int MAXT, int CX, bool SlowIs0>
__global__ void __launch_bounds__(kMaxThreads, 1)
    ebisu2d_kernel(const Eval eval, const Scalar* __restrict__ src, Scalar* __restrict__ dst, const Geometry g) {
  constexpr int Q = 2 * K + 2;
  constexpr int W = 2 * R + 1;
  constexpr int PADM = (R + CX - 1) / CX;
  extern __shared__ __align__(16) unsigned char ebisu2d_smem_raw[];
  Scalar* smem = reinterpret_cast<Scalar*>(ebisu2d_smem_raw);

  constexpr int t = MAXT;  // the depth of this instantiation
  const int m = threadIdx.x;
  const int nthreads = blockDim.x;
  const int plane = nthreads + 2 * PADM;   // one column plane of one queue row
  const int row_stride = CX * plane;       // one queue row
  const int queue_stride = Q * row_stride; // one stage's queue

  // Input ring after the queues: kPrefetchRows + 1 rows, each thread's own
  // CX values per row (only the owning thread touches them).
  constexpr int P = kPrefetchRows;
  Scalar* ring = smem + t * queue_stride;

  // Zero the queues once (pads are never written again).
  for (int i = threadIdx.x; i < t * queue_stride; i += nthreads) smem[i] = Scalar(0);
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
    const int gx0 = out0 - t * R + m * CX;  // global column of this thread's column 0
    const int y_start = seg0 - t * R > 0 ? seg0 - t * R : 0;
    const int y_end = seg1 + t * R < g.ns ? seg1 + t * R : g.ns;

    bool col_in[CX], col_bnd[CX], col_out[CX];
#pragma unroll
    for (int j = 0; j < CX; ++j) {
      const int x = gx0 + j;
      col_in[j] = x >= 0 && x < g.nf;
      col_bnd[j] = x < R || x >= g.nf - R;
      col_out[j] = x >= out0 && x < out1;
    }

    Scalar win[MAXT][CX][W];
#pragma unroll
    for (int s = 0; s < MAXT; ++s)
#pragma unroll
      for (int j = 0; j < CX; ++j)
#pragma unroll
        for (int d = 0; d < W; ++d) win[s][j][d] = Scalar(0);

    const Scalar* src_col = src + gx0;
    auto ring_at = [&](int slot, int j) { return ring + (slot * CX + j) * nthreads + m; };
    auto request_row = [&](int y, int slot) {
#pragma unroll
      for (int j = 0; j < CX; ++j) {
        const bool valid = y < y_end && col_in[j];
        async_copy_or_zero(ring_at(slot, j), valid ? src_col + static_cast<long>(y) * g.src_stride + j : src, valid);
      }
      async_commit();
    };
    for (int p = 0; p < P; ++p) request_row(y_start + p, p);

    const int n_iter = seg1 - y_start + t * (R + 1);

    for (int it = 0; it < n_iter; ++it) {
      // Queue offsets of rows c-K..c+K of the previous stage: row c+ds was
      // written at iteration it-1-(K-ds).
      int slot[2 * K + 1];
#pragma unroll
      for (int d = 0; d <= 2 * K; ++d) slot[d] = ((it + Q - 1 - (2 * K - d)) % Q) * row_stride + PADM + m;
      const int wslot = (it % Q) * row_stride + PADM + m;

      // All stages read first, then all stages write: every value a stage
      // reads (the previous stage's register window and queue rows written in
      // earlier iterations) predates this row's updates, so computing every
      // output before the first shared-memory store leaves the compiler free to
      // interleave the t independent stages (loads may not move above a store
      // that could alias them).
      Scalar out[MAXT][CX];
      static_for<MAXT>([&](auto S_) {
        constexpr int s = decltype(S_)::value + 1;  // 1 .. MAXT
        // Always computed (no branch: all stages of the row interleave);
        // rows outside a stage's useful range only feed rows never stored.
        const int c = y_start + it - s * (R + 1);
        const Scalar* q = smem + (s - 1) * queue_stride;
        const bool row_bnd = c < R || c >= g.ns - R;
        static_for<CX>([&](auto J_) {
          constexpr int j = decltype(J_)::value;
          CellAccessor<Scalar, R, K, Q, CX, SlowIs0, j> acc{win[s - 1], q, slot, plane};
          const Scalar v = eval(acc);
          out[s - 1][j] = (row_bnd || col_bnd[j]) ? win[s - 1][j][R] : v;
        });
      });
      static_for<MAXT - 1>([&](auto S_) {
        constexpr int s = decltype(S_)::value + 1;  // 1 .. MAXT-1; the deepest is stored to dst
#pragma unroll
        for (int j = 0; j < CX; ++j) {
#pragma unroll
          for (int d = 0; d < W - 1; ++d) win[s][j][d] = win[s][j][d + 1];
          win[s][j][W - 1] = out[s - 1][j];
          smem[s * queue_stride + wslot + j * plane] = win[s][j][R + K];
        }
      });
      Scalar (&last)[CX] = out[MAXT - 1];

      // Load stage: push input row y_start+it (requested P iterations ago),
      // store it for stage 1, request row y_start+it+P into the ring slot read
      // in the previous iteration (the barrier since then ends that read).
      async_wait<P - 1>();
      Scalar pf[CX];
#pragma unroll
      for (int j = 0; j < CX; ++j) pf[j] = *ring_at(it % (P + 1), j);
#pragma unroll
      for (int j = 0; j < CX; ++j) {
#pragma unroll
        for (int d = 0; d < W - 1; ++d) win[0][j][d] = win[0][j][d + 1];
        win[0][j][W - 1] = pf[j];
        smem[wslot + j * plane] = win[0][j][R + K];
      }
      request_row(y_start + it + P, (it + P) % (P + 1));
      const int c_last = y_start + it - t * (R + 1);
      if (c_last >= seg0) {
        Scalar* d = dst + static_cast<long>(c_last) * g.dst_stride + gx0;
#pragma unroll
        for (int j = 0; j < CX; ++j)
          if (col_out[j]) d[j] = last[j];
      }
      __syncthreads();
    }
    async_wait_all();  // the next piece reuses the ring
  }
}

template <class Stencil, class Scalar, bool SlowIs0, int Depth>
struct Kernel {
  static constexpr int R = Stencil::radius;
  static constexpr int K = Traits<Stencil>::off_column_reach(SlowIs0 ? 0 : 1, SlowIs0 ? 1 : 0);
  static constexpr int MAXT = Depth;
  using Eval = decltype(std::declval<const Stencil&>().template bind<Scalar>());
  static constexpr auto function() { return &ebisu2d_kernel<Eval, Scalar, R, K, MAXT, kCols, SlowIs0>; }

  static const cudaFuncAttributes& attributes() {
    static const cudaFuncAttributes attr = [] {
      cudaFuncAttributes a{};
      EBISU_CUDA_CHECK(cudaFuncGetAttributes(&a, function()), "ebisu2d_kernel");
      return a;
    }();
    return attr;
  }
};

// Calls go(kernel) with the instantiation of depth `depth` (one of Traits::depth_mask).
template <class Stencil, class Scalar, bool SlowIs0, class Go>
void dispatch_depth(int depth, Go&& go) {
  constexpr unsigned mask = Traits<Stencil>::depth_mask;
  bool done = false;
  auto one = [&](auto D) {
    constexpr int d = decltype(D)::value;
    if constexpr (((mask >> d) & 1u) != 0) {
      if (depth == d) {
        go(Kernel<Stencil, Scalar, SlowIs0, d>::function());
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

template <class Stencil, class ViewType>
StencilReport run_ebisu_2d(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                            const Stencil& stencil, const ViewType& u, const ViewType& scratch) {
  using Scalar = typename ViewType::non_const_value_type;
  using Layout = typename ViewType::array_layout;
  constexpr bool slow_is_0 = std::is_same_v<Layout, Kokkos::LayoutRight>;
  using Tr = ebisu2d::Traits<Stencil>;
  using K = ebisu2d::Kernel<Stencil, Scalar, slow_is_0, Tr::max_depth>;  // register use of the deepest
  constexpr int R = Stencil::radius;

  const Kokkos::Cuda& space = policy.space();
  const int steps = policy.steps();
  StencilReport report;
  report.backend = Backend::ebisu;
  report.launches = 0;
  if (steps == 0) {
    report.temporal_depth = 0;
    report.plan = "ebisu-2d: no steps";
    return report;
  }

  const int ns = static_cast<int>(u.extent(slow_is_0 ? 0 : 1));
  const int nf = static_cast<int>(u.extent(slow_is_0 ? 1 : 0));
  const long u_stride = static_cast<long>(u.stride(slow_is_0 ? 0 : 1));
  const long s_stride = static_cast<long>(scratch.stride(slow_is_0 ? 0 : 1));

  const DeviceModel& dev = device_model(space.cuda_device());
  StencilModel sm = stencil_model<Stencil>(static_cast<int>(sizeof(Scalar)));
  sm.box_like = K::K > 0;
  KernelLimits2D lim;
  lim.cols_per_thread = ebisu2d::kCols;
  lim.max_threads = ebisu2d::kMaxThreads;
  lim.max_depth = Tr::max_depth;
  lim.depth_mask = Tr::depth_mask;
  lim.regs_per_thread = K::attributes().numRegs;
  lim.queue_slots = 2 * K::K + 2;
  lim.prefetch_rows = ebisu2d::kPrefetchRows;
  if (K::attributes().maxThreadsPerBlock < lim.max_threads) lim.max_threads = K::attributes().maxThreadsPerBlock / 32 * 32;

  const TuningKnobs& knobs = policy.knobs();
  const Plan2D main_plan = choose_plan_2d(dev, sm, ns, nf, steps, knobs, lim);
  const int depth = main_plan.depth;
  const int full = steps / depth;
  // The remainder as a few launches of compiled depths (largest first).
  std::vector<Plan2D> rem_plans;
  for (int rem = steps % depth; rem > 0;) {
    int d = rem;
    while (d > 1 && !((Tr::depth_mask >> d) & 1u)) --d;
    TuningKnobs rk = knobs;
    rk.temporal_depth = d;
    rem_plans.push_back(choose_plan_2d(dev, sm, ns, nf, d, rk, lim));
    rem -= rem_plans.back().depth;
  }

  const auto eval = stencil.template bind<Scalar>();
  const cudaStream_t stream = space.cuda_stream();
  Kokkos::Profiling::pushRegion("EbisuKokkos::ebisu2d::" + label);
  const Scalar* src = u.data();
  Scalar* dst = scratch.data();
  long src_stride = u_stride, dst_stride = s_stride;
  bool in_scratch = false;
  auto launch = [&](const Plan2D& p) {
    ebisu2d::Geometry g;
    g.src_stride = src_stride;
    g.dst_stride = dst_stride;
    g.ns = ns;
    g.nf = nf;
    g.strips = p.strips;
    g.strip_w = p.strip_width;
    g.rows_per_block = p.rows_per_block;
    auto go = [&](auto kernel) {
      EBISU_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(p.smem_bytes)),
                       "ebisu2d_kernel");
      kernel<<<p.blocks, p.threads, p.smem_bytes, stream>>>(eval, src, dst, g);
      EBISU_CUDA_CHECK(cudaGetLastError(), "ebisu2d_kernel");
    };
    ebisu2d::dispatch_depth<Stencil, Scalar, slow_is_0>(p.depth, go);
    ++report.launches;
    in_scratch = !in_scratch;
    std::swap(src_stride, dst_stride);
    Scalar* next_dst = const_cast<Scalar*>(src);
    src = dst;
    dst = next_dst;
  };
  for (int i = 0; i < full; ++i) launch(main_plan);
  for (const Plan2D& p : rem_plans) launch(p);
  if (in_scratch) Kokkos::deep_copy(space, u, scratch);
  Kokkos::Profiling::popRegion();

  const double interior = static_cast<double>(ns - 2 * R) * (nf - 2 * R);
  double seconds = full * main_plan.predicted_seconds;
  for (const Plan2D& p : rem_plans) seconds += p.predicted_seconds;
  report.temporal_depth = depth;
  report.predicted_gcells_per_s = seconds > 0 ? interior * steps / seconds * 1e-9 : 0;
  report.plan = main_plan.describe() + "; " + std::to_string(full) + " launch(es) of depth " + std::to_string(depth);
  for (const Plan2D& p : rem_plans) report.plan += " + 1 of depth " + std::to_string(p.depth) + " [" + p.describe() + "]";
  report.plan += "; regs/thread " + std::to_string(K::attributes().numRegs) + " on " + dev.name;
  if (knobs.print_plan) std::printf("%s: %s\n", label.c_str(), report.plan.c_str());
  return report;
}

}  // namespace Cuda
}  // namespace Impl
}  // namespace EbisuKokkos

#endif
