#include <ebisu_kokkos/impl/cuda/step_graph.hpp>

#include <cuda_runtime_api.h>

#include <mutex>
#include <stdexcept>
#include <vector>

namespace EbisuKokkos {
namespace Impl {
namespace Cuda {

namespace {

// The stream recordings are made on, wrapped in a Kokkos::Cuda instance. The
// instance must die before Kokkos::finalize (a finalize hook releases it; a
// later initialize makes a new one). Guarded by recording_mutex.
std::mutex recording_mutex;
struct Recorder {
  cudaStream_t stream = nullptr;
  Kokkos::Cuda* space = nullptr;
};
Recorder recorder;

const Kokkos::Cuda& recording_space() {
  if (!recorder.space) {
    if (cudaStreamCreateWithFlags(&recorder.stream, cudaStreamNonBlocking) != cudaSuccess) {
      recorder.stream = nullptr;
      throw std::runtime_error("cudaStreamCreateWithFlags failed");
    }
    recorder.space = new Kokkos::Cuda(recorder.stream);
    Kokkos::push_finalize_hook([] {
      std::lock_guard<std::mutex> lock(recording_mutex);
      delete recorder.space;
      recorder.space = nullptr;
      cudaStreamDestroy(recorder.stream);
      recorder.stream = nullptr;
    });
  }
  return *recorder.space;
}

std::string error_text(const char* what, cudaError_t e) { return std::string(what) + ": " + cudaGetErrorString(e); }

}  // namespace

StepGraph::~StepGraph() { cudaGraphExecDestroy(static_cast<cudaGraphExec_t>(m_exec)); }

void StepGraph::launch(cudaStream_t stream) const {
  const cudaError_t e = cudaGraphLaunch(static_cast<cudaGraphExec_t>(m_exec), stream);
  if (e != cudaSuccess) throw std::runtime_error(error_text("EbisuKokkos: cudaGraphLaunch", e));
}

bool stream_is_capturing(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  return cudaStreamIsCapturing(stream, &status) != cudaSuccess || status != cudaStreamCaptureStatusNone;
}

std::unique_ptr<StepGraph> record_step_graph(const std::function<void(const Kokkos::Cuda&)>& record, int kernels,
                                             std::string& why_not) {
  std::lock_guard<std::mutex> lock(recording_mutex);
  const Kokkos::Cuda& space = recording_space();
  cudaStream_t stream = space.cuda_stream();
  // Thread-local mode: other host threads keep using CUDA freely meanwhile.
  cudaError_t e = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
  if (e != cudaSuccess) {
    why_not = error_text("cudaStreamBeginCapture", e);
    return nullptr;
  }
  cudaGraph_t graph = nullptr;
  try {
    record(space);
  } catch (const std::exception& ex) {
    why_not = std::string("recording failed: ") + ex.what();
  }
  e = cudaStreamEndCapture(stream, &graph);
  if (why_not.empty() && e != cudaSuccess) why_not = error_text("cudaStreamEndCapture", e);
  cudaGetLastError();  // clear the (non-sticky) error a failed capture leaves behind
  std::unique_ptr<StepGraph> result;
  if (why_not.empty()) {
    size_t n = 0;
    cudaGraphGetNodes(graph, nullptr, &n);
    std::vector<cudaGraphNode_t> nodes(n);
    if (n > 0) cudaGraphGetNodes(graph, nodes.data(), &n);
    int kernel_nodes = 0;
    for (auto node : nodes) {
      cudaGraphNodeType type;
      if (cudaGraphNodeGetType(node, &type) == cudaSuccess && type == cudaGraphNodeTypeKernel) ++kernel_nodes;
    }
    if (kernel_nodes != kernels || static_cast<int>(n) != kernels) {
      // e.g. a functor staged through memory copies: a replay would read stale staging data
      why_not = "the recording holds " + std::to_string(n) + " nodes, " + std::to_string(kernel_nodes) +
                " of them kernels, instead of " + std::to_string(kernels) + " kernels";
    } else {
      cudaGraphExec_t exec = nullptr;
      e = cudaGraphInstantiateWithFlags(&exec, graph, 0);
      if (e == cudaSuccess) {
        result = std::make_unique<StepGraph>(exec);
      } else {
        why_not = error_text("cudaGraphInstantiateWithFlags", e);
        cudaGetLastError();
      }
    }
  }
  if (graph) cudaGraphDestroy(graph);
  return result;
}

}  // namespace Cuda
}  // namespace Impl
}  // namespace EbisuKokkos
