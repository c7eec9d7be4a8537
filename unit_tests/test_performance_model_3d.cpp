// The 3-D device-tiling model (performance_model_3d.hpp) on the reference H200.
#include <ebisu_kokkos/impl/performance_model_3d.hpp>
#include <ebisu_kokkos/presets.hpp>

#include <gtest/gtest.h>

namespace {

using namespace EbisuKokkos;
using namespace EbisuKokkos::Impl;

template <class Stencil>
Plan3D paper_plan(Stencil, int steps, TuningKnobs knobs = {}) {
  return choose_plan_3d(reference_h200_model(), stencil_model<Stencil>(8), 2560, 288, 384, steps, knobs);
}

TEST(PerformanceModel3D, PaperSizeUsesEverySmAndFitsSharedMemory) {
  const DeviceModel d = reference_h200_model();
  const Plan3D p = paper_plan(presets::j3d7pt(), 1000);
  ASSERT_TRUE(p.valid);
  EXPECT_LE(p.blocks(), d.sm_count);
  EXPECT_GE(p.blocks(), d.sm_count * 9 / 10);  // device tile spread over (nearly) all SMs
  EXPECT_LE(p.smem_bytes, d.smem_per_block_bytes);
  EXPECT_EQ(p.smem_bytes, smem_bytes_3d(p.depth, 1, p.tile_x, p.tile_y, 8, p.planes));
  EXPECT_GE(p.planes, 1);
  EXPECT_GE(p.tile_x * p.grid_x, 384);
  EXPECT_GE(p.tile_y * p.grid_y, 288);
  EXPECT_GE(p.depth, 2);
  EXPECT_GT(smem_bytes_3d(p.depth + 1, 1, p.tile_x, p.tile_y, 8, p.planes), d.smem_per_block_bytes - 1024)
      << "the plan leaves room for another level: not as deep as shared memory allows";
  EXPECT_LE(p.threads, 512);
  EXPECT_GE(p.threads, 256);
  EXPECT_FALSE(p.describe().empty());
}

TEST(PerformanceModel3D, RadiusTwoIsShallowerAndDepthNeverExceedsSteps) {
  const Plan3D p7 = paper_plan(presets::j3d7pt(), 1000);
  const Plan3D p13 = paper_plan(presets::j3d13pt(), 1000);
  ASSERT_TRUE(p13.valid);
  EXPECT_LT(p13.depth, p7.depth);
  const Plan3D p3 = paper_plan(presets::j3d7pt(), 3);
  EXPECT_LE(p3.depth, 3);
  EXPECT_EQ(p3.launches, 1);
  const Plan3D p = paper_plan(presets::j3d7pt(), 1000);
  EXPECT_EQ(p.launches, (1000 + p.depth - 1) / p.depth);
}

TEST(PerformanceModel3D, PredictionsMatchTheMeasuredKernel) {
  // Calibrated on an H200 (docs/perf-notes-3d.md): j3d7pt 69.5, j3d13pt 57.8,
  // j3d17pt 59.3, j3d27pt ~52 GCells/s at large T. Keep the model within 25%.
  const Plan3D p7 = paper_plan(presets::j3d7pt(), 1000);
  const Plan3D p13 = paper_plan(presets::j3d13pt(), 1000);
  const Plan3D p27 = paper_plan(presets::j3d27pt(), 1000);
  EXPECT_NEAR(p7.predicted_gcells_per_s, 69.5, 69.5 * 0.25);
  EXPECT_NEAR(p13.predicted_gcells_per_s, 57.8, 57.8 * 0.25);
  EXPECT_NEAR(p27.predicted_gcells_per_s, 52.0, 52.0 * 0.25);
  EXPECT_LT(p27.predicted_gcells_per_s, p7.predicted_gcells_per_s);  // more work per cell
  // Depth 1 pays a synchronisation per plane group for one step: slower.
  TuningKnobs one;
  one.temporal_depth = 1;
  EXPECT_LT(paper_plan(presets::j3d7pt(), 1000, one).predicted_gcells_per_s, p7.predicted_gcells_per_s);
}

TEST(PerformanceModel3D, AutomaticPrefersGenericWhileTheKernelIsSlower) {
  const DeviceModel d = reference_h200_model();
  const StencilModel s7 = stencil_model<decltype(presets::j3d7pt())>(8);
  const double generic = predict_generic_gcells_3d(d, s7);
  EXPECT_NEAR(generic, 150, 15);  // measured plain Kokkos j3d7pt on an H200
  EXPECT_LT(paper_plan(presets::j3d7pt(), 1000).predicted_gcells_per_s, generic);
  EXPECT_LT(predict_generic_gcells_3d(d, stencil_model<decltype(presets::j3d27pt())>(8)), generic);
}

TEST(PerformanceModel3D, GridBarrierCostsMoreThanNeighbourFlags) {
  const DeviceModel d = reference_h200_model();
  const StencilModel s = stencil_model<decltype(presets::j3d7pt())>(8);
  const Plan3D flags = choose_plan_3d(d, s, 2560, 288, 384, 1000, {}, SyncKind::neighbor_flags);
  const Plan3D grid = choose_plan_3d(d, s, 2560, 288, 384, 1000, {}, SyncKind::grid_barrier);
  EXPECT_GT(flags.predicted_gcells_per_s, grid.predicted_gcells_per_s);
  DeviceModel slow = d;
  slow.grid_sync_us = 20;  // a barrier eight times dearer: the model must notice
  EXPECT_LT(choose_plan_3d(slow, s, 2560, 288, 384, 1000, {}, SyncKind::grid_barrier).predicted_gcells_per_s,
            grid.predicted_gcells_per_s * 0.8);
}

TEST(PerformanceModel3D, KnobsAndTinyDomains) {
  TuningKnobs k;
  k.temporal_depth = 4;
  k.tile_width = 64;
  k.tile_height = 16;
  k.threads = 384;
  const Plan3D p = paper_plan(presets::j3d7pt(), 100, k);
  ASSERT_TRUE(p.valid);
  EXPECT_EQ(p.depth, 4);
  EXPECT_EQ(p.tile_x, 64);
  EXPECT_EQ(p.tile_y, 16);
  EXPECT_EQ(p.threads, 384);
  const DeviceModel d = reference_h200_model();
  const Plan3D tiny = choose_plan_3d(d, stencil_model<decltype(presets::j3d13pt())>(8), 5, 5, 5, 7, {});
  ASSERT_TRUE(tiny.valid);
  EXPECT_GE(tiny.tile_x, 2);  // tiles at least r wide
  const Plan3D too_small = choose_plan_3d(d, stencil_model<decltype(presets::j3d13pt())>(8), 4, 5, 5, 7, {});
  EXPECT_FALSE(too_small.valid);
}

}  // namespace
