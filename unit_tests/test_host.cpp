// Host-only checks of the compile-time stencil machinery.
#include <ebisu_kokkos/ebisu_kokkos.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "support/reference.hpp"

namespace {

template <class Stencil>
std::vector<ebisu_test::Offset> library_offsets() {
  std::vector<ebisu_test::Offset> o;
  for (int k = 0; k < Stencil::num_points; ++k) o.push_back({Stencil::offset(k, 0), Stencil::offset(k, 1), Stencil::offset(k, 2)});
  return o;
}

}  // namespace

TEST(host, preset_shapes_match_the_suite) {
  EXPECT_EQ(library_offsets<decltype(EbisuKokkos::presets::j1d3pt())>(), ebisu_test::preset_offsets("j1d3pt"));
  EXPECT_EQ(library_offsets<decltype(EbisuKokkos::presets::j1d5pt())>(), ebisu_test::preset_offsets("j1d5pt"));
  EXPECT_EQ(library_offsets<decltype(EbisuKokkos::presets::j2d5pt())>(), ebisu_test::preset_offsets("j2d5pt"));
  EXPECT_EQ(library_offsets<decltype(EbisuKokkos::presets::j2d9pt())>(), ebisu_test::preset_offsets("j2d9pt"));
  EXPECT_EQ(library_offsets<decltype(EbisuKokkos::presets::j2d9pt_gol())>(), ebisu_test::preset_offsets("j2d9pt-gol"));
  EXPECT_EQ(library_offsets<decltype(EbisuKokkos::presets::j2d25pt())>(), ebisu_test::preset_offsets("j2d25pt"));
  EXPECT_EQ(library_offsets<decltype(EbisuKokkos::presets::j3d7pt())>(), ebisu_test::preset_offsets("j3d7pt"));
  EXPECT_EQ(library_offsets<decltype(EbisuKokkos::presets::j3d13pt())>(), ebisu_test::preset_offsets("j3d13pt"));
  EXPECT_EQ(library_offsets<decltype(EbisuKokkos::presets::j3d17pt())>(), ebisu_test::preset_offsets("j3d17pt"));
  EXPECT_EQ(library_offsets<decltype(EbisuKokkos::presets::j3d27pt())>(), ebisu_test::preset_offsets("j3d27pt"));
  EXPECT_EQ(library_offsets<decltype(EbisuKokkos::presets::poisson())>(), ebisu_test::preset_offsets("poisson"));
}

TEST(host, point_counts_and_flops) {
  EXPECT_EQ(decltype(EbisuKokkos::presets::j2d5pt())::num_points, 5);
  EXPECT_EQ(decltype(EbisuKokkos::presets::j2d5pt())::flops_per_cell, 10);
  EXPECT_EQ(decltype(EbisuKokkos::presets::j3d17pt())::num_points, 17);
  EXPECT_EQ(decltype(EbisuKokkos::presets::poisson())::num_points, 19);
  EXPECT_EQ(decltype(EbisuKokkos::presets::j3d13pt())::num_points, 13);
  EXPECT_EQ(decltype(EbisuKokkos::presets::j2d25pt())::points::reach(1), 2);
}

TEST(host, neighbors_index_by_view_axes) {
  EbisuKokkos::Neighbors<double, 2, 1> nb{};
  for (int b = 0; b < 9; ++b) nb.m_values[b] = b;
  // Row-major over (d0, d1): (d0 + 1) * 3 + (d1 + 1).
  EXPECT_EQ(nb(-1, -1), 0);
  EXPECT_EQ(nb(-1, 1), 2);
  EXPECT_EQ(nb(1, -1), 6);
  EXPECT_EQ(nb(0, 0), 4);
  EXPECT_EQ(nb.center(), 4);
}

