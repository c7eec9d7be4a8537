#ifndef EBISU_BENCH_GRAPH_CAPTURE_HPP
#define EBISU_BENCH_GRAPH_CAPTURE_HPP

// A CUDA graph recorded by capturing a Kokkos::Cuda instance's stream: the
// graph-* plain variants use it where Kokkos' own Graph cannot be compiled
// (Kokkos 3.4's Cuda graph backend calls the CUDA 12 cudaGraphAddDependencies,
// which CUDA 13 replaced). The CUDA calls live in graph_capture_cuda.cpp, which
// is compiled only in CUDA builds; this header has no CUDA types.

#include <Kokkos_Core.hpp>

#include <functional>

// Kokkos' public Graph API, unless it does not compile here (Kokkos < 4 on CUDA 13).
#if defined(KOKKOS_ENABLE_CUDA) && KOKKOS_VERSION < 40000 && defined(CUDART_VERSION) && CUDART_VERSION >= 13000
#define EBISU_BENCH_GRAPH_BY_STREAM_CAPTURE 1
#else
#define EBISU_BENCH_GRAPH_BY_STREAM_CAPTURE 0
#endif

namespace ebisu_bench {

#ifdef KOKKOS_ENABLE_CUDA

/// A Kokkos::Cuda instance on a non-blocking stream of the harness (created
/// once, kept for the process), so that its work can be captured.
Kokkos::Cuda make_capture_space();

/// Records the CUDA work that `record` enqueues on `space`'s stream (stream
/// capture, thread-local mode) and instantiates it; launch() replays it on the
/// same stream. Throws std::runtime_error on a CUDA error.
class CapturedGraph {
 public:
  CapturedGraph(const Kokkos::Cuda& space, const std::function<void()>& record);
  ~CapturedGraph();
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;

  void launch() const;
  int nodes() const { return m_nodes; }                ///< all nodes of the graph
  int kernel_nodes() const { return m_kernel_nodes; }  ///< of which kernel launches

 private:
  Kokkos::Cuda m_space;
  void* m_graph = nullptr;  // cudaGraph_t
  void* m_exec = nullptr;   // cudaGraphExec_t
  int m_nodes = 0, m_kernel_nodes = 0;
};

#endif

}  // namespace ebisu_bench

#endif
