#ifndef EBISU_KOKKOS_IMPL_CUDA_EBISU_1D_HPP
#define EBISU_KOKKOS_IMPL_CUDA_EBISU_1D_HPP

// 1-D stencils on CUDA: segment tiling. Each block owns a segment of the
// domain, loads it widened by a halo of H = k x radius cells into shared
// memory, runs k steps there (two copies, one block barrier per step; step j
// computes the segment less (j + 1) x radius on each side, the cells the rest
// of the launch still needs) and writes its owned cells back: one launch per
// k steps, device memory touched once per launch instead of once per step.
// A 1-D domain has no second axis to amortise a halo over, so the halo is
// only 2H cells per segment of thousands: deep temporal blocking is nearly
// free here (32 steps at radius 1: 1.6% redundant cells), and a step costs
// shared-memory traffic only (2R + 2 accesses per cell update).
// Periodic and mirror sides: cells beyond the side are loaded through the
// rule (AxisRules) and computed like any other; fixed frames keep their value.

#include <ebisu_kokkos/impl/boundary.hpp>
#include <ebisu_kokkos/impl/cuda/cuda_check.hpp>
#include <ebisu_kokkos/impl/cuda/device_properties.hpp>
#include <ebisu_kokkos/impl/ebisu_backend_fwd.hpp>
#include <ebisu_kokkos/impl/performance_model.hpp>
#include <ebisu_kokkos/policy.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

namespace EbisuKokkos {
namespace Impl {
namespace Cuda {
namespace segments_1d {

constexpr int kThreads = 512;
constexpr int kSegmentCells = 4096;  // owned cells per block: 2 x (4096 + 2H) doubles, 3 blocks per SM (fp64, H <= 128)
constexpr int kDefaultDepth = 32;  // H200, 2^26 cells: depth 8 / 16 / 32 gave 806 / 917 / 958 GCells/s (j1d3pt)
constexpr int kMaxDepth = 64;

struct Geometry {
  int n;         // cells
  int segment;   // owned cells per block
  int halo;      // this launch's steps x radius
  int steps;     // this launch's steps
  AxisRules rules;
};

template <class Scalar>
struct SegmentAccessor {
  const Scalar* cell;
  template <int D0, int D1, int D2>
  __device__ __forceinline__ Scalar get() const {
    return cell[D0];
  }
};

template <int R, class Eval, class Scalar>
__global__ void __launch_bounds__(kThreads) segment_kernel(const Eval eval, const Scalar* __restrict__ in,
                                                           Scalar* __restrict__ out, const Geometry g) {
  extern __shared__ __align__(16) unsigned char segments_1d_smem[];
  const int local = g.segment + 2 * g.halo;
  Scalar* src = reinterpret_cast<Scalar*>(segments_1d_smem);
  Scalar* dst = src + local;
  const int org = static_cast<int>(blockIdx.x) * g.segment - g.halo;  // global index of local cell 0
  for (int i = threadIdx.x; i < local; i += blockDim.x) {
    const int x = org + i;
    src[i] = g.rules.loadable(x) ? in[g.rules.source(x)] : Scalar(0);
  }
  __syncthreads();
  for (int j = 0; j < g.steps; ++j) {
    const int lo = (j + 1) * R, hi = local - (j + 1) * R;
    for (int i = lo + threadIdx.x; i < hi; i += blockDim.x) {
      const Scalar v = eval(SegmentAccessor<Scalar>{src + i});
      dst[i] = g.rules.frame(org + i) ? src[i] : v;
    }
    Scalar* t = src;
    src = dst;
    dst = t;
    __syncthreads();
  }
  const int own = min(g.segment, g.n - (org + g.halo));
  for (int i = threadIdx.x; i < own; i += blockDim.x) out[org + g.halo + i] = src[g.halo + i];
}

}  // namespace segments_1d

/// Segment tiling for one (stencil, View type) of rank 1.
template <class Stencil, class ViewType>
struct Segments1D {
  using Scalar = typename ViewType::non_const_value_type;
  using Eval = decltype(std::declval<const Stencil&>().template bind<Scalar>());
  static constexpr int R = Stencil::radius;

  static auto function() { return &segments_1d::segment_kernel<R, Eval, Scalar>; }

