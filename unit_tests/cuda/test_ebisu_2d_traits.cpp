// Compile-time facts of the 2-D EBISU kernel: which stencils exchange column
// partial sums, and how many shared-memory accesses a cell update costs (the
// paper's a_sm, which the performance model uses). Checked at compile time,
// so the CPU-only CI's compile-only CUDA build checks them too.
#include <ebisu_kokkos/ebisu_kokkos.hpp>
#include <ebisu_kokkos/impl/cuda/ebisu_2d.hpp>
#include <gtest/gtest.h>

namespace ebisu_test {

namespace p = EbisuKokkos::presets;
template <class S, bool SlowIs0 = true>
using Tr = EbisuKokkos::Impl::Cuda::ebisu2d::Traits<S, SlowIs0>;
using J2d5 = decltype(p::j2d5pt());
using J2d9 = decltype(p::j2d9pt());
using Gol = decltype(p::j2d9pt_gol());
using J2d25 = decltype(p::j2d25pt());

// Stars read other columns in the centre row only: raw values, a 2-row queue.
static_assert(!Tr<J2d5>::partial_sums && Tr<J2d5>::K == 0 && Tr<J2d5>::planes_per_stage == 4);
static_assert(Tr<J2d5>::smem_accesses_per_cell == 2.0);  // 2 loads + 2 stores per 2 cells
static_assert(!Tr<J2d9>::partial_sums && Tr<J2d9>::smem_accesses_per_cell == 3.0);
// Boxes exchange one partial sum per (column, fast offset) instead of 2r+1 rows.
static_assert(Tr<Gol>::partial_sums && Tr<Gol>::exports == 2 && Tr<Gol>::smem_accesses_per_cell == 2.0);
static_assert(Tr<J2d25>::partial_sums && Tr<J2d25>::exports == 6 && Tr<J2d25>::smem_accesses_per_cell == 6.0);
// The same in LayoutLeft (slow axis = View index 1).
static_assert(Tr<J2d25, false>::exports == 6 && Tr<Gol, false>::smem_accesses_per_cell == 2.0);
// Radius-1 kernels have a compiled 128-thread block; radius 2 takes it from the launch.
static_assert(Tr<J2d5>::block_threads == 128 && Tr<Gol>::block_threads == 128 && Tr<J2d9>::block_threads == 0 &&
              Tr<J2d25>::launch_threads(256) == 256 && Tr<J2d5>::launch_threads(256) == 128);
// Column 0 sends right-going sums (d = 1, 2) and d = -2; column 1 the mirror image.
static_assert(Tr<J2d25>::export_index(1, 0) >= 0 && Tr<J2d25>::export_index(2, 0) >= 0 &&
              Tr<J2d25>::export_index(-2, 0) >= 0 && Tr<J2d25>::export_index(-1, 0) < 0 &&
              Tr<J2d25>::export_index(0, 0) < 0 && Tr<J2d25>::export_index(-1, 1) >= 0 &&
              Tr<J2d25>::export_index(1, 1) < 0);

// A user functor may be non-linear: it always exchanges raw rows.
struct Product {
  KOKKOS_FUNCTION double operator()(const EbisuKokkos::Neighbors<double, 2, 1>& nb) const {
    return nb(1, 1) * nb(-1, 0);
  }
};
using Functor = EbisuKokkos::FunctorStencil<2, 1, Product>;
static_assert(!Tr<Functor>::partial_sums && Tr<Functor>::K == 1 && Tr<Functor>::planes_per_stage == 8);

}  // namespace ebisu_test

TEST(cuda_traits, kernel_facts_are_compile_time) { SUCCEED() << "checked by static_assert"; }
