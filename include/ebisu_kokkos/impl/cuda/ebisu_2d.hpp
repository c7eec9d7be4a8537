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
#include <ebisu_kokkos/impl/cuda/device_properties.hpp>
#include <ebisu_kokkos/impl/performance_model_2d.hpp>
#include <ebisu_kokkos/policy.hpp>

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>

namespace EbisuKokkos {
namespace Impl {
namespace Cuda {
namespace ebisu2d {

constexpr int kMaxThreads = 256;
constexpr int kCols = 2;  // CX: adjacent columns per thread

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

template <int N, class F, int... I>
__device__ __forceinline__ void static_for_impl(F&& f, std::integer_sequence<int, I...>) {
  (f(std::integral_constant<int, I>{}), ...);
}
template <int N, class F>
__device__ __forceinline__ void static_for(F&& f) {
  static_for_impl<N>(f, std::make_integer_sequence<int, N>{});
}

struct Geometry {
  long src_stride, dst_stride;  // slow strides (elements)
  int ns, nf;                   // extents along the slow and the fast axis
  int depth;                    // time steps of this launch (<= MAXT)
  int strips, strip_w;          // output columns per strip
  long rows_per_block;          // run length in the strip-major row list
};

template <class Eval, class Scalar, int R, int K, int MAXT, int CX, bool SlowIs0>
__global__ void __launch_bounds__(kMaxThreads, 1)
    ebisu2d_kernel(const Eval eval, const Scalar* __restrict__ src, Scalar* __restrict__ dst, const Geometry g) {
  constexpr int Q = 2 * K + 2;
  constexpr int W = 2 * R + 1;
  constexpr int PADM = (R + CX - 1) / CX;
  extern __shared__ __align__(16) unsigned char ebisu2d_smem_raw[];
  Scalar* smem = reinterpret_cast<Scalar*>(ebisu2d_smem_raw);

  const int t = g.depth;
  const int m = threadIdx.x;
  const int nthreads = blockDim.x;
  const int plane = nthreads + 2 * PADM;   // one column plane of one queue row
  const int row_stride = CX * plane;       // one queue row
  const int queue_stride = Q * row_stride; // one stage's queue

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
    auto load_row = [&](int y, Scalar (&buf)[CX]) {
#pragma unroll
      for (int j = 0; j < CX; ++j) {
        buf[j] = (y < y_end && col_in[j]) ? __ldg(src_col + static_cast<long>(y) * g.src_stride + j) : Scalar(0);
      }
    };
    Scalar pf[CX];
    load_row(y_start, pf);

    const int n_iter = seg1 - y_start + t * (R + 1);
    const int lo_base = y_start == 0 ? 0 : y_start;  // first useful row of stage s: lo_base + s*R (or 0)

    for (int it = 0; it < n_iter; ++it) {
      // Queue offsets of rows c-K..c+K of the previous stage: row c+ds was
      // written at iteration it-1-(K-ds).
      int slot[2 * K + 1];
#pragma unroll
      for (int d = 0; d <= 2 * K; ++d) slot[d] = ((it + Q - 1 - (2 * K - d)) % Q) * row_stride + PADM + m;
      const int wslot = (it % Q) * row_stride + PADM + m;

      // Stages from the deepest down, so each reads the previous stage's window
      // before that stage pushes into it.
      static_for<MAXT>([&](auto S_) {
        constexpr int s = MAXT - decltype(S_)::value;  // MAXT .. 1
        if (s <= t) {
          const int c = y_start + it - s * (R + 1);
          const int lo = y_start == 0 ? 0 : lo_base + s * R;
          const int hi = seg1 - 1 + (t - s) * R;
          if (c >= lo && c <= hi) {
            const Scalar* q = smem + (s - 1) * queue_stride;
            const bool row_bnd = c < R || c >= g.ns - R;
            Scalar out[CX];
            static_for<CX>([&](auto J_) {
              constexpr int j = decltype(J_)::value;
              CellAccessor<Scalar, R, K, Q, CX, SlowIs0, j> acc{win[s - 1], q, slot, plane};
              const Scalar v = eval(acc);
              out[j] = (row_bnd || col_bnd[j]) ? win[s - 1][j][R] : v;
            });
            if (s == t) {
              if (c >= seg0) {
                Scalar* d = dst + static_cast<long>(c) * g.dst_stride + gx0;
#pragma unroll
                for (int j = 0; j < CX; ++j)
                  if (col_out[j]) d[j] = out[j];
              }
            } else if constexpr (s < MAXT) {
#pragma unroll
              for (int j = 0; j < CX; ++j) {
#pragma unroll
                for (int d = 0; d < W - 1; ++d) win[s][j][d] = win[s][j][d + 1];
                win[s][j][W - 1] = out[j];
                smem[s * queue_stride + wslot + j * plane] = win[s][j][R + K];
              }
            }
          }
        }
      });

      // Load stage: push input row y_start+it, store it for stage 1, prefetch the next row.
#pragma unroll
      for (int j = 0; j < CX; ++j) {
#pragma unroll
        for (int d = 0; d < W - 1; ++d) win[0][j][d] = win[0][j][d + 1];
        win[0][j][W - 1] = pf[j];
        smem[wslot + j * plane] = win[0][j][R + K];
      }
      load_row(y_start + it + 1, pf);
      __syncthreads();
    }
  }
}

template <class Stencil, class Scalar, bool SlowIs0>
struct Kernel {
  static constexpr int R = Stencil::radius;
  static constexpr int K = Traits<Stencil>::off_column_reach(SlowIs0 ? 0 : 1, SlowIs0 ? 1 : 0);
  static constexpr int MAXT = Traits<Stencil>::max_depth;
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

}  // namespace ebisu2d

template <class Stencil, class ViewType>
StencilReport run_ebisu_2d(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                            const Stencil& stencil, const ViewType& u, const ViewType& scratch) {
  using Scalar = typename ViewType::non_const_value_type;
  using Layout = typename ViewType::array_layout;
  constexpr bool slow_is_0 = std::is_same_v<Layout, Kokkos::LayoutRight>;
  using K = ebisu2d::Kernel<Stencil, Scalar, slow_is_0>;
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
  lim.max_depth = K::MAXT;
  lim.regs_per_thread = K::attributes().numRegs;
  lim.queue_slots = 2 * K::K + 2;
  if (K::attributes().maxThreadsPerBlock < lim.max_threads) lim.max_threads = K::attributes().maxThreadsPerBlock / 32 * 32;

  const TuningKnobs& knobs = policy.knobs();
  const Plan2D main_plan = choose_plan_2d(dev, sm, ns, nf, steps, knobs, lim);
  const int depth = main_plan.depth;
  const int full = steps / depth, rem = steps % depth;
  Plan2D rem_plan;
  if (rem > 0) {
    TuningKnobs rk = knobs;
    rk.temporal_depth = rem;
    rem_plan = choose_plan_2d(dev, sm, ns, nf, rem, rk, lim);
  }

  const auto eval = stencil.template bind<Scalar>();
  const auto kernel = K::function();
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
    g.depth = p.depth;
    g.strips = p.strips;
    g.strip_w = p.strip_width;
    g.rows_per_block = p.rows_per_block;
    EBISU_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(p.smem_bytes)),
                     "ebisu2d_kernel");
    kernel<<<p.blocks, p.threads, p.smem_bytes, stream>>>(eval, src, dst, g);
    EBISU_CUDA_CHECK(cudaGetLastError(), "ebisu2d_kernel");
    ++report.launches;
    in_scratch = !in_scratch;
    std::swap(src_stride, dst_stride);
    Scalar* next_dst = const_cast<Scalar*>(src);
    src = dst;
    dst = next_dst;
  };
  for (int i = 0; i < full; ++i) launch(main_plan);
  if (rem > 0) launch(rem_plan);
  if (in_scratch) Kokkos::deep_copy(space, u, scratch);
  Kokkos::Profiling::popRegion();

  const double interior = static_cast<double>(ns - 2 * R) * (nf - 2 * R);
  const double seconds = full * main_plan.predicted_seconds + (rem > 0 ? rem_plan.predicted_seconds : 0.0);
  report.temporal_depth = depth;
  report.predicted_gcells_per_s = seconds > 0 ? interior * steps / seconds * 1e-9 : 0;
  report.plan = main_plan.describe() + "; " + std::to_string(full) + " launch(es) of depth " + std::to_string(depth);
  if (rem > 0) report.plan += " + 1 of depth " + std::to_string(rem) + " [" + rem_plan.describe() + "]";
  report.plan += "; regs/thread " + std::to_string(K::attributes().numRegs) + " on " + dev.name;
  if (knobs.print_plan) std::printf("%s: %s\n", label.c_str(), report.plan.c_str());
  return report;
}

}  // namespace Cuda
}  // namespace Impl
}  // namespace EbisuKokkos

#endif
