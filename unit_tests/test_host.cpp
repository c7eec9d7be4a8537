// Host-only checks of the compile-time stencil machinery.
#include <ebisu_kokkos/ebisu_kokkos.hpp>
#include <gtest/gtest.h>

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
