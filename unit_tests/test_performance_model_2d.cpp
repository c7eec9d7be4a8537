// CPU tests of the 2-D EBISU performance model (performance_model_2d) on the
// reference H200 figures.

#include <ebisu_kokkos/impl/performance_model_2d.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using namespace EbisuKokkos::Impl;

StencilModel model2d(int radius, int points, int flops, bool box, int bytes = 8) {
  StencilModel s;
  s.rank = 2;
  s.radius = radius;
  s.points = points;
  s.flops = flops;
  s.scalar_bytes = bytes;
  s.box_like = box;
  return s;
}

TEST(PerformanceModel2D, J2d5ptPicksSensibleDepthAndBeatsPerStepBound) {
  const DeviceModel dev = reference_h200_model();
  const StencilModel s = model2d(1, 5, 10, false);
  const Plan2D p = choose_plan_2d(dev, s, 8352, 8352, 1000, EbisuKokkos::TuningKnobs{});
  EXPECT_GE(p.depth, 4);
  EXPECT_LE(p.depth, default_kernel_limits_2d(s).max_depth);
  EXPECT_GT(p.valid_fraction, 0.5);
  EXPECT_LT(p.valid_fraction, 1.0);
  EXPECT_GT(p.y_efficiency, 0.5);
  EXPECT_LE(p.y_efficiency, 1.0);
  // Temporal blocking must beat the 257 GCells/s per-step device-memory bound.
  EXPECT_GT(p.predicted_gcells_per_s, dev.dram_bandwidth_gbs / 16.0);
  EXPECT_EQ(p.blocks % dev.sm_count, 0);  // persistent grid fills every SM
  EXPECT_LE(p.smem_bytes, dev.smem_per_block_bytes);
  EXPECT_FALSE(p.describe().empty());
}

TEST(PerformanceModel2D, PredictionBelowEveryRoofline) {
  const DeviceModel dev = reference_h200_model();
  const StencilModel suite[] = {model2d(1, 5, 10, false), model2d(2, 9, 18, false), model2d(1, 9, 18, true),
                                model2d(2, 25, 25, true)};
  for (const StencilModel& s : suite) {
    const Plan2D p = choose_plan_2d(dev, s, 8192, 8192, 1000, EbisuKokkos::TuningKnobs{});
    const double fp_bound = dev.fp64_gflops / s.flops;
    const double smem_bound = dev.smem_bandwidth_gbs / (s.scalar_bytes * p.smem_accesses_per_cell);
    const double dram_bound = dev.dram_bandwidth_gbs / (2.0 * s.scalar_bytes) * p.depth;
    EXPECT_GT(p.predicted_gcells_per_s, 0);
    EXPECT_LT(p.predicted_gcells_per_s, fp_bound);
    EXPECT_LT(p.predicted_gcells_per_s, smem_bound);
    EXPECT_LT(p.predicted_gcells_per_s, dram_bound);
    // Register streaming with 2 columns per thread needs fewer shared-memory
    // accesses than the paper's one-column count.
    EXPECT_LE(p.smem_accesses_per_cell, s.smem_accesses_per_cell());
  }
}

TEST(PerformanceModel2D, KnobsOverrideTheModel) {
  const DeviceModel dev = reference_h200_model();
  const StencilModel s = model2d(1, 5, 10, false);
  EbisuKokkos::TuningKnobs k;
  k.temporal_depth = 4;
  k.threads = 128;
  const Plan2D p = choose_plan_2d(dev, s, 4000, 4000, 1000, k);
  EXPECT_EQ(p.depth, 4);
  EXPECT_EQ(p.threads, 128);
  EXPECT_EQ(p.tile_width, 128 * p.cols_per_thread);
  EbisuKokkos::TuningKnobs w;
  w.tile_width = 256;
  const Plan2D q = choose_plan_2d(dev, s, 4000, 4000, 1000, w);
  EXPECT_EQ(q.tile_width, 256);
}

TEST(PerformanceModel2D, DepthNeverExceedsSteps) {
  const DeviceModel dev = reference_h200_model();
  const StencilModel s = model2d(1, 5, 10, false);
  for (int steps : {1, 2, 3}) {
    const Plan2D p = choose_plan_2d(dev, s, 8352, 8352, steps, EbisuKokkos::TuningKnobs{});
    EXPECT_LE(p.depth, steps);
    EXPECT_GE(p.depth, 1);
  }
}

TEST(PerformanceModel2D, TinyDomainsGetAFeasiblePlan) {
  const DeviceModel dev = reference_h200_model();
  const StencilModel box = model2d(2, 25, 25, true, 4);
  for (long n : {5L, 7L, 300L}) {
    const Plan2D p = choose_plan_2d(dev, box, n, 5, 64, EbisuKokkos::TuningKnobs{});
    EXPECT_NE(p.bottleneck, "infeasible");
    EXPECT_GE(p.tile_width - 2 * p.depth * box.radius, p.strip_width);
    EXPECT_GE(static_cast<long>(p.strips) * p.strip_width, 5);
    EXPECT_GE(static_cast<long>(p.blocks) * p.rows_per_block, p.strips * n);
  }
}

TEST(PerformanceModel2D, DeeperBlockingCutsDeviceMemoryTraffic) {
  const DeviceModel dev = reference_h200_model();
  const StencilModel s = model2d(1, 5, 10, false);
  const Plan2D p1 = evaluate_plan_2d(dev, s, 8352, 8352, 1, 256, 17, default_kernel_limits_2d(s));
  const Plan2D p8 = evaluate_plan_2d(dev, s, 8352, 8352, 8, 256, 18, default_kernel_limits_2d(s));
  EXPECT_LT(p8.t_gm_s / 8, p1.t_gm_s / 1);
  EXPECT_LT(p8.valid_fraction, 1.0);
}

}  // namespace
