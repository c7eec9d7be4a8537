// The 3-D models (performance_model_3d.hpp) on the reference H200: the SM-tiling
// (2.5-D) plan the CUDA backend runs, and the device-tiling model kept for
// comparison (its kernel was retired: ~2x slower than plain Kokkos).
#include <ebisu_kokkos/impl/performance_model_3d.hpp>
#include <ebisu_kokkos/presets.hpp>

#include <gtest/gtest.h>

#include <algorithm>

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

TEST(PerformanceModel3D, DeviceTilingModelIsSlowerThanGeneric) {
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


// ------------------------------------------------------------ SM tiling --
template <class Stencil>
PlanSM3D sm_plan(Stencil, int steps, TuningKnobs knobs = {}) {
  return choose_plan_3d_sm(reference_h200_model(), stencil_model<Stencil>(8), 2560, 288, 384, steps, knobs);
}

TEST(PerformanceModel3DSm, ShapesFitSharedMemoryAndRegisters) {
  const DeviceModel d = reference_h200_model();
  for (int r = 1; r <= 2; ++r)
    for (int k = 0; k <= r; ++k)
      for (int t = 1; t <= sm3d_max_depth(r); ++t)
        for (int sb : {4, 8}) {
          const SmTileShape3D s = sm_tile_shape_3d(t, r, k, sb);
          EXPECT_EQ(s.threads_x * s.threads_y, sm3d_threads);
          EXPECT_LE(s.smem_bytes, d.smem_per_block_bytes) << "r " << r << " K " << k << " depth " << t;
          EXPECT_GT(s.tile_x, 2 * t * r);
          EXPECT_GT(s.tile_y, 2 * t * r);
          EXPECT_EQ(s.queue_planes, 2 * k + 2);
        }
  // Partial-sum mode (radius-1 box-like stencils: two x-offset planes, a
  // compact edge-row queue, a shorter prefetch ring): depth 2 keeps the
  // 64 x 32 tile of the row-queue kernel and still fits one block; depth 4
  // does not fit (fp64), and a depth knob of 4 gets the deepest that does.
  SmTileShape3D ps[5];
  for (int t = 1; t <= 4; ++t) {
    ps[t] = sm_tile_shape_3d(t, 1, 1, 8, 2);
    EXPECT_EQ(ps[t].export_planes, 2);
    EXPECT_EQ(ps[t].tile_x, sm_tile_shape_3d(t, 1, 1, 8).tile_x);
    if (t <= 3) EXPECT_LE(ps[t].smem_bytes, d.smem_per_block_bytes) << "partial sums, depth " << t;
    if (t <= 2) EXPECT_EQ(ps[t].tile_x * ps[t].tile_y, 64 * 32);
  }
  EXPECT_GT(ps[4].smem_bytes, d.smem_per_block_bytes);
  TuningKnobs deep;
  deep.temporal_depth = 4;
  const PlanSM3D p = choose_plan_3d_sm(d, stencil_model<EbisuKokkos::LinearStencil<3, 1, EbisuKokkos::BoxShape>>(8),
                                       2560, 288, 384, 40, deep, ps, 4);
  EXPECT_TRUE(p.valid);
  EXPECT_EQ(p.depth, 3);
  // The compile-time shape and the host function agree.
  EXPECT_EQ((Sm3dShape<3, 1, 0>::cells_y), sm3d_cells_y(3, 1, 0));
  EXPECT_EQ((Sm3dShape<3, 1, 1>::cells_y), sm3d_cells_y(3, 1, 1));
  EXPECT_EQ((Sm3dShape<2, 2, 0>::cells_y), sm3d_cells_y(2, 2, 0));
}

TEST(PerformanceModel3DSm, PredictionsMatchTheMeasuredKernel) {
  // H200, fp64, View(2560, 288, 384), T = 240 (docs/perf-notes-3d.md): best
  // measured depth and rate j3d7pt 4 / 336.7, j3d13pt 2 / 176.7, j3d17pt 2 / 170.2,
  // j3d27pt 2 / 152.7, poisson 2 / 160.6 GCells/s. Keep the model within 25%
  // and let it pick the measured-best depth.
  const PlanSM3D p7 = sm_plan(presets::j3d7pt(), 240);
  const PlanSM3D p13 = sm_plan(presets::j3d13pt(), 240);
  const PlanSM3D p17 = sm_plan(presets::j3d17pt(), 240);
  const PlanSM3D p27 = sm_plan(presets::j3d27pt(), 240);
  const PlanSM3D pp = sm_plan(presets::poisson(), 240);
  ASSERT_TRUE(p7.valid && p13.valid && p17.valid && p27.valid && pp.valid);
  EXPECT_EQ(p7.depth, 4);
  EXPECT_EQ(p13.depth, 2);
  EXPECT_EQ(p17.depth, 2);
  EXPECT_EQ(p27.depth, 2);
  EXPECT_EQ(pp.depth, 2);
  EXPECT_NEAR(p7.predicted_gcells_per_s, 336.7, 336.7 * 0.25);
  EXPECT_NEAR(p13.predicted_gcells_per_s, 176.7, 176.7 * 0.25);
  EXPECT_NEAR(p17.predicted_gcells_per_s, 170.2, 170.2 * 0.25);
  EXPECT_NEAR(p27.predicted_gcells_per_s, 152.7, 152.7 * 0.25);
  EXPECT_NEAR(pp.predicted_gcells_per_s, 160.6, 160.6 * 0.25);
  // Single launches pay the copy back into u (measured j3d7pt T = 1: 89.4, T = 4 at depth 4: 249.1).
  TuningKnobs one;
  one.temporal_depth = 1;
  EXPECT_NEAR(sm_plan(presets::j3d7pt(), 1, one).predicted_gcells_per_s, 89.4, 89.4 * 0.25);
  TuningKnobs four;
  four.temporal_depth = 4;
  EXPECT_NEAR(sm_plan(presets::j3d7pt(), 4, four).predicted_gcells_per_s, 249.1, 249.1 * 0.25);
}

TEST(PerformanceModel3DSm, AutomaticPicksEbisuExceptSingleStepStar) {
  const DeviceModel d = reference_h200_model();
  auto faster = [&](auto st, int steps) {
    const StencilModel sm = stencil_model<decltype(st)>(8);
    return sm_plan(st, steps).predicted_seconds < predict_generic_seconds_3d(d, sm, 2560, 288, 384, steps);
  };
  for (int T : {2, 4, 20, 240}) {
    EXPECT_TRUE(faster(presets::j3d7pt(), T)) << T;
    EXPECT_TRUE(faster(presets::j3d13pt(), T)) << T;
    EXPECT_TRUE(faster(presets::j3d17pt(), T)) << T;
    EXPECT_TRUE(faster(presets::j3d27pt(), T)) << T;
    EXPECT_TRUE(faster(presets::poisson(), T)) << T;
  }
  // One step of j3d7pt: no temporal reuse, the overlapped halo costs DRAM
  // traffic (measured 89.4 vs ~145 GCells/s plain Kokkos before the copy).
  EXPECT_FALSE(faster(presets::j3d7pt(), 1));
  EXPECT_TRUE(faster(presets::j3d27pt(), 1));
}

TEST(PerformanceModel3DSm, SeveralStateFieldsAndLevels) {
  const DeviceModel d = reference_h200_model();
  // Per field one stream per step and older input level, each with a window and a queue of
  // 2K + 2 + (NL - 1)(R + 1) planes of the padded 32 x 32 tile, and a ring of 3 planes per level.
  const long plane = 34L * 34;
  const SmTileShape3D wave = sm_tile_shape_3d(3, 1, 0, 8, 0, 0, 1, 2);  // star, (u^n, u^{n-1})
  EXPECT_EQ(wave.cells_y, 2);
  EXPECT_EQ(wave.tile_x, 32);
  EXPECT_EQ(wave.queue_planes, 4);
  EXPECT_EQ(wave.smem_bytes, (4 * 4 * plane + (sm3d_prefetch_states + 1) * 2L * 2 * sm3d_threads) * 8);
  EXPECT_EQ(wave.smem_bytes, 197120);  // what the H200 run reported
  EXPECT_GT(sm_tile_shape_3d(4, 1, 0, 8, 0, 0, 1, 2).smem_bytes, d.smem_per_block_bytes);
  // u^{n-1} read at the cell only: no older planes queued, so depth 4 fits.
  const SmTileShape3D wave_at_cell = sm_tile_shape_3d(3, 1, 0, 8, 0, 0, 1, 2, false);
  EXPECT_EQ(wave_at_cell.queue_planes, 2);
  EXPECT_EQ(wave_at_cell.smem_bytes, (4 * 2 * plane + (sm3d_prefetch_states + 1) * 2L * 2 * sm3d_threads) * 8);
  EXPECT_LT(sm_tile_shape_3d(4, 1, 0, 8, 0, 0, 1, 2, false).smem_bytes, d.smem_per_block_bytes);
  const SmTileShape3D gray_scott = sm_tile_shape_3d(3, 1, 0, 8, 0, 0, 2, 1);  // two fields of one level
  EXPECT_EQ(gray_scott.queue_planes, 2);
  EXPECT_EQ(gray_scott.smem_bytes, 160128);
  // One field of one level: the single-field shape (64 x 32 tile where its window fits).
  EXPECT_EQ(sm_tile_shape_3d(3, 1, 0, 8, 0, 0, 1, 1).smem_bytes, sm_tile_shape_3d(3, 1, 0, 8).smem_bytes);
  EXPECT_EQ(sm_tile_shape_3d(3, 1, 0, 8).cells_y, 4);
  // The model counts every input level read and every new level written: the wave's launch moves
  // more bytes than j3d7pt's on the same shape, so it is predicted slower.
  const StencilModel s7 = stencil_model<decltype(presets::j3d7pt())>(8);
  SmTileShape3D one = wave;
  one.state_levels = 1;
  EXPECT_GT(predict_sm_launch_seconds_3d(d, s7, 2560, 288, 384, wave),
            predict_sm_launch_seconds_3d(d, s7, 2560, 288, 384, one));
  // Several levels settle through the level pool: an odd launch count costs no copy back, so the
  // split of a state call weighs the launches alone (a single field's pays the copy).
  SmTileShape3D states[5];
  for (int t = 1; t <= 4; ++t) states[t] = sm_tile_shape_3d(t, 1, 0, 8, 0, 0, 1, 2, false);
  TuningKnobs four;
  four.temporal_depth = 4;
  const PlanSM3D p = choose_plan_3d_sm(d, s7, 2560, 288, 384, 4, four, states, 4);
  ASSERT_TRUE(p.valid);
  const double d4 = predict_sm_launch_seconds_3d(d, s7, 2560, 288, 384, states[4]);
  const double d2 = predict_sm_launch_seconds_3d(d, s7, 2560, 288, 384, states[2]);
  EXPECT_NEAR(p.predicted_seconds, std::min(d4, 2 * d2), 1e-12) << p.describe();
  EXPECT_EQ(p.launches, d4 <= 2 * d2 ? 1 : 2) << p.describe();
}

TEST(PerformanceModel3DSm, FieldQueuesAndRemaindersAtUnusableDepths) {
  const DeviceModel d = reference_h200_model();
  // A field read over the footprint: the 32 x 32 tile at every depth, and one queue of
  // P + T (R+1) + R + 1 planes of the padded tile beside the state's queues and ring.
  const long plane = 34L * 34;
  for (int t = 1; t <= 4; ++t) {
    const SmTileShape3D queued = sm_tile_shape_3d(t, 1, 0, 8, 0, 1);
    EXPECT_EQ(queued.tile_x, 32);
    EXPECT_EQ(queued.tile_y, 32);
    const long state = t * 2 * plane + (sm3d_prefetch + 1) * 2L * sm3d_threads;
    EXPECT_EQ(queued.smem_bytes, (state + sm3d_field_queue_planes(t, 1, sm3d_prefetch) * plane) * 8) << t;
    EXPECT_EQ(sm3d_field_queue_planes(t, 1, sm3d_prefetch), (Sm3dFieldQueue<1, 1, sm3d_prefetch>::planes + 2 * (t - 1)));
  }
  // fp64, star-shaped state: depth 3 fits one block (207424 B, as measured), depth 4 does not.
  EXPECT_EQ(sm_tile_shape_3d(3, 1, 0, 8, 0, 1).smem_bytes, 207424);
  EXPECT_GT(sm_tile_shape_3d(4, 1, 0, 8, 0, 1).smem_bytes, d.smem_per_block_bytes);
  // A centre-only field in a per-thread ring: the 32 x 32 tile, P + T (R+1) planes of the
  // thread's own cells (no pads); fp64 radius 1 fits every depth up to 4 (a footprint queue
  // does not fit depth 4).
  for (int t = 1; t <= 4; ++t) {
    const SmTileShape3D ringed = sm_tile_shape_3d(t, 1, 0, 8, 0, 0, 1, 1, true, 1);
    EXPECT_EQ(ringed.tile_x, 32);
    EXPECT_EQ(ringed.tile_y, 32);
    const long state = t * 2 * plane + (sm3d_prefetch + 1) * 2L * sm3d_threads;
    EXPECT_EQ(sm3d_centre_ring_planes(t, 1, sm3d_prefetch), sm3d_prefetch + 2 * t);
    EXPECT_EQ(ringed.smem_bytes, (state + (sm3d_prefetch + 2L * t) * 2 * sm3d_threads) * 8) << t;
    EXPECT_LE(ringed.smem_bytes, d.smem_per_block_bytes) << t;
  }
  EXPECT_EQ((Sm3dCentreRing<4, 1, sm3d_prefetch>::planes), sm3d_centre_ring_planes(4, 1, sm3d_prefetch));
  // A depth the kernel cannot run (e.g. a field kernel that spills) is never launched: 7 steps at a
  // depth knob of 4 with depth 3 unusable split into usable depths at or below the knob.
  SmTileShape3D shapes[5];
  for (int t = 1; t <= 4; ++t) shapes[t] = sm_tile_shape_3d(t, 1, 0, 8);
  shapes[3].smem_bytes = 0;
  TuningKnobs four;
  four.temporal_depth = 4;
  const StencilModel s7 = stencil_model<decltype(presets::j3d7pt())>(8);
  const PlanSM3D p = choose_plan_3d_sm(d, s7, 2560, 288, 384, 7, four, shapes, 4);
  ASSERT_TRUE(p.valid);
  EXPECT_LE(p.depth, 4);  // the knob bounds every launch (2 + 2 + 2 + 1 here)
  EXPECT_EQ(p.launches, static_cast<int>(p.launch_depths.size()));
  int covered = 0;
  for (int t : p.launch_depths) {
    EXPECT_TRUE(t >= 1 && t <= 4 && t != 3) << p.describe();
    covered += t;
  }
  EXPECT_EQ(covered, 7) << p.describe();
  // 4 + 2 + 1 leaves the result in scratch; a fourth short launch costs less than the copy back.
  EXPECT_EQ(p.launches % 2, 0) << p.describe();
  // Only depth 1 usable: seven launches of it, whatever the knob.
  shapes[2].smem_bytes = shapes[4].smem_bytes = 0;
  const PlanSM3D q = choose_plan_3d_sm(d, s7, 2560, 288, 384, 7, four, shapes, 4);
  ASSERT_TRUE(q.valid);
  EXPECT_EQ(q.depth, 1);
  EXPECT_EQ(q.launches, 7);
}

// The steps split into launches of the main depth and a short tail: every split covers the steps
// with usable depths (at or below a forced depth), and an odd count, which leaves a (u, scratch)
// call's result in scratch for a copy back, gives way where an even one is predicted cheaper.
TEST(PerformanceModel3DSm, LaunchSplitCoversTheStepsAndPrefersAnEvenCountWhereCheaper) {
  for (TuningKnobs knobs : {TuningKnobs{}, [] { TuningKnobs k; k.temporal_depth = 3; return k; }()}) {
    for (int steps = 1; steps <= 41; ++steps) {
      const PlanSM3D p = sm_plan(presets::j3d7pt(), steps, knobs);
      ASSERT_TRUE(p.valid) << steps;
      int covered = 0;
      for (int t : p.launch_depths) {
        EXPECT_TRUE(t >= 1 && t <= sm3d_max_depth(1)) << p.describe();
        if (knobs.temporal_depth > 0) EXPECT_LE(t, knobs.temporal_depth) << p.describe();
        covered += t;
      }
      EXPECT_EQ(covered, steps) << p.describe();
      EXPECT_EQ(p.launches, static_cast<int>(p.launch_depths.size()));
    }
  }
  // One launch of depth 4 and its copy back (the field read and written once more) against two of
  // depth 2: the model's counts, the same ones it plans with.
  TuningKnobs four;
  four.temporal_depth = 4;
  const PlanSM3D single = sm_plan(presets::j3d7pt(), 4, four);
  ASSERT_TRUE(single.valid);
  const DeviceModel d = reference_h200_model();
  const StencilModel s7 = stencil_model<decltype(presets::j3d7pt())>(8);
  const double copy_back = 2.0 * 2560 * 288 * 384 * 8 / (d.dram_bandwidth_gbs * 1e9);
  const double d4 = predict_sm_launch_seconds_3d(d, s7, 2560, 288, 384, sm_tile_shape_3d(4, 1, 0, 8));
  const double d2 = predict_sm_launch_seconds_3d(d, s7, 2560, 288, 384, sm_tile_shape_3d(2, 1, 0, 8));
  EXPECT_EQ(single.launches, 2 * d2 < d4 + copy_back ? 2 : 1) << single.describe();
  EXPECT_NEAR(single.predicted_seconds, std::min(2 * d2, d4 + copy_back), 1e-12) << single.describe();
  // A DoubleBuffer or State call takes the result in either buffer: nothing to copy back, so
  // every step count keeps the greedy split (full launches of the main depth, then the
  // remainder), and the single launch stays one whichever count the copy back would have chosen.
  SmTileShape3D shapes[5];
  for (int t = 1; t <= 4; ++t) shapes[t] = sm_tile_shape_3d(t, 1, 0, 8);
  const PlanSM3D either = choose_plan_3d_sm(d, s7, 2560, 288, 384, 4, four, shapes, 4, true);
  ASSERT_TRUE(either.valid);
  EXPECT_EQ(either.launches, 2 * d2 < d4 ? 2 : 1) << either.describe();
  EXPECT_NEAR(either.predicted_seconds, std::min(2 * d2, d4), 1e-12) << either.describe();
  for (int steps = 1; steps <= 41; ++steps) {
    const PlanSM3D into_u = choose_plan_3d_sm(d, s7, 2560, 288, 384, steps, four, shapes, 4);
    const PlanSM3D free = choose_plan_3d_sm(d, s7, 2560, 288, 384, steps, four, shapes, 4, true);
    ASSERT_TRUE(into_u.valid && free.valid) << steps;
    EXPECT_LE(free.predicted_seconds, into_u.predicted_seconds) << steps;
    if (into_u.launches % 2 == 1) {  // an odd split pays the copy back only where u must hold the result
      EXPECT_LT(free.predicted_seconds, into_u.predicted_seconds) << steps;
    }
  }
  // The generic path's odd step count leaves its result in scratch as well.
  EXPECT_NEAR(predict_generic_seconds_3d(d, s7, 2560, 288, 384, 5),
              predict_generic_seconds_3d(d, s7, 2560, 288, 384, 5, true) + copy_back, 1e-12);
  EXPECT_EQ(predict_generic_seconds_3d(d, s7, 2560, 288, 384, 4),
            predict_generic_seconds_3d(d, s7, 2560, 288, 384, 4, true));
}

// Backend::automatic also times the next usable depth above the model's choice: it is the first
// usable depth above the plan's, never above the call's steps, and none where the depth is forced.
TEST(PerformanceModel3DSm, DeeperDepthIsTheNextUsableOneAboveAFreeChoice) {
  const DeviceModel d = reference_h200_model();
  const StencilModel s7 = stencil_model<decltype(presets::j3d7pt())>(8);
  int named = 0;
  for (int unusable : {0, 3}) {  // every depth usable, or depth 3 not (e.g. it spills)
    SmTileShape3D shapes[5];
    for (int t = 1; t <= 4; ++t) shapes[t] = sm_tile_shape_3d(t, 1, 0, 8);
    if (unusable > 0) shapes[unusable].smem_bytes = 0;
    for (long n : {64L, 128L, 256L}) {
      for (int steps : {1, 2, 3, 5, 100}) {
        const PlanSM3D p = choose_plan_3d_sm(d, s7, n, n, n, steps, TuningKnobs{}, shapes, 4);
        ASSERT_TRUE(p.valid);
        int expected = 0;
        for (int t = p.depth + 1; t <= std::min(4, steps) && expected == 0; ++t)
          if (t != unusable) expected = t;
        EXPECT_EQ(p.deeper_depth, expected) << n << " " << steps << ": " << p.describe();
        named += p.deeper_depth > 0 ? 1 : 0;
        TuningKnobs forced;
        forced.temporal_depth = p.depth;
        EXPECT_EQ(choose_plan_3d_sm(d, s7, n, n, n, steps, forced, shapes, 4).deeper_depth, 0);
      }
    }
  }
  EXPECT_GT(named, 0);  // (the H200 model: 256^3 at 100 steps runs depth 3, 64^3 at 3 steps depth 2)
}

TEST(PerformanceModel3DSm, DepthStepsAndTinyDomains) {
  const PlanSM3D p3 = sm_plan(presets::j3d7pt(), 3);
  ASSERT_TRUE(p3.valid);
  EXPECT_LE(p3.depth, 3);
  const PlanSM3D p = sm_plan(presets::j3d7pt(), 1001);
  EXPECT_GE(p.launches, (1001 + p.depth - 1) / p.depth);
  EXPECT_LE(p.launches, (1001 + p.depth - 1) / p.depth + 3);
  TuningKnobs k;
  k.temporal_depth = 9;  // beyond the compiled depths: clamped
  EXPECT_EQ(sm_plan(presets::j3d7pt(), 100, k).depth, sm3d_max_depth(1));
  EXPECT_EQ(sm_plan(presets::j3d13pt(), 100, k).depth, sm3d_max_depth(2));
  const DeviceModel d = reference_h200_model();
  const StencilModel s13 = stencil_model<decltype(presets::j3d13pt())>(8);
  EXPECT_TRUE(choose_plan_3d_sm(d, s13, 5, 5, 5, 7).valid);
  EXPECT_FALSE(choose_plan_3d_sm(d, s13, 4, 5, 5, 7).valid);
  EXPECT_FALSE(p.describe().empty());
}

}  // namespace
