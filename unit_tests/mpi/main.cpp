// GoogleTest under MPI: every rank runs every test (the calls are collective);
// only rank 0 prints, and the process exit status is a failure when any rank failed.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int failed = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    if (rank != 0) {
      auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
      delete listeners.Release(listeners.default_result_printer());
    }
    const int mine = RUN_ALL_TESTS();
    MPI_Allreduce(&mine, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (mine != 0) std::fprintf(stderr, "rank %d: tests failed\n", rank);
  }
  MPI_Finalize();
  return failed;
}