TEST(host, version_and_configuration) {
  EXPECT_STREQ(EbisuKokkos::version(), EBISU_KOKKOS_VERSION_STRING);
  std::ostringstream out;
  EbisuKokkos::print_configuration(out);
  EXPECT_NE(out.str().find("Kokkos"), std::string::npos);
}

// The host paths' hand-vectorised rows (impl/host/linear_rows.hpp) against a long-double sum, for
// every row [f0, f1) of a short window: vectors that overlap at the end, rows shorter than two
// vectors, and rows whose neighbour rows are their own allocations of exactly [f0 - R, f1 + R)
// (a read outside would be out of bounds). Cells outside [f0, f1) must keep their values.
namespace {

#if EBISU_KOKKOS_HOST_ROW_VECTORS
// Offsets beyond the star and the box: some rows read only before, some only after the cell.
struct LopsidedShape {
  static constexpr bool contains(int d0, int d1, int d2) {
    return (d0 == 0 && d2 == 0) || (d0 == -1 && d1 >= 0) || (d0 == 1 && d1 <= 0 && d2 == 0);
  }
};

template <class Map, int Rank, int R, class Shape, class Scalar>
void check_linear_rows(const char* name) {
  using Points = EbisuKokkos::Impl::ShapePoints<Rank, R, Shape>;
  constexpr int side = 2 * R + 1;
  constexpr long length = 75;
  std::vector<Scalar> coef(Points::size);
  for (int k = 0; k < Points::size; ++k) coef[k] = static_cast<Scalar>(0.1 + 0.37 * k - 0.02 * k * k);
  std::vector<Scalar> full(side * side * length);
  for (std::size_t i = 0; i < full.size(); ++i) full[i] = static_cast<Scalar>(std::sin(0.7 * static_cast<double>(i)));
  auto full_row = [&](int q) { return full.data() + q * length; };
  const Scalar sentinel = static_cast<Scalar>(-12345);
  int failures = 0;
  for (long f0 = R; f0 < 40; f0 += 3) {
    for (long f1 = f0 + 1; f1 <= length - R; ++f1) {
      std::vector<std::vector<Scalar>> own(side * side);
      const Scalar* rows[side][side];
      for (int q = 0; q < side * side; ++q) {
        own[q].assign(full_row(q) + f0 - R, full_row(q) + f1 + R);
        rows[q / side][q % side] = own[q].data() - (f0 - R);
      }
      std::vector<Scalar> out(length, sentinel);
      bool short_row = false;
      EbisuKokkos::Impl::Host::linear_row<Map, Points, R>(coef, rows, out.data(), f0, f1, [&](long, long) { short_row = true; });
      if (short_row) continue;  // left to the caller's loop
      for (long f = 0; f < length; ++f) {
        long double want = 0;
        for (int k = 0; k < Points::size; ++k) {
          const int d[3] = {Points::offset(k, 0), Points::offset(k, 1), Points::offset(k, 2)};
          const int ds = d[Map::view_index(0)], dm = Rank == 3 ? d[1] : 0, df = d[Map::view_index(2)];
          want += static_cast<long double>(coef[k]) * full_row((R + ds) * side + R + dm)[f + df];
        }
        const bool inside = f >= f0 && f < f1;
        const long double got = out[f];
        const bool ok = inside ? std::fabs(static_cast<double>(got - want)) <=
                                     (sizeof(Scalar) == 4 ? 1e-5 : 1e-13) * (1.0 + std::fabs(static_cast<double>(want)))
                               : out[f] == sentinel;
        if (!ok && failures++ < 5) {
          ADD_FAILURE() << name << ": row [" << f0 << ", " << f1 << ") cell " << f << " got " << static_cast<double>(got)
                        << (inside ? " want " : " (outside the row) want it untouched, ") << static_cast<double>(want);
        }
      }
    }
  }
}
#endif

}  // namespace

