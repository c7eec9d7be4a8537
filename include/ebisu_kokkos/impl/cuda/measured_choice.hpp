#ifndef EBISU_KOKKOS_IMPL_CUDA_MEASURED_CHOICE_HPP
#define EBISU_KOKKOS_IMPL_CUDA_MEASURED_CHOICE_HPP

// Backend::automatic's measured choice on CUDA (the shared parts:
// impl/measured_choice.hpp). The model ranks SM tiling, device tiling and the
// generic path; where its best two predictions are close (the sweep found it
// 5-20% off on some mid-size 3-D domains, enough to pick the slower plan), the
// close candidates are timed once on a copy of the caller's data and the
// fastest is remembered for the process, keyed by everything that changes the
// plans (device, stencil and View types, extents, steps, knobs).

#include <ebisu_kokkos/impl/cuda/cuda_check.hpp>
#include <ebisu_kokkos/impl/measured_choice.hpp>
#include <ebisu_kokkos/policy.hpp>

#include <Kokkos_Core.hpp>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace EbisuKokkos {
namespace Impl {
namespace Cuda {

// The generic path counts once per step form (GenericStep: which one is
// fastest depends on the stencil as well as the size).
// sm_tiling_deeper: SM tiling at the next usable depth above the model's (Plans::sm_deeper);
// device_tiling_shallower / _shallowest: device tiling at PlanDT::shallower_depths[0] / [1].
enum class Candidate {
  sm_tiling,
  sm_tiling_deeper,
  device_tiling,
  device_tiling_shallower,
  device_tiling_shallowest,
  in_place_tiling,
  generic_1cell,
  generic_4cells,
  generic_flat
};

inline const char* to_string(Candidate c) {
  switch (c) {
    case Candidate::sm_tiling: return "sm-tiling";
    case Candidate::sm_tiling_deeper: return "sm-tiling-deeper";
    case Candidate::device_tiling: return "device-tiling";
    case Candidate::device_tiling_shallower: return "device-tiling-shallower";
    case Candidate::device_tiling_shallowest: return "device-tiling-shallowest";
    case Candidate::in_place_tiling: return "in-place-tiling";
    case Candidate::generic_1cell: return "generic-1cell";
    case Candidate::generic_4cells: return "generic-4cells";
    case Candidate::generic_flat: return "generic-flat";
  }
  return "?";
}

inline Candidate candidate_of(GenericStep s) {
  switch (s) {
    case GenericStep::tiled_4cells: return Candidate::generic_4cells;
    case GenericStep::flat: return Candidate::generic_flat;
    case GenericStep::automatic:
    case GenericStep::tiled: break;
  }
  return Candidate::generic_1cell;
}

inline GenericStep generic_step_of(Candidate c) {
  return c == Candidate::generic_4cells ? GenericStep::tiled_4cells
         : c == Candidate::generic_flat ? GenericStep::flat
                                        : GenericStep::tiled;
}

/// The model alone decides when the runner-up is predicted at least this much slower.
constexpr double kModelSureRatio = 1.5;
/// A timing run covers the call's steps, cut so that each run takes about this long.
constexpr double kMeasureSecondsPerRun = 0.01;
/// ... but never fewer steps than this (the generic path's graph replay starts at 128).
constexpr int kMeasureMinSteps = 256;

struct CandidatePlan {
  Candidate candidate;
  double predicted_seconds;  ///< the model's time for the whole call, with any ranking margin
  double model_seconds;      ///< the same without the margin (what decides whether the model is sure)
};

/// Whether the model is too unsure of `leader` against `c` to decide alone. A
/// ranking margin orders the candidates, but c is judged on its time without
/// it: with the margin, 3-D device tiling at 64^3 (poisson predicted 43
/// GCells/s, 30.8 after the margin, against the generic path's 50.5) was never
/// timed, and it ran 63.8 against the generic path's 58.2 (H200, 2026-11-28 sweep).
inline bool worth_timing(const CandidatePlan& c, const CandidatePlan& leader) {
  return c.model_seconds <= leader.predicted_seconds * kModelSureRatio;
}

using MeasuredChoice = MeasuredChoiceOf<Candidate>;
using MeasuredChoiceCache = Impl::MeasuredChoiceCache<Candidate>;

/// Everything that changes which plan is fastest for a call (the device first).
template <class Stencil, class ViewType>
std::string measured_choice_key(const StencilPolicy<Kokkos::Cuda>& policy, const ViewType& u) {
  return Impl::measured_choice_key<Stencil>(std::to_string(policy.space().cuda_device()), policy, u);
}

/// Why timing runs cannot happen now ("" when they can): inside a stream
/// capture nothing may be allocated or synchronised, and the copy of u must fit.
inline std::string measurement_blocker(const Kokkos::Cuda& space, std::size_t field_bytes) {
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  EBISU_CUDA_CHECK(cudaStreamIsCapturing(space.cuda_stream(), &capture), "cudaStreamIsCapturing");
  if (capture != cudaStreamCaptureStatusNone) return "the stream is being captured";
  std::size_t free_bytes = 0, total_bytes = 0;
  EBISU_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  if (field_bytes > free_bytes / 4) return "too little free device memory for a copy of the field";
  return "";
}

/// Steps of one timing run: the call's, cut to about kMeasureSecondsPerRun.
inline int measurement_steps(int steps, double best_predicted_seconds) {
  if (best_predicted_seconds <= kMeasureSecondsPerRun) return steps;
  const double scaled = steps * (kMeasureSecondsPerRun / best_predicted_seconds);
  return std::min(steps, std::max(kMeasureMinSteps, static_cast<int>(scaled)));
}

/// The fastest of the timed candidates (seconds[i] for candidates[i]), with the timings for the report
/// ("measured over N steps: sm-tiling 1.234 ms (model 1.100) ... fastest: sm-tiling").
inline MeasuredChoice fastest_of(const std::vector<CandidatePlan>& candidates, const std::vector<double>& best,
                                 int steps) {
  MeasuredChoice result;
  std::size_t fastest = 0;
  for (std::size_t i = 1; i < candidates.size(); ++i)
    if (best[i] < best[fastest]) fastest = i;
  result.choice = candidates[fastest].candidate;
  char buf[96];
  result.summary = "measured over " + std::to_string(steps) + " steps:";
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    std::snprintf(buf, sizeof buf, " %s %.4f ms (model %.4f)", to_string(candidates[i].candidate), best[i] * 1e3,
                  candidates[i].predicted_seconds * 1e3);
    result.summary += buf;
  }
  result.summary += std::string(" fastest: ") + to_string(result.choice);
  return result;
}

/// Times `run(candidate, a, b)` for each candidate on a copy of u (two rounds,
/// the faster of each counts: the first run of a kernel may include its
/// loading) and returns the fastest, with the timings.
template <class ViewType, class RunCandidate>
MeasuredChoice measure_candidates(const Kokkos::Cuda& space, const ViewType& u, const ViewType& scratch,
                                  const std::vector<CandidatePlan>& candidates, int steps, RunCandidate&& run) {
  const std::vector<double> best =
      time_candidates_on_copy(space, u, scratch, static_cast<int>(candidates.size()),
                              [&](int i, const ViewType& a, const ViewType& b) { run(candidates[i].candidate, a, b); });
  return fastest_of(candidates, best, steps);
}

/// The same for several state fields or time levels: each run gets fresh
/// copies of every buffer of the ring (its levels and spares), so the caller's
/// levels are never touched. Ring: a StateRing (its `buffers` array).
template <class Ring, class RunCandidate>
MeasuredChoice measure_state_candidates(const Kokkos::Cuda& space, const Ring& ring,
                                        const std::vector<CandidatePlan>& candidates, int steps, RunCandidate&& run) {
  using ViewType = std::decay_t<decltype(ring.buffers[0])>;
  Ring copy = ring;  // (element by element below: never a default-constructed View, compat.hpp)
  for (auto& b : copy.buffers) {
    b = ViewType(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("EbisuKokkos::measured_choice")),
                 b.layout());
  }
  std::vector<double> best(candidates.size(), std::numeric_limits<double>::infinity());
  for (int round = 0; round < 2; ++round) {
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      for (std::size_t b = 0; b < copy.buffers.size(); ++b) Kokkos::deep_copy(space, copy.buffers[b], ring.buffers[b]);
      space.fence();
      Kokkos::Timer timer;
      run(candidates[i].candidate, static_cast<const Ring&>(copy));
      space.fence();
      best[i] = std::min(best[i], timer.seconds());
    }
  }
  return fastest_of(candidates, best, steps);
}

}  // namespace Cuda
}  // namespace Impl
}  // namespace EbisuKokkos

#endif
