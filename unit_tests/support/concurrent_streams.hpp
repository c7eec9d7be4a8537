#ifndef EBISU_KOKKOS_TEST_CONCURRENT_STREAMS_HPP
#define EBISU_KOKKOS_TEST_CONCURRENT_STREAMS_HPP

// Two cooperative launches of one strategy on two CUDA streams, in flight
// together, three times: both must finish (no deadlock) and both must be right
// (no interference), and the strategy asked for must be the one that ran.
// Included only by the Cuda tests.

#include "run_case.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>

#include <cuda_runtime.h>

#include <string>
#include <vector>

namespace ebisu_test {

template <class View, class Stencil>
void check_concurrent_streams(const Stencil& stencil, const Update& update, const Extents (&n)[2],
                              const int (&steps)[2], EbisuKokkos::Strategy strategy) {
  constexpr int rank = Stencil::rank;
  cudaStream_t streams[2];
  for (auto& s : streams) ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  {
    Field init[2], ref[2];
    View u[2], x[2];
    std::vector<EbisuKokkos::StencilReport> reports;
    for (int i = 0; i < 2; ++i) {
      init[i] = random_field(n[i], 77u + static_cast<unsigned>(i));
      ref[i] = reference_run(init[i], rank, Stencil::radius, update, steps[i]);
      u[i] = make_view<View>("u", n[i]);
      x[i] = make_view<View>("x", n[i]);
    }
    for (int rep = 0; rep < 3; ++rep) {
      for (int i = 0; i < 2; ++i) upload(u[i], init[i]);
      Kokkos::fence();
      for (int i = 0; i < 2; ++i) {
        EbisuKokkos::StencilPolicy<Kokkos::Cuda> policy(Kokkos::Cuda(streams[i]), steps[i]);
        policy.set_backend(EbisuKokkos::Backend::ebisu).set_strategy(strategy);
        reports.push_back(EbisuKokkos::parallel_stencil("concurrent", policy, stencil, u[i], x[i]));
      }
      Kokkos::fence();
      for (auto& s : streams) ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
      for (int i = 0; i < 2; ++i) EXPECT_LE(relative_error(download(u[i]), ref[i]), tolerance<double>()) << i;
    }
    for (const auto& r : reports) EXPECT_EQ(r.strategy, strategy) << r.plan;
  }
  for (auto& s : streams) cudaStreamDestroy(s);
}

}  // namespace ebisu_test

#endif
