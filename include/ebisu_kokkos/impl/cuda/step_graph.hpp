#ifndef EBISU_KOKKOS_IMPL_CUDA_STEP_GRAPH_HPP
#define EBISU_KOKKOS_IMPL_CUDA_STEP_GRAPH_HPP

// The generic path's step loop on Kokkos::Cuda: a chunk of steps is recorded
// once as a CUDA graph (stream capture on a library-owned stream, so the
// caller's stream, possibly the legacy default one, is never captured) and
// replayed on the caller's stream. On an H200 a small-domain step costs ~4 us
// as an ordinary Kokkos dispatch and ~1.8-2.5 us as a graph node (256^2,
// 32^3), which is what a user who replays their own loop as a graph gets.

#include <ebisu_kokkos/impl/performance_model.hpp>
#include <ebisu_kokkos/impl/step_loop.hpp>

#include <Kokkos_Core.hpp>

#include <functional>
#include <memory>
#include <string>

namespace EbisuKokkos {
namespace Impl {
namespace Cuda {

/// An instantiated graph of recorded dispatches.
class StepGraph {
 public:
  explicit StepGraph(void* exec) : m_exec(exec) {}
  StepGraph(const StepGraph&) = delete;
  StepGraph& operator=(const StepGraph&) = delete;
  ~StepGraph();  // safe while a replay is in flight (freed when it completes)
  void launch(cudaStream_t stream) const;

 private:
  void* m_exec;
};

/// Records what `record` dispatches on the Kokkos::Cuda instance it is given
/// into a graph. Returns nullptr, with the reason in `why_not`, when the
/// recording is not exactly `kernels` kernel nodes or the runtime refuses it;
/// nothing recorded has run. One recording at a time per process.
std::unique_ptr<StepGraph> record_step_graph(const std::function<void(const Kokkos::Cuda&)>& record, int kernels,
                                             std::string& why_not);

/// True while `stream` is being captured (e.g. the caller records its own
/// graph around parallel_stencil): then steps are dispatched as they are.
bool stream_is_capturing(cudaStream_t stream);

/// Steps per recorded chunk (at most; a whole number of ring turns, so that a
/// replay starts and ends on the buffers it was recorded on) and the fewest
/// steps for which recording pays.
constexpr int kGraphChunkSteps = kGenericGraphChunkSteps;
constexpr int kGraphMinSteps = kGenericGraphMinSteps;
static_assert(kGraphChunkSteps % 2 == 0, "a double buffer's replay must end on the buffer it started from");

}  // namespace Cuda

template <>
struct StepLoop<Kokkos::Cuda> {
  template <class Issue>
  static std::string run(const Kokkos::Cuda& space, int steps, int dispatches_per_step, bool replayable,
                         const Issue& issue, int period = 2) {
    constexpr int warm = 2;  // ordinary steps first: one-time kernel set-up must not land in the recording
    if (!replayable || steps < Cuda::kGraphMinSteps || Kokkos::Profiling::profileLibraryLoaded() ||
        Cuda::stream_is_capturing(space.cuda_stream())) {
      issue(space, steps);
      return {};
    }
    issue(space, warm);
    const int chunk = Cuda::kGraphChunkSteps / period * period;
    std::string why_not;
    // Recording runs nothing: the chunk's steps run in the replays. (issue's
    // count moved on by the chunk, a whole number of ring turns, either way.)
    const auto graph = Cuda::record_step_graph([&](const Kokkos::Cuda& recorder) { issue(recorder, chunk); },
                                               chunk * dispatches_per_step, why_not);
    int done = warm;
    if (graph) {
      for (; steps - done >= chunk; done += chunk) graph->launch(space.cuda_stream());
    }
    issue(space, steps - done);
    if (!graph) return "; CUDA graph not used (" + why_not + ")";
    return "; steps replayed as a CUDA graph of " + std::to_string(chunk) + " steps, " +
           std::to_string((done - warm) / chunk) + " replays";
  }
};

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