TEST(host, linear_rows_match_a_long_double_sum) {
#if EBISU_KOKKOS_HOST_ROW_VECTORS
  using EbisuKokkos::Impl::AxisMap;
  check_linear_rows<AxisMap<3, true>, 3, 1, EbisuKokkos::BoxShape, double>("box 3-D");
  check_linear_rows<AxisMap<3, false>, 3, 1, EbisuKokkos::BoxShape, double>("box 3-D LayoutLeft");
  check_linear_rows<AxisMap<3, true>, 3, 1, EbisuKokkos::NoCornerShape, double>("poisson shape");
  check_linear_rows<AxisMap<2, true>, 2, 2, EbisuKokkos::BoxShape, float>("box 2-D radius 2, float");
  check_linear_rows<AxisMap<2, false>, 2, 2, EbisuKokkos::BoxShape, double>("box 2-D radius 2, LayoutLeft");
  check_linear_rows<AxisMap<3, true>, 3, 1, LopsidedShape, double>("lopsided 3-D");
  check_linear_rows<AxisMap<2, true>, 2, 2, EbisuKokkos::StarShape, float>("star 2-D radius 2, float");
  // Which stencils the blocked stage gives them: at least two points per row read.
  EXPECT_TRUE((EbisuKokkos::Impl::Host::kLinearRowsPay<AxisMap<3, true>, decltype(EbisuKokkos::presets::j3d27pt())::points, 1>));
  EXPECT_TRUE((EbisuKokkos::Impl::Host::kLinearRowsPay<AxisMap<3, true>, decltype(EbisuKokkos::presets::poisson())::points, 1>));
  EXPECT_FALSE((EbisuKokkos::Impl::Host::kLinearRowsPay<AxisMap<3, true>, decltype(EbisuKokkos::presets::j3d7pt())::points, 1>));
  EXPECT_FALSE((EbisuKokkos::Impl::Host::kLinearRowsPay<AxisMap<2, true>, decltype(EbisuKokkos::presets::j2d5pt())::points, 1>));
#else
  GTEST_SKIP() << "built without the host row vectors (needs AVX and GCC 12+ or Clang, not nvcc)";
#endif
}

// The streamed axis's table (what the SM-tiling kernels read beyond a side)
// against closed forms: periodic x mod n, mirror the reflection with period 2n
// (cell -1 reads cell 0), for extents down to one cell, where the table holds
// several wraps; a mirror side beside a fixed one against the rule itself.
TEST(host, streamed_axis_sources_match_the_wrap_and_reflection) {
  using EbisuKokkos::Boundary;
  using EbisuKokkos::Impl::AxisRules;
  using EbisuKokkos::Impl::StreamedAxis;
  const int reach = StreamedAxis::kOverhang;
  auto periodic = [](int x, int n) { return ((x % n) + n) % n; };
  auto mirror = [](int x, int n) {
    const int m = ((x % (2 * n)) + 2 * n) % (2 * n);
    return m < n ? m : 2 * n - 1 - m;
  };
  for (int n : {1, 2, 3, 5, 31, 32, 33, 100}) {
    const StreamedAxis wrap(AxisRules(n, Boundary::periodic, Boundary::periodic, 1));
    const StreamedAxis reflect(AxisRules(n, Boundary::mirror, Boundary::mirror, 1));
    for (int x = -reach; x < n + reach; ++x) {
      EXPECT_EQ(wrap.source(x), periodic(x, n)) << "periodic, n " << n << ", x " << x;
      EXPECT_EQ(reflect.source(x), mirror(x, n)) << "mirror, n " << n << ", x " << x;
    }
    const AxisRules low_mirror(n, Boundary::mirror, Boundary::fixed, 1);
    const StreamedAxis half(low_mirror);
    for (int x = -reach; x < 0; ++x) {
      EXPECT_EQ(half.source(x), low_mirror.source(x)) << "mirror below a fixed top, n " << n << ", x " << x;
      if (-x <= n) EXPECT_EQ(half.source(x), -1 - x);
    }
  }
}
