// The generic path's CUDA-graph step loop: long loops on small domains are
// recorded once per call as a chunk of dispatches and replayed. Step counts
// around the chunk and the threshold (warm-up, replays, remainder, odd
// totals), both call forms, 1-D to 3-D, the caller's own stream, two threads
// recording at once, and a caller that is capturing its own graph.
#include "category/cuda.hpp"
#include "support/run_case.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>

#include <cuda_runtime.h>

#include <thread>

namespace ebisu_test {

namespace {

constexpr int kChunk = EbisuKokkos::Impl::kGenericGraphChunkSteps;
constexpr int kMin = EbisuKokkos::Impl::kGenericGraphMinSteps;

bool replayed(const EbisuKokkos::StencilReport& r) { return r.plan.find("replayed as a CUDA graph") != std::string::npos; }

template <class V, class Stencil>
void check_generic_graph(const std::string& name, const Stencil& stencil, const Extents& n, int steps,
                         bool double_buffer, const Kokkos::Cuda& space = Kokkos::Cuda()) {
  SCOPED_TRACE(name + " " + describe({n, steps}, V::rank) + (double_buffer ? " DoubleBuffer" : " (u, scratch)"));
  const Update update = update_of(name, stencil);
  const Field init = random_field(n, 11u + steps);
  const Field ref = reference_run(init, V::rank, Stencil::radius, update, steps);
  V u = make_view<V>("u", n), x = make_view<V>("x", n);
  upload(u, init);
  poison(x);
  Kokkos::fence();
  EbisuKokkos::StencilPolicy<Kokkos::Cuda> policy(space, steps);
  policy.set_backend(EbisuKokkos::Backend::generic);
  EbisuKokkos::StencilReport report;
  Field got;
  if (double_buffer) {
    EbisuKokkos::DoubleBuffer<V> buffers(u, x);
    report = EbisuKokkos::parallel_stencil(name, policy, stencil, buffers);
    space.fence();
    got = download(buffers.current());
  } else {
    report = EbisuKokkos::parallel_stencil(name, policy, stencil, u, x);
    space.fence();
    got = download(u);
  }
  EXPECT_LE(relative_error(got, ref), tolerance<double>());
  EXPECT_EQ(replayed(report), steps >= kMin) << report.plan;
  EXPECT_EQ(report.plan.find("not used"), std::string::npos) << report.plan;
}

}  // namespace

TEST(cuda, generic_graph_step_counts) {
  using V2 = TestView<double, 2, Kokkos::LayoutLeft, Kokkos::Cuda>;
  namespace p = EbisuKokkos::presets;
  // below the threshold, at it, one past it, a remainder of chunk - 1, an odd total
  for (int steps : {kMin - 1, kMin, kMin + 1, kMin + 2 * kChunk + kChunk - 1, 2 * kMin + 7}) {
    check_generic_graph<V2>("j2d5pt", p::j2d5pt(), {37, 50, 1}, steps, false);
    check_generic_graph<V2>("j2d5pt", p::j2d5pt(), {37, 50, 1}, steps, true);
  }
}

TEST(cuda, generic_graph_ranks_radii_layouts) {
  namespace p = EbisuKokkos::presets;
  using V1 = TestView<double, 1, Kokkos::LayoutLeft, Kokkos::Cuda>;
  using V2R = TestView<double, 2, Kokkos::LayoutRight, Kokkos::Cuda>;
  using V3 = TestView<double, 3, Kokkos::LayoutLeft, Kokkos::Cuda>;
  using V3R = TestView<double, 3, Kokkos::LayoutRight, Kokkos::Cuda>;
  check_generic_graph<V1>("j1d5pt", p::j1d5pt(), {301, 1, 1}, kMin + 5, false);
  check_generic_graph<V2R>("j2d25pt", p::j2d25pt(), {29, 41, 1}, kMin + 3, true);
  check_generic_graph<V3>("j3d7pt", p::j3d7pt(), {13, 17, 11}, kMin + 9, false);
  check_generic_graph<V3R>("poisson", p::poisson(), {12, 9, 14}, kMin + 1, true);
}

TEST(cuda, generic_graph_on_caller_streams_from_two_threads) {
  // Recordings share one library stream: two threads, each on its own stream, must both be right.
  using V2 = TestView<double, 2, Kokkos::LayoutLeft, Kokkos::Cuda>;
  cudaStream_t streams[2];
  for (auto& s : streams) ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  {
    const Kokkos::Cuda spaces[2] = {Kokkos::Cuda(streams[0]), Kokkos::Cuda(streams[1])};
    auto work = [&](int i) {
      for (int rep = 0; rep < 3; ++rep) {
        check_generic_graph<V2>("j2d9pt", EbisuKokkos::presets::j2d9pt(), {40 + i, 33, 1}, kMin + 17 * i + rep,
                                i == 1, spaces[i]);
      }
    };
    std::thread other(work, 1);
    work(0);
    other.join();
  }
  for (auto& s : streams) cudaStreamDestroy(s);
}

TEST(cuda, generic_graph_inside_a_caller_capture) {
  // The caller records the whole call into its own graph: the steps must land
  // in that graph as ordinary dispatches (no nested recording) and replay right.
  using V2 = TestView<double, 2, Kokkos::LayoutLeft, Kokkos::Cuda>;
  const auto stencil = EbisuKokkos::presets::j2d5pt();
  const Extents n{33, 35, 1};
  const int steps = kMin + 2;
  const Field init = random_field(n, 5u);
  const Field ref = reference_run(init, 2, 1, update_of("j2d5pt", stencil), steps);
  V2 u = make_view<V2>("u", n), x = make_view<V2>("x", n);
  upload(u, init);
  Kokkos::deep_copy(x, u);  // the frame: copy_frame runs inside the capture too
  Kokkos::fence();
  cudaStream_t stream;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  {
    const Kokkos::Cuda space(stream);
    EbisuKokkos::StencilPolicy<Kokkos::Cuda> policy(space, steps);
    policy.set_backend(EbisuKokkos::Backend::generic);
    EbisuKokkos::DoubleBuffer<V2> buffers(u, x);
    ASSERT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), cudaSuccess);
    const auto report = EbisuKokkos::parallel_stencil("captured", policy, stencil, buffers);
    cudaGraph_t graph = nullptr;
    ASSERT_EQ(cudaStreamEndCapture(stream, &graph), cudaSuccess);
    EXPECT_FALSE(replayed(report)) << report.plan;
    cudaGraphExec_t exec = nullptr;
    ASSERT_EQ(cudaGraphInstantiateWithFlags(&exec, graph, 0), cudaSuccess);
    ASSERT_EQ(cudaGraphLaunch(exec, stream), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    EXPECT_LE(relative_error(download(buffers.current()), ref), tolerance<double>());
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
  }
  cudaStreamDestroy(stream);
}

}  // namespace ebisu_test
