#ifndef EBISU_KOKKOS_IMPL_CUDA_EBISU_1D_HPP
#define EBISU_KOKKOS_IMPL_CUDA_EBISU_1D_HPP

// 1-D stencils on CUDA: segment tiling. Each block owns a segment of the
// domain, loads it widened by a halo of H = k x radius cells into shared
// memory, runs k steps there (one block barrier per step; step j computes the
// segment less (j + 1) x radius on each side, the cells the rest of the
// launch still needs) and writes its owned cells back: one launch per k
// steps, device memory touched once per launch instead of once per step.
// A 1-D domain has no second axis to amortise a halo over, so the halo is
// only 2H cells per segment of thousands: deep temporal blocking is nearly
// free here (32 steps at radius 1: 1.6% redundant cells), and a step costs
// shared-memory traffic only (2R + 2 accesses per cell update).
// Periodic and mirror sides: cells beyond the side are loaded through the
// rule (AxisRules) and computed like any other; fixed frames keep their value.
//
// One kernel template serves one field (two tiles, the launches alternating
// between u and scratch), read-only fields (one more tile each, loaded with
// the state) and several state fields or time levels (state.hpp): each
// field's levels and its spare are a ring of L + 1 tiles turning like the
// global ring. A launch then reads every level from the global ring and
// writes every level it computed into the ring slot it has after the launch;
// for L >= 2 (and for L = 1 after an even number of steps) some of those
// slots are ones other blocks still read their halo from, so the cells
// within H of a segment's ends (all any other block reads) go to a side
// buffer, and a second small launch copies them into the ring once every
// block has loaded (1.6% of the cells at depth 32 and segments of 4096).

#include <ebisu_kokkos/impl/boundary.hpp>
#include <ebisu_kokkos/impl/cuda/cuda_check.hpp>
#include <ebisu_kokkos/impl/cuda/device_helpers.hpp>
#include <ebisu_kokkos/impl/cuda/device_properties.hpp>
#include <ebisu_kokkos/impl/ebisu_backend_fwd.hpp>
#include <ebisu_kokkos/impl/fields.hpp>
#include <ebisu_kokkos/impl/performance_model.hpp>
#include <ebisu_kokkos/policy.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>

