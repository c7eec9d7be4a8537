// Domains of more than 2^31 cells (issue 14, item 1): 1400^3 (2.744e9 cells)
// and 46400^2 (2.153e9), fp64, 22 and 17 GB a buffer. Every strategy addresses
// global memory in 64 bits; a 32-bit slip would wrap the cells beyond
// offset 2^31 onto the first ones. No host reference can hold such a field,
// so the initial field is a formula of the indices and the expected values of
// sampled cells are computed on the host from that formula alone (long
// double, the stencil applied recursively over the sample's cone of
// dependence): cells on either side of linear offset 2^31, the far corner, the
// frame. Skipped where the device has too little free memory.
#include "category/cuda.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

namespace ebisu_test {
namespace large_domains {

using EbisuKokkos::Backend;
using Index = std::array<long, 3>;

// The initial field: not linear (a stencil whose weights sum to 1 would keep a
// linear field and hide a wrong neighbour), exact in fp64.
KOKKOS_INLINE_FUNCTION double initial_value(long i, long j, long k) {
  return static_cast<double>((i * 7 + j * 13 + k * 29) % 101) / 101.0;
}

// Cell c after `t` steps of `stencil` (fixed frame of width R), from the formula.
template <class Stencil>
long double expected(const Stencil& stencil, const Index& n, int rank, int t, const Index& c) {
  constexpr int R = Stencil::radius;
  bool frame = false;
  for (int a = 0; a < rank; ++a) frame = frame || c[a] < R || c[a] >= n[a] - R;
  if (t == 0 || frame) return initial_value(c[0], c[1], c[2]);
  long double sum = 0;
  for (int p = 0; p < Stencil::num_points; ++p) {
    Index at = c;
    for (int a = 0; a < rank; ++a) at[a] += Stencil::offset(p, a);
    sum += static_cast<long double>(stencil.coefficient(p)) * expected(stencil, n, rank, t - 1, at);
  }
  return sum;
}

// The cells to check: the first interior cells, those around linear offset
// 2^31 (in the View's layout), the last interior cells and a frame cell at the far end.
template <class View>
std::vector<Index> sample_cells(const Index& n, int rank) {
  constexpr bool right = std::is_same_v<typename View::array_layout, Kokkos::LayoutRight>;
  std::vector<Index> cells;
  auto at_offset = [&](long offset) {
    Index c{0, 0, 0};
    if (right) {
      for (int a = rank - 1; a >= 0; --a) {
        c[a] = offset % n[a];
        offset /= n[a];
      }
    } else {
      for (int a = 0; a < rank; ++a) {
        c[a] = offset % n[a];
        offset /= n[a];
      }
    }
    return c;
  };
  const long two31 = 1L << 31;
  for (long offset : {two31 - 2, two31 - 1, two31, two31 + 1, two31 + 12345}) cells.push_back(at_offset(offset));
  Index first{1, 1, rank == 3 ? 1 : 0}, last{n[0] - 2, n[1] - 2, rank == 3 ? n[2] - 2 : 0};
  Index far_frame{n[0] - 1, n[1] - 1, rank == 3 ? n[2] - 1 : 0};
  Index middle{n[0] / 2 + 1, n[1] / 3, rank == 3 ? n[2] - 3 : 0};
  cells.insert(cells.end(), {first, last, far_frame, middle});
  return cells;
}

template <class View>
double read_cell(const View& u, const Index& c) {
  double v = 0;
  if constexpr (View::rank == 3) {
    Kokkos::deep_copy(v, Kokkos::subview(u, c[0], c[1], c[2]));
  } else {
    Kokkos::deep_copy(v, Kokkos::subview(u, c[0], c[1]));
  }
  return v;
}

template <class View>
void fill_initial(const View& u) {
  if constexpr (View::rank == 3) {
    Kokkos::parallel_for(
        "large_domains::init",
        Kokkos::MDRangePolicy<Kokkos::Cuda, Kokkos::Rank<3>>({0, 0, 0}, {u.extent(0), u.extent(1), u.extent(2)}),
        KOKKOS_LAMBDA(long i, long j, long k) { u(i, j, k) = initial_value(i, j, k); });
  } else {
    Kokkos::parallel_for(
        "large_domains::init", Kokkos::MDRangePolicy<Kokkos::Cuda, Kokkos::Rank<2>>({0, 0}, {u.extent(0), u.extent(1)}),
        KOKKOS_LAMBDA(long i, long j) { u(i, j) = initial_value(i, j, 0); });
  }
  Kokkos::fence();
}

// Runs `steps` steps on the generic path and on the EBISU kernels (forced)
// and checks the samples; skipped when the two buffers do not fit.
template <class View, class Stencil>
void check_large(const std::string& name, const Stencil& stencil, const Index& n, int steps) {
  constexpr int rank = View::rank;
  const double bytes = 2.0 * n[0] * n[1] * (rank == 3 ? n[2] : 1) * sizeof(double);
  std::size_t free_bytes = 0, total_bytes = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total_bytes), cudaSuccess);
  if (bytes > 0.9 * static_cast<double>(free_bytes)) {
    GTEST_SKIP() << name << " needs " << bytes / 1e9 << " GB, the device has " << free_bytes / 1e9 << " GB free";
  }
  const std::vector<Index> cells = sample_cells<View>(n, rank);
  std::vector<long double> want;
  for (const Index& c : cells) want.push_back(expected(stencil, n, rank, steps, c));
  View u, x;
  if constexpr (rank == 3) {
    u = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, "u"), n[0], n[1], n[2]);
    x = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, "x"), n[0], n[1], n[2]);
  } else {
    u = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, "u"), n[0], n[1]);
    x = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, "x"), n[0], n[1]);
  }
  ASSERT_GT(u.size(), static_cast<std::size_t>(1L << 31));
  for (Backend backend : {Backend::generic, Backend::ebisu}) {
    SCOPED_TRACE(name + " backend " + EbisuKokkos::to_string(backend));
    fill_initial(u);
    EbisuKokkos::DoubleBuffer<View> buffers(u, x);
    EbisuKokkos::StencilPolicy<Kokkos::Cuda> policy(steps);
    policy.set_backend(backend);
    const EbisuKokkos::StencilReport report = EbisuKokkos::parallel_stencil(name, policy, stencil, buffers);
    Kokkos::fence();
    EXPECT_EQ(report.backend, backend) << report.plan;
    if (backend == Backend::ebisu) EXPECT_EQ(report.strategy, EbisuKokkos::Strategy::sm_tiling) << report.plan;
    for (std::size_t s = 0; s < cells.size(); ++s) {
      const double got = read_cell(buffers.current(), cells[s]);
      const long double w = want[s];
      EXPECT_LE(std::fabs(static_cast<double>(got - w)), 1e-13 * std::max(1.0, std::fabs(static_cast<double>(w))))
          << "cell (" << cells[s][0] << ", " << cells[s][1] << ", " << cells[s][2] << ") got " << got << " want "
          << static_cast<double>(w) << "; " << report.plan;
    }
  }
}

}  // namespace large_domains
}  // namespace ebisu_test

TEST(cuda, large_domain_3d_beyond_2_31_cells) {
  using View = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::CudaSpace>;
  ebisu_test::large_domains::check_large<View>("j3d7pt", EbisuKokkos::presets::j3d7pt(), {1400, 1400, 1400}, 3);
}

TEST(cuda, large_domain_2d_beyond_2_31_cells) {
  using View = Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::CudaSpace>;
  ebisu_test::large_domains::check_large<View>("j2d5pt", EbisuKokkos::presets::j2d5pt(), {46400, 46400, 1}, 5);
}
