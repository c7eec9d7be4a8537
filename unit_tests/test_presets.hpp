// Every preset of the EBISU suite (plus 1-D) against the host reference.
#include "support/run_case.hpp"

namespace ebisu_test {

template <class Stencil>
void check_preset(const std::string& name, const Stencil& stencil) {
  ASSERT_EQ(static_cast<int>(preset_offsets(name).size()), Stencil::num_points) << name;
  // The defaults are the documented distinct weights, in the documented order.
  const auto weights = documented_weights(Stencil::num_points);
  for (int k = 0; k < Stencil::num_points; ++k) EXPECT_DOUBLE_EQ(stencil.coefficient(k), double(weights[k])) << k;
  check_stencil<TEST_EXECSPACE>(name, stencil, update_of(name, stencil),
                                standard_cases(Stencil::rank, Stencil::radius));
}

}  // namespace ebisu_test

#define EBISU_PRESET_TEST(test_name, preset_name, factory) \
  TEST(TEST_CATEGORY, preset_##test_name) { ebisu_test::check_preset(preset_name, EbisuKokkos::presets::factory()); }

EBISU_PRESET_TEST(j1d3pt, "j1d3pt", j1d3pt)
EBISU_PRESET_TEST(j1d5pt, "j1d5pt", j1d5pt)
EBISU_PRESET_TEST(j2d5pt, "j2d5pt", j2d5pt)
EBISU_PRESET_TEST(j2d9pt, "j2d9pt", j2d9pt)
EBISU_PRESET_TEST(j2d9pt_gol, "j2d9pt-gol", j2d9pt_gol)
EBISU_PRESET_TEST(j2d25pt, "j2d25pt", j2d25pt)
EBISU_PRESET_TEST(j3d7pt, "j3d7pt", j3d7pt)
EBISU_PRESET_TEST(j3d13pt, "j3d13pt", j3d13pt)
EBISU_PRESET_TEST(j3d17pt, "j3d17pt", j3d17pt)
EBISU_PRESET_TEST(j3d27pt, "j3d27pt", j3d27pt)
EBISU_PRESET_TEST(poisson, "poisson", poisson)