namespace EbisuKokkos {
namespace Impl {
namespace Cuda {
namespace segments_1d {

constexpr int kThreads = 512;
constexpr int kMaxSegmentCells = 4096;  // owned cells per block: one field fp64 at depth 32 is 2 x (4096 + 64) x 8 B
constexpr int kMinSegmentCells = 512;
// A block's tiles stay within this, so that three blocks share an SM (227 KB):
// fields with more tiles get shorter segments.
constexpr long kSharedPerBlock = 72 * 1024;
constexpr int kDefaultDepth = 32;  // H200, 2^26 cells: depth 8 / 16 / 32 gave 806 / 917 / 958 GCells/s (j1d3pt)
constexpr int kMaxDepth = 64;

struct Geometry {
  int n;         // cells
  int segment;   // owned cells per block
  int halo;      // this launch's steps x radius
  int steps;     // this launch's steps
  AxisRules rules;
};

// A launch's global buffers. NQ = fields x levels: level l of field f is
// in[f * NL + l] when the launch starts and goes to out[f * NL + l] (levels
// l >= steps are not stored: they are older levels already in place). NRO
// read-only fields. shells: the side buffer for the cells within H of each
// segment's ends, or null when no block reads what another writes.
template <class Scalar, int NQ, int NRO>
struct Buffers {
  const Scalar* in[NQ];
  Scalar* out[NQ];
  const Scalar* fields[NRO > 0 ? NRO : 1];
  Scalar* shells;
};

template <class Scalar>
struct SegmentAccessor {
  const Scalar* cell;
  template <int D0, int D1, int D2>
  __device__ __forceinline__ Scalar get() const {
    return cell[D0];
  }
};

template <class Eval, class Scalar, int N, std::size_t... K>
__device__ __forceinline__ auto evaluate(const Eval& eval, const Scalar* centre, const TilePointers<const Scalar, N>& reads,
                                         int i, std::index_sequence<K...>) {
  return eval(SegmentAccessor<Scalar>{centre + i}, SegmentAccessor<Scalar>{reads.p[K] + i}...);
}

// Where cell i of a block's owned range (`own` cells) goes in the side
// buffer's 2H slots of one level, or -1 when no other block reads it.
__device__ __forceinline__ int shell_slot(int i, int own, int halo) {
  return i < halo ? i : i >= own - halo ? halo + i - (own - halo) : -1;
}

// NF: tiles the functor reads besides field 0's newest level (NS * NL - 1
// other state fields and levels, then the read-only fields).
template <int R, class Eval, class Scalar, int NF, int NS, int NL>
__global__ void __launch_bounds__(kThreads)
    segment_kernel(const Eval eval, const Buffers<Scalar, NS * NL, NF - (NS * NL - 1)> b, const Geometry g) {
  constexpr int RS = NL + 1;       // ring slots per state field
  constexpr int NQ = NS * NL;      // state levels
  constexpr int NE = NQ - 1;       // state tiles read besides field 0's newest level
  constexpr int NRO = NF - NE;     // read-only fields
  extern __shared__ __align__(16) unsigned char segments_1d_smem[];
  const int local = g.segment + 2 * g.halo;
  Scalar* const tiles = reinterpret_cast<Scalar*>(segments_1d_smem);
  // Field f's ring slot j of this launch (level l after j steps: slot j - l).
  auto tile = [&](int f, int j) { return tiles + (f * RS + j) * local; };
  auto slot = [](int l, int j) { return ((j - l) % RS + RS) % RS; };
  Scalar* const field_tiles = tiles + NS * RS * local;
  const int org = static_cast<int>(blockIdx.x) * g.segment - g.halo;  // global index of local cell 0

  for (int i = threadIdx.x; i < local; i += blockDim.x) {
    const int x = org + i;
    const bool loadable = g.rules.loadable(x);
    const int from = loadable ? g.rules.source(x) : 0;
#pragma unroll
    for (int q = 0; q < NQ; ++q) tile(q / NL, slot(q % NL, 0))[i] = loadable ? b.in[q][from] : Scalar(0);
#pragma unroll
    for (int k = 0; k < NRO; ++k) field_tiles[k * local + i] = loadable ? b.fields[k][from] : Scalar(0);
  }
  __syncthreads();
  for (int j = 0; j < g.steps; ++j) {
    TilePointers<const Scalar, NF> reads;
#pragma unroll
    for (int q = 1; q <= NE; ++q) reads.p[q - 1] = tile(q / NL, slot(q % NL, j));
#pragma unroll
    for (int k = 0; k < NRO; ++k) reads.p[NE + k] = field_tiles + k * local;
    const Scalar* centre = tile(0, slot(0, j));
    TilePointers<Scalar, NS> outs;
#pragma unroll
    for (int f = 0; f < NS; ++f) outs.p[f] = tile(f, (j + 1) % RS);
    const int lo = (j + 1) * R, hi = local - (j + 1) * R;
    for (int i = lo + threadIdx.x; i < hi; i += blockDim.x) {
      const auto v = evaluate(eval, centre, reads, i, std::make_index_sequence<NF>{});
      const bool keep = g.rules.frame(org + i);  // frame cells keep each field's newest level
#pragma unroll
      for (int f = 0; f < NS; ++f) {
        const Scalar old = f == 0 ? centre[i] : reads.p[f * NL - 1 >= 0 ? f * NL - 1 : 0][i];
        outs.p[f][i] = keep ? old : static_cast<Scalar>(component(v, f));
      }
    }
    __syncthreads();
  }
  const int own = min(g.segment, g.n - (org + g.halo));
#pragma unroll
  for (int q = 0; q < NQ; ++q) {
    const int l = q % NL;
    if (l >= g.steps) continue;  // an older level, already in its buffer
    const Scalar* from = tile(q / NL, slot(l, g.steps)) + g.halo;
    Scalar* to = b.out[q] + org + g.halo;
    Scalar* shells = b.shells != nullptr ? b.shells + (static_cast<long>(blockIdx.x) * NQ + q) * 2 * g.halo : nullptr;
    for (int i = threadIdx.x; i < own; i += blockDim.x) {
      const int s = shells != nullptr ? shell_slot(i, own, g.halo) : -1;
      if (s >= 0) {
        shells[s] = from[i];
      } else {
        to[i] = from[i];
      }
    }
  }
}

// After a launch with a side buffer: its shells into the ring.
template <class Scalar, int NQ, int NRO, int NL>
__global__ void __launch_bounds__(256) commit_shells(const Buffers<Scalar, NQ, NRO> b, const Geometry g, int blocks) {
  const int width = 2 * g.halo;
  const long total = static_cast<long>(blocks) * NQ * width;
  for (long t = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; t < total;
       t += static_cast<long>(gridDim.x) * blockDim.x) {
    const int s = static_cast<int>(t % width);
    const int q = static_cast<int>((t / width) % NQ);
    const int block = static_cast<int>(t / (static_cast<long>(width) * NQ));
    if (q % NL >= g.steps) continue;  // not stored by the launch
    const int first = block * g.segment, own = min(g.segment, g.n - first);
    const int i = s < g.halo ? s : own - g.halo + (s - g.halo);
    if (i < 0 || i >= own || (s >= g.halo && i < g.halo)) continue;  // a cell of the other end, or none
    b.out[q][first + i] = b.shells[t];
  }
}

}  // namespace segments_1d

/// Segment tiling for one (stencil, View type of rank 1, state fields and
/// levels, kinds of the other tiles the functor reads). FieldKinds: for
/// NS x NL > 1 the NS * NL - 1 other state fields and levels before the
/// read-only fields.
template <class Stencil, class ViewType, int NS = 1, int NL = 1, class... FieldKinds>
struct Segments1D {
  using Scalar = typename ViewType::non_const_value_type;
  using Eval = decltype(std::declval<const Stencil&>().template bind<Scalar, FieldKinds...>());
  static constexpr int R = Stencil::radius;
  static constexpr int NF = static_cast<int>(sizeof...(FieldKinds));
  static constexpr int NQ = NS * NL;
  static constexpr int NE = NQ - 1;
  static constexpr int NRO = NF - NE;
  static constexpr int RS = NL + 1;
  static constexpr int NB = NS * RS;
  static constexpr int tiles = NB + NRO;
  static_assert(NRO >= 0, "EbisuKokkos: Segments1D needs a kind for every other state field and level");
  using Buffers = segments_1d::Buffers<Scalar, NQ, NRO>;

