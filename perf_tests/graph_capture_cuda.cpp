// CUDA stream capture of a Kokkos::Cuda instance's work (see graph_capture.hpp).
// Compiled only in CUDA builds; with device_info_cuda.cpp the only files that
// include CUDA headers.

#include "graph_capture.hpp"

#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace ebisu_bench {

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

cudaStream_t harness_stream() {
  static cudaStream_t stream = [] {
    cudaStream_t s = nullptr;
    check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    return s;
  }();
  return stream;
}

}  // namespace

Kokkos::Cuda make_capture_space() { return Kokkos::Cuda(harness_stream()); }

CapturedGraph::CapturedGraph(const Kokkos::Cuda& space, const std::function<void()>& record) : m_space(space) {
  cudaStream_t stream = m_space.cuda_stream();
  check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
  cudaGraph_t graph = nullptr;
  try {
    record();
  } catch (...) {
    cudaStreamEndCapture(stream, &graph);
    if (graph) cudaGraphDestroy(graph);
    throw;
  }
  check(cudaStreamEndCapture(stream, &graph), "cudaStreamEndCapture");
  m_graph = graph;
  size_t n = 0;
  check(cudaGraphGetNodes(graph, nullptr, &n), "cudaGraphGetNodes");
  std::vector<cudaGraphNode_t> nodes(n);
  if (n > 0) check(cudaGraphGetNodes(graph, nodes.data(), &n), "cudaGraphGetNodes");
  m_nodes = static_cast<int>(n);
  for (auto node : nodes) {
    cudaGraphNodeType type;
    check(cudaGraphNodeGetType(node, &type), "cudaGraphNodeGetType");
    m_kernel_nodes += type == cudaGraphNodeTypeKernel ? 1 : 0;
  }
  cudaGraphExec_t exec = nullptr;
#if CUDART_VERSION >= 11040
  check(cudaGraphInstantiateWithFlags(&exec, graph, 0), "cudaGraphInstantiateWithFlags");
#else
  check(cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0), "cudaGraphInstantiate");
#endif
  m_exec = exec;
  check(cudaGraphUpload(exec, stream), "cudaGraphUpload");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

CapturedGraph::~CapturedGraph() {
  cudaStreamSynchronize(m_space.cuda_stream());
  if (m_exec) cudaGraphExecDestroy(static_cast<cudaGraphExec_t>(m_exec));
  if (m_graph) cudaGraphDestroy(static_cast<cudaGraph_t>(m_graph));
}

void CapturedGraph::launch() const {
  check(cudaGraphLaunch(static_cast<cudaGraphExec_t>(m_exec), m_space.cuda_stream()), "cudaGraphLaunch");
}

}  // namespace ebisu_bench

#endif
