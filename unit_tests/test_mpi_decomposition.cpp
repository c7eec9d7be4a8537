// The decomposition arithmetic of the distributed parallel_stencil
// (impl/mpi/decomposition.hpp), which needs no MPI: block ranges, the faces
// of a block, and the default halo depth.
#include <ebisu_kokkos/impl/mpi/decomposition.hpp>

#include <gtest/gtest.h>

namespace {

using EbisuKokkos::Boundary;
using namespace EbisuKokkos::Mpi::Impl;

TEST(mpi_decomposition, blocks_tile_the_axis_with_the_remainder_first) {
  // 10 cells over 4 ranks: 3, 3, 2, 2
  const std::int64_t begin[4] = {0, 3, 6, 8}, extent[4] = {3, 3, 2, 2};
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(block_range(10, 4, r).begin, begin[r]);
    EXPECT_EQ(block_range(10, 4, r).extent, extent[r]);
  }
  EXPECT_EQ(smallest_block(10, 4), 2);
  EXPECT_EQ(block_range(7, 1, 0).extent, 7);
}

TEST(mpi_decomposition, faces) {
  using F = Face;
  EXPECT_EQ(faces(1, 0, Boundary::fixed), (std::array<F, 2>{F::edge, F::edge}));
  EXPECT_EQ(faces(1, 0, Boundary::periodic), (std::array<F, 2>{F::edge, F::edge}));  // wraps locally
  EXPECT_EQ(faces(3, 0, Boundary::mirror), (std::array<F, 2>{F::edge, F::neighbour}));
  EXPECT_EQ(faces(3, 1, Boundary::fixed), (std::array<F, 2>{F::neighbour, F::neighbour}));
  EXPECT_EQ(faces(3, 2, Boundary::fixed), (std::array<F, 2>{F::neighbour, F::edge}));
  EXPECT_EQ(faces(2, 0, Boundary::periodic), (std::array<F, 2>{F::neighbour, F::neighbour}));
}

TEST(mpi_decomposition, default_halo_depth) {
  // 8192^2 over 2 ranks along index 0: blocks of 4096 rows, two exchanged sides:
  // 64 steps cost 128 / 4096 = 3.1% extra rows: the cap.
  EXPECT_EQ((default_steps_per_exchange<2>({4096, 8192}, {2, 0}, 1)), 64);
  // 1024 rows: 51 steps cost 102 / 1024 = 9.96%, 52 10.2%
  EXPECT_EQ((default_steps_per_exchange<2>({1024, 8192}, {2, 0}, 1)), 51);
  // 64 rows per block: k = 3 costs 6/64 = 9.4%, k = 4 12.5% > 10%.
  EXPECT_EQ((default_steps_per_exchange<2>({64, 64}, {2, 0}, 1)), 3);
  // radius 2 halves it
  EXPECT_EQ((default_steps_per_exchange<2>({64, 64}, {2, 0}, 2)), 1);
  // both axes split: the growth multiplies
  EXPECT_EQ((default_steps_per_exchange<2>({64, 64}, {2, 2}, 1)), 1);
  // nothing exchanged: the cap
  EXPECT_EQ((default_steps_per_exchange<3>({8, 8, 8}, {0, 0, 0}, 1)), 64);
  // never deeper than the thinnest block, never below 1
  EXPECT_EQ((default_steps_per_exchange<1>({2}, {2}, 1)), 1);
  EXPECT_EQ((default_steps_per_exchange<3>({256, 512, 512}, {2, 0, 0}, 1)), 12);
}

}  // namespace