  static auto function() { return &segments_1d::segment_kernel<R, Eval, Scalar, NF, NS, NL>; }

  struct Plan {
    int depth = 1, segment = 1, blocks = 1, launches = 0;
  };

  static Plan plan(const StencilPolicy<Kokkos::Cuda>& policy, int n) {
    using namespace segments_1d;
    Plan p;
    const int steps = policy.steps();
    const int knob = policy.knobs().temporal_depth;
    p.depth = std::max(1, std::min({knob > 0 ? knob : kDefaultDepth, kMaxDepth, std::max(1, steps)}));
    p.segment = kMaxSegmentCells;
    while (p.segment > kMinSegmentCells &&
           static_cast<long>(tiles) * (p.segment + 2L * p.depth * R) * static_cast<long>(sizeof(Scalar)) > kSharedPerBlock) {
      p.segment /= 2;
    }
    p.segment = std::min(p.segment, n);
    p.blocks = (n + p.segment - 1) / p.segment;
    p.launches = (steps + p.depth - 1) / p.depth;
    return p;
  }

  static int shared_bytes(const Plan& p, int halo) {
    return static_cast<int>(tiles * (p.segment + 2L * halo) * static_cast<long>(sizeof(Scalar)));
  }

  // The plan's report. Per launch: every level and field in, the computed
  // levels out, and k steps of the shared-memory accesses of a cell update
  // (2R + 1 loads of field 0's newest level, the other tiles it reads, one
  // store per field), or, for a few segments per SM, k steps of one block's
  // serial chain (a barrier and a load-FMA-store chain per cell a thread
  // keeps), plus the launch itself. (H200: 2^26 cells at full shared-memory
  // bandwidth; 4096 and 65536 cells ~0.9 us per step; docs/perf-notes-1d.md.)
  static StencilOutcome describe(const StencilPolicy<Kokkos::Cuda>& policy, int n, const Plan& p) {
    using namespace segments_1d;
    StencilOutcome outcome;
    StencilReport& report = outcome.report;
    report.backend = Backend::ebisu;
    report.strategy = Strategy::sm_tiling;
    report.temporal_depth = p.depth;
    report.launches = p.launches;
    const DeviceModel& dev = device_model(policy.space().cuda_device());
    const double cells = static_cast<double>(n) * (1.0 + 2.0 * p.depth * R / p.segment);
    const double t_memory = (NQ + NRO + NS * std::min(p.depth, NL)) * cells * sizeof(Scalar) / (dev.dram_bandwidth_gbs * 1e9);
    const double other_reads = (0.0 + ... + (FieldKinds::centre_only ? 1.0 : 2.0 * R + 1.0));
    const double accesses = 2 * R + 2 + (NS - 1) + other_reads;
    const double t_smem = cells * p.depth * accesses * std::max<int>(4, sizeof(Scalar)) / (dev.smem_bandwidth_gbs * 1e9);
    const int per_thread = (p.segment + 2 * p.depth * R + kThreads - 1) / kThreads;
    const double t_chain = p.depth * (300.0 + 120.0 * NS * per_thread) / (dev.clock_ghz * 1e9);
    const double t_launch = std::max(t_memory + t_smem, t_chain) + 4e-6;
    report.predicted_gcells_per_s = std::max(0, n - 2 * R) * static_cast<double>(p.depth) / t_launch * 1e-9;
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "ebisu-1d: segment tiling, depth %d, %d blocks of %d cells (+ halo %d each side) x %d threads, "
                  "%d KB shared, predicted %.1f GCells/s",
                  p.depth, p.blocks, p.segment, p.depth * R, kThreads, shared_bytes(p, p.depth * R) / 1024,
                  report.predicted_gcells_per_s);
    report.plan = buf;
    if (NQ > 1) {
      report.plan += "; " + std::to_string(NS) + " state field(s) of " + std::to_string(NL) + " level(s), " +
                     std::to_string(NB) + " state tiles";
    }
    if (NRO > 0) report.plan += "; " + std::to_string(NRO) + " read-only field tile(s)";
    const Strategy wanted = policy.knobs().strategy;
    if (wanted == Strategy::device_tiling || wanted == Strategy::in_place_tiling) {
      report.plan = std::string(wanted == Strategy::device_tiling ? "device tiling" : "in-place tiling") +
                    " not possible (1-D domains run segment tiling); " + report.plan;
    }
    return outcome;
  }