  static StencilOutcome run(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                            const Stencil& stencil, const ViewType& u, const ViewType& scratch) {
    using namespace segments_1d;
    StencilOutcome outcome;
    StencilReport& report = outcome.report;
    report.backend = Backend::ebisu;
    report.strategy = Strategy::sm_tiling;
    const int n = static_cast<int>(u.extent(0));
    const int steps = policy.steps();
    const int knob = policy.knobs().temporal_depth;
    const int depth = std::max(1, std::min({knob > 0 ? knob : kDefaultDepth, kMaxDepth, std::max(1, steps)}));
    const int segment = std::min(kSegmentCells, n);
    const int blocks = (n + segment - 1) / segment;
    const int smem = static_cast<int>(2L * (segment + 2L * depth * R) * sizeof(Scalar));
    report.temporal_depth = depth;
    report.launches = (steps + depth - 1) / depth;

    // Per launch: the domain in and out of device memory, and k steps of
    // 2R + 2 shared-memory accesses per cell update, or, for a few segments
    // per SM, k steps of one block's serial chain (a barrier and a load-FMA-
    // store chain per cell a thread keeps), plus the launch itself. (H200:
    // 2^26 cells at full shared-memory bandwidth; 4096 and 65536 cells
    // ~0.9 us per step; docs/perf-notes-1d.md.)
    const DeviceModel& dev = device_model(policy.space().cuda_device());
    const double cells = static_cast<double>(n) * (1.0 + 2.0 * depth * R / segment);
    const double t_memory = 2.0 * cells * sizeof(Scalar) / (dev.dram_bandwidth_gbs * 1e9);
    const double t_smem =
        cells * depth * (2 * R + 2) * std::max<int>(4, sizeof(Scalar)) / (dev.smem_bandwidth_gbs * 1e9);
    const int per_thread = (segment + 2 * depth * R + kThreads - 1) / kThreads;
    const double t_chain = depth * (300.0 + 120.0 * per_thread) / (dev.clock_ghz * 1e9);
    const double t_launch = std::max(t_memory + t_smem, t_chain) + 4e-6;
    report.predicted_gcells_per_s = std::max(0, n - 2 * R) * static_cast<double>(depth) / t_launch * 1e-9;
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "ebisu-1d: segment tiling, depth %d, %d blocks of %d cells (+ halo %d each side) x %d threads, "
                  "%d KB shared, predicted %.1f GCells/s",
                  depth, blocks, segment, depth * R, kThreads, smem / 1024, report.predicted_gcells_per_s);
    report.plan = buf;
    if (policy.knobs().strategy == Strategy::device_tiling) {
      report.plan = "device tiling not possible (1-D domains run segment tiling); " + report.plan;
    }
    if (steps == 0) {
      report.launches = 0;
      return outcome;
    }

    segments_1d::Geometry g{};
    g.n = n;
    g.segment = segment;
    g.rules = AxisRules(n, policy.boundaries().side[0][0], policy.boundaries().side[0][1], R);
    EBISU_CUDA_CHECK(cudaFuncSetAttribute(function(), cudaFuncAttributeMaxDynamicSharedMemorySize, smem),
                     "segment_kernel");
    const cudaStream_t stream = policy.space().cuda_stream();
    const Eval eval = stencil.template bind<Scalar>();
    Scalar* src = u.data();
    Scalar* dst = scratch.data();
    Kokkos::Profiling::pushRegion("EbisuKokkos::segments_1d::" + label);
    for (int done = 0; done < steps; done += g.steps) {
      g.steps = std::min(depth, steps - done);
      g.halo = g.steps * R;
      const int launch_smem = static_cast<int>(2L * (segment + 2L * g.halo) * sizeof(Scalar));
      function()<<<blocks, kThreads, launch_smem, stream>>>(eval, src, dst, g);
      EBISU_CUDA_CHECK(cudaGetLastError(), "segment_kernel launch");
      std::swap(src, dst);
    }
    Kokkos::Profiling::popRegion();
    outcome.result_in_scratch = report.launches % 2 == 1;
    return outcome;
  }
};

}  // namespace Cuda
}  // namespace Impl
}  // namespace EbisuKokkos

#endif