  /// One field on (u, scratch); fields: FieldViews of FieldKinds (NoFields
  /// when there are none). The outcome says which of the two holds step T.
  template <class FieldSet = NoFields>
  static StencilOutcome run(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                            const Stencil& stencil, const ViewType& u, const ViewType& scratch,
                            const FieldSet& fields = FieldSet{}) {
    static_assert(NQ == 1, "EbisuKokkos: Segments1D::run is the single-field form (run_state otherwise)");
    const ViewType ends[2] = {u, scratch};
    StencilOutcome outcome = run_launches(label, policy, stencil, static_cast<int>(u.extent(0)), fields,
                                          [&](const Plan& p, int done, int, Buffers& b) {
                                            const int launch = done / p.depth;
                                            b.in[0] = ends[launch % 2].data();
                                            b.out[0] = ends[(launch + 1) % 2].data();
                                            return false;
                                          });
    outcome.result_in_scratch = outcome.report.launches % 2 == 1;
    return outcome;
  }

  /// Several state fields or levels: the buffers in StateRing order (field
  /// f's slot j at f * (NL + 1) + j, slot 0 its newest level); fields: the
  /// read-only fields. On return field f's level l is in its ring slot T - l.
  template <class FieldSet>
  static StencilOutcome run_state(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                                  const Stencil& stencil, const std::array<ViewType, NB>& ring, const FieldSet& fields) {
    using Shells = Kokkos::View<Scalar*, Kokkos::CudaSpace>;
    std::optional<Shells> shells;  // the side buffer (2H cells of every level of every segment), once needed
    int committed = 0;
    auto buffer = [&](int f, int at) { return ring[f * RS + ((at % RS) + RS) % RS].data(); };
    StencilOutcome outcome = run_launches(
        label, policy, stencil, static_cast<int>(ring[0].extent(0)), fields,
        [&](const Plan& p, int done, int k, Buffers& b) {
          for (int q = 0; q < NQ; ++q) {
            b.in[q] = buffer(q / NL, done - q % NL);
            b.out[q] = buffer(q / NL, done + k - q % NL);
          }
          bool conflict = false;
          for (int q = 0; q < NQ; ++q)
            for (int r = 0; r < NQ; ++r) conflict = conflict || (q % NL < k && b.out[q] == b.in[r]);
          if (conflict && !shells) {
            shells.emplace(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("EbisuKokkos::segments_1d::shells")),
                           static_cast<std::size_t>(p.blocks) * NQ * 2 * p.depth * R);
          }
          b.shells = conflict ? shells->data() : nullptr;
          committed += conflict ? 1 : 0;
          return conflict;
        });
    if (committed > 0) outcome.report.plan += "; shells through a side buffer (" + std::to_string(committed) + " launches)";
    // The side buffer is freed on return: not before the policy's stream has used it.
    if (shells) policy.space().fence();
    return outcome;
  }

 private:
  // The call's plan, report and launches; buffers_of(plan, done, k, b)
  // points b at the launch's buffers and says whether its shells need
  // committing.
  template <class FieldSet, class BuffersOf>
  static StencilOutcome run_launches(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                                     const Stencil& stencil, int n, const FieldSet& fields, BuffersOf&& buffers_of) {
    static_assert(FieldSet::size == NRO, "EbisuKokkos: Segments1D run with another set of fields than planned");
    const Plan p = plan(policy, n);
    StencilOutcome outcome = describe(policy, n, p);
    if (policy.steps() == 0) {
      outcome.report.launches = 0;
      return outcome;
    }
    Buffers b{};
    if constexpr (NRO > 0) {
      for (int k = 0; k < NRO; ++k) b.fields[k] = fields.views[k].data();
    }
    segments_1d::Geometry g{};
    g.n = n;
    g.segment = p.segment;
    g.rules = AxisRules(n, policy.boundaries().side[0][0], policy.boundaries().side[0][1], R);
    EBISU_CUDA_CHECK(cudaFuncSetAttribute(function(), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          shared_bytes(p, p.depth * R)),
                     "segment_kernel");
    const cudaStream_t stream = policy.space().cuda_stream();
    const Eval eval = stencil.template bind<Scalar, FieldKinds...>();
    const int steps = policy.steps();
    Kokkos::Profiling::pushRegion("EbisuKokkos::segments_1d::" + label);
    for (int done = 0; done < steps; done += g.steps) {
      g.steps = std::min(p.depth, steps - done);
      g.halo = g.steps * R;
      const bool commit = buffers_of(p, done, g.steps, b);
      function()<<<p.blocks, segments_1d::kThreads, shared_bytes(p, g.halo), stream>>>(eval, b, g);
      EBISU_CUDA_CHECK(cudaGetLastError(), "segment_kernel launch");
      if (commit) {
        const long cells = static_cast<long>(p.blocks) * NQ * 2 * g.halo;
        const int grid = static_cast<int>(std::min<long>((cells + 255) / 256, 4096));
        segments_1d::commit_shells<Scalar, NQ, NRO, NL><<<grid, 256, 0, stream>>>(b, g, p.blocks);
        EBISU_CUDA_CHECK(cudaGetLastError(), "commit_shells launch");
      }
    }
    Kokkos::Profiling::popRegion();
    return outcome;
  }
};

/// Segments1D for the field kinds of a FieldViews (NoFields: none); for
/// several state fields or levels, FieldSet is the step's fields (StepFields).
template <class Stencil, class ViewType, class FieldSet, int NS = 1, int NL = 1>
struct Segments1DFor;
template <class Stencil, class ViewType, class ConstView, class... Kinds, int NS, int NL>
struct Segments1DFor<Stencil, ViewType, FieldViews<ConstView, Kinds...>, NS, NL> {
  using type = Segments1D<Stencil, ViewType, NS, NL, Kinds...>;
};

}  // namespace Cuda
}  // namespace Impl
}  // namespace EbisuKokkos

#endif
