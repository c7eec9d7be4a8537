// The device-tiling model (performance_model_device_tiling.hpp) on the
// reference H200: plans that fit the hardware, depth knobs, domains that do
// not fit on chip, and the trade-off between exchanges and redundant halo work.
#include <ebisu_kokkos/impl/performance_model_3d.hpp>
#include <ebisu_kokkos/impl/performance_model_device_tiling.hpp>
#include <ebisu_kokkos/presets.hpp>

#include <gtest/gtest.h>

#include <cstdlib>

namespace {

using namespace EbisuKokkos;
using namespace EbisuKokkos::Impl;

template <class Stencil>
PlanDT plan(Stencil, long n0, long n1, long n2, int steps, int depth = 0, int scalar_bytes = 8,
            const KernelLimitsDT& lim = KernelLimitsDT{}) {
  const long n[3] = {n0, n1, n2};
  TuningKnobs knobs;
  knobs.temporal_depth = depth;
  return choose_plan_device_tiling(reference_h200_model(), stencil_model<Stencil>(scalar_bytes), n, steps, knobs,
                                   lim);
}

void expect_consistent(const PlanDT& p, const long (&n)[3], int radius, bool has_mid) {
  const DeviceModel d = reference_h200_model();
  const KernelLimitsDT lim;
  ASSERT_TRUE(p.valid) << p.why_not;
  EXPECT_LE(p.blocks, d.sm_count);
  EXPECT_EQ(p.blocks, p.tiles[0] * p.tiles[1] * p.tiles[2]);
  EXPECT_LE(p.smem_bytes, d.smem_per_block_bytes);
  EXPECT_LE(p.threads, lim.max_threads);
  EXPECT_EQ(p.threads % 32, 0);
  EXPECT_LE(p.threads, ((static_cast<long>(p.pencils) * p.chunks + 31) / 32) * 32);
  EXPECT_GE(p.chunk_len, 1);
  for (int a = 0; a < 3; ++a) {
    EXPECT_GE(static_cast<long>(p.own[a]) * p.tiles[a], n[a]) << a;          // every cell owned
    EXPECT_LT(static_cast<long>(p.own[a]) * (p.tiles[a] - 1), n[a]) << a;    // no empty block
    EXPECT_EQ(p.local[a], p.own[a] + 2 * p.halo[a]) << a;
    EXPECT_EQ(p.halo[a], a == 1 && !has_mid ? 0 : p.depth * radius) << a;
  }
  EXPECT_GE(static_cast<long>(p.chunks) * p.chunk_len, p.local[0] - 2 * radius);  // every row computed
  EXPECT_FALSE(p.describe().empty());
}

TEST(PerformanceModelDeviceTiling, SmallDomainsFitAndUseManyBlocks) {
  const long n2[3] = {256, 1, 256};
  const PlanDT p = plan(presets::j2d5pt(), 256, 1, 256, 10000);
  expect_consistent(p, n2, 1, false);
  EXPECT_GE(p.blocks, 32) << p.describe();  // spread over the GPU, not one SM
  EXPECT_GT(p.depth, 1) << "a barrier per step caps 256^2 near 67 GCells/s: exchange less often";
  EXPECT_GT(p.predicted_gcells_per_s, 50);  // per-step launches cap it near 19, a CUDA graph near 52

  const long n3[3] = {96, 96, 96};
  const PlanDT q = plan(presets::j3d7pt(), 96, 96, 96, 2000);
  expect_consistent(q, n3, 1, true);
  const long m2[3] = {1024, 1, 1024};
  expect_consistent(plan(presets::j2d25pt(), 1024, 1, 1024, 2000), m2, 2, false);
}

TEST(PerformanceModelDeviceTiling, DomainsLargerThanTheChipDoNotFit) {
  // 4096^2 doubles: 128 MB against ~30 MB of shared memory.
  const PlanDT p = plan(presets::j2d5pt(), 4096, 1, 4096, 100);
  EXPECT_FALSE(p.valid);
  EXPECT_FALSE(p.why_not.empty());
  EXPECT_FALSE(plan(presets::j3d7pt(), 512, 512, 512, 100).valid);
  // The tile is kept twice: 1024^2 doubles (2 x 8 MB) fit, 1536^2 (2 x 18 MB) do not.
  EXPECT_TRUE(plan(presets::j2d5pt(), 1024, 1, 1024, 100).valid);
  EXPECT_FALSE(plan(presets::j2d5pt(), 1536, 1, 1536, 100).valid);
}

TEST(PerformanceModelDeviceTiling, DepthKnobIsHonouredAndDeeperMeansMoreRedundancy) {
  const long n[3] = {512, 1, 512};
  const PlanDT d1 = plan(presets::j2d5pt(), 512, 1, 512, 1000, 1);
  const PlanDT d8 = plan(presets::j2d5pt(), 512, 1, 512, 1000, 8);
  expect_consistent(d1, n, 1, false);
  expect_consistent(d8, n, 1, false);
  EXPECT_EQ(d1.depth, 1);
  EXPECT_EQ(d8.depth, 8);
  EXPECT_GT(d8.redundancy, d1.redundancy);
  // A depth above the step count is clamped to it.
  EXPECT_EQ(plan(presets::j2d5pt(), 512, 1, 512, 3, 8).depth, 3);
  // Radius 2 doubles the halo of the same depth.
  const PlanDT r2 = plan(presets::j2d9pt(), 512, 1, 512, 1000, 4);
  ASSERT_TRUE(r2.valid);
  EXPECT_EQ(r2.halo[0], 8);
}

TEST(PerformanceModelDeviceTiling, RunsFillTheThreadsInWholeGroupsAndStayShort) {
  // A kernel thread computes its runs one group of cells after the other and
  // a step waits for the longest chain: runs of at most 12 cells (1024^2 in
  // runs of 24 measured 365 GCells/s, in runs of 12 462-466), as many as the
  // block's threads take where runs are short anyway (a 32^3 tile in two
  // runs of 5 per column ran 1.4x one run of 10), rounded up to whole groups
  // of 4 (j2d5pt 384^2 in runs of 6 130 GCells/s, of 8 149; groups of 2 gain
  // nothing from it); never more runs per thread than the kernel keeps
  // (perf-notes-device-tiling.md v11, v12).
  auto check = [&](const PlanDT& p, const long (&n)[3], int radius, bool has_mid, const KernelLimitsDT& lim) {
    expect_consistent(p, n, radius, has_mid);
    const int rows = p.local[0] - 2 * radius;
    const long items = static_cast<long>(p.pencils) * p.chunks;
    const int g = lim.group_cells;
    EXPECT_LE(items, static_cast<long>(KernelLimitsDT::kMaxRunsPerThread) * p.threads) << p.describe();
    EXPECT_LE(p.chunk_len, std::max(12, 2 * radius + 2)) << p.describe();
    EXPECT_EQ(p.chunks, (rows + p.chunk_len - 1) / p.chunk_len) << p.describe();
    // No longer than the threads need: the shortest run that fills them
    // (down to 2R + 2 cells), rounded up to whole groups of 4.
    const long fill = std::max(1L, std::min<long>(std::max(1, rows / (2 * radius + 2)),
                                                  (lim.max_threads + p.pencils - 1) / p.pencils));
    const long runs = (rows + fill - 1) / fill > 12 ? (rows + 11) / 12 : fill;  // split evenly, <= 12 cells
    const long shortest = (rows + runs - 1) / runs;
    if (g >= 4) {
      if (p.chunk_len > g) EXPECT_EQ(p.chunk_len % g, 0) << "runs of whole groups: " << p.describe();
      EXPECT_LT(p.chunk_len, std::max<long>(shortest, g) + g) << p.describe();
    } else {
      EXPECT_EQ(p.chunk_len, shortest) << p.describe();
    }
  };
  KernelLimitsDT groups_of_2;
  groups_of_2.group_cells = 2;
  for (const KernelLimitsDT& lim : {KernelLimitsDT{}, groups_of_2}) {
    for (long e : {256L, 384L, 512L, 768L, 1024L}) {
      const long n[3] = {e, 1, e};
      check(plan(presets::j2d5pt(), e, 1, e, 4000, 0, 8, lim), n, 1, false, lim);
      check(plan(presets::j2d25pt(), e, 1, e, 4000, 0, 8, lim), n, 2, false, lim);
    }
    for (long e : {32L, 48L, 64L, 96L}) {
      const long n[3] = {e, e, e};
      check(plan(presets::j3d7pt(), e, e, e, 2000, 0, 8, lim), n, 1, true, lim);
    }
  }
  // 384^2: its runs of 6 (a group and two single cells) become runs of 8.
  const PlanDT q = plan(presets::j2d5pt(), 384, 1, 384, 4000, 12);
  EXPECT_EQ(q.chunk_len, 8) << q.describe();
  // 1024^2 at depth 10, the plan that once ran 540 runs of 24 cells on 512 threads.
  const long n[3] = {1024, 1, 1024};
  const PlanDT p = plan(presets::j2d5pt(), 1024, 1, 1024, 3840, 10);
  check(p, n, 1, false, KernelLimitsDT{});
  EXPECT_LE(p.chunk_len, 12) << p.describe();
}

TEST(PerformanceModelDeviceTiling, ExchangeListsTakeOnlyTheSpareSharedMemory) {
  // The (tile, global) offsets of the shell and of the halo cells beyond the
  // registers live in the shared memory the tiles leave free: as many as the
  // exchange moves where they fit, never more than the block can have.
  const DeviceModel d = reference_h200_model();
  const KernelLimitsDT lim;
  auto tiles_bytes = [](const PlanDT& p) {
    return 2L * p.local[0] * p.local[1] * p.local[2] * 8;  // two copies of one fp64 field
  };
  const PlanDT small = plan(presets::j3d7pt(), 64, 64, 64, 240, 3);
  ASSERT_TRUE(small.valid) << small.why_not;
  long owned = 1, inner = 1, local = 1;
  for (int a = 0; a < 3; ++a) {
    owned *= small.own[a];
    inner *= std::max(0, small.own[a] - 2 * small.halo[a]);
    local *= small.local[a];
  }
  const long wanted = (owned - inner) + std::max(0L, local - owned - lim.halo_cells_in_registers * small.threads);
  EXPECT_EQ(small.list_cells, wanted) << small.describe();  // 64^3 in blocks of 8 x 16 x 16: all of it fits
  EXPECT_EQ(small.smem_bytes, tiles_bytes(small) + 8L * small.list_cells);
  for (long e : {256L, 512L, 1024L}) {
    const PlanDT p = plan(presets::j2d5pt(), e, 1, e, 4000);
    ASSERT_TRUE(p.valid) << p.why_not;
    EXPECT_GE(p.list_cells, 0);
    EXPECT_EQ(p.smem_bytes, tiles_bytes(p) + 8L * p.list_cells) << p.describe();
    EXPECT_LE(p.smem_bytes, d.smem_per_block_bytes) << p.describe();
  }
  KernelLimitsDT without = lim;
  without.exchange_lists = false;
  const PlanDT none = plan(presets::j3d7pt(), 64, 64, 64, 240, 3, 8, without);
  EXPECT_EQ(none.list_cells, 0);
  EXPECT_EQ(none.smem_bytes, tiles_bytes(none));
}

TEST(PerformanceModelDeviceTiling, TinyDomainsStillPlan) {
  // Smaller than one tile of any reasonable shape, odd, and radius 2 on a 5x5.
  const long a[3] = {3, 1, 3};
  expect_consistent(plan(presets::j2d5pt(), 3, 1, 3, 7), a, 1, false);
  const long b[3] = {5, 1, 5};
  expect_consistent(plan(presets::j2d9pt(), 5, 1, 5, 7), b, 2, false);
  const long c[3] = {3, 3, 3};
  expect_consistent(plan(presets::j3d7pt(), 3, 3, 3, 1), c, 1, true);
}

}  // namespace

namespace {

// The generic path's model: a graph-replayed loop (long calls) is cheaper per
// step than ordinary dispatches on launch-bound domains, and no cheaper than
// its memory time on large ones.
// Several state fields / levels (a leapfrog wave: 3 tiles, 2 exchanged, 2
// barriers per exchange): more shared memory and a dearer exchange for the
// same tiling, and a domain that fits once no longer fits three times.
TEST(PerformanceModelDeviceTiling, SeveralStateTilesCostSharedMemoryAndExchanges) {
  const DeviceModel dev = reference_h200_model();
  const StencilModel s = stencil_model<decltype(presets::j2d5pt())>(8);
  const long n[3] = {512, 1, 512};
  const int tiles[3] = {11, 1, 12};
  KernelLimitsDT one, wave;
  wave.state_tiles = 3;
  wave.exchanged_tiles = 2;
  wave.grid_syncs_per_exchange = 2;
  const PlanDT a = evaluate_plan_device_tiling(dev, s, n, 1000, 4, tiles, one);
  const PlanDT b = evaluate_plan_device_tiling(dev, s, n, 1000, 4, tiles, wave);
  ASSERT_TRUE(a.valid) << a.why_not;
  ASSERT_TRUE(b.valid) << b.why_not;
  EXPECT_EQ((b.smem_bytes - 8L * b.list_cells) * 2, (a.smem_bytes - 8L * a.list_cells) * 3);  // tiles (less the lists)
  EXPECT_GT(b.t_exchange_s, 1.9 * a.t_exchange_s);
  EXPECT_GT(b.t_edges_s, a.t_edges_s);
  EXPECT_DOUBLE_EQ(b.t_step_s, a.t_step_s);  // the step's cost comes from smem_accesses_per_cell
  EXPECT_GT(b.predicted_seconds, a.predicted_seconds);

  const long big[3] = {1300, 1, 1300};  // 13.5 MB per tile set: fits twice in 132 x 227 KB, not three times
  TuningKnobs knobs;
  EXPECT_TRUE(choose_plan_device_tiling(dev, s, big, 1000, knobs, one).valid);
  EXPECT_FALSE(choose_plan_device_tiling(dev, s, big, 1000, knobs, wave).valid);
}

TEST(PerformanceModelGeneric, GraphReplayLowersTheLaunchFloorOnly) {
  const DeviceModel d = reference_h200_model();
  const auto s2 = stencil_model<decltype(presets::j2d5pt())>(8);
  const int few = kGenericGraphMinSteps - 2, many = kGenericGraphMinSteps;
  const double per_step_few = predict_generic_seconds_2d(d, s2, 256, 256, few) / few;
  const double per_step_many = predict_generic_seconds_2d(d, s2, 256, 256, many) / many;
  EXPECT_GT(per_step_few, 3.5e-6);   // dispatch-bound
  EXPECT_LT(per_step_many, 2.5e-6);  // a graph node
  const double big_few = predict_generic_seconds_2d(d, s2, 8192, 8192, few) / few;
  const double big_many = predict_generic_seconds_2d(d, s2, 8192, 8192, many) / many;
  const double memory = 2.0 * 8 * 8190.0 * 8190.0 / (d.dram_bandwidth_gbs * 1e9);
  EXPECT_GT(big_many, memory);
  EXPECT_NEAR(big_many / big_few, 1.0, 0.05);
  const auto s3 = stencil_model<decltype(presets::j3d7pt())>(8);
  EXPECT_LT(predict_generic_seconds_3d(d, s3, 32, 32, 32, many) / many,
            predict_generic_seconds_3d(d, s3, 32, 32, 32, few) / few);
}

// Kernels that keep each thread's runs in registers (2-D stars): a plan keeps
// them where a thread has at most kKeptRuns runs of a compiled length, saves
// the centre column's load per cell, and, with no halo offsets in registers,
// lists every halo cell in shared memory.
TEST(PerformanceModelDeviceTiling, KeptRunsOnlyWhereTheKernelHasThem) {
  KernelLimitsDT keeps;
  keeps.smem_accesses_per_cell = 4;  // j2d5pt: two side columns, the centre's newest value, the store
  keeps.keeps_runs = true;
  KernelLimitsDT streams = keeps;
  streams.keeps_runs = false;
  for (const long n : {256L, 512L, 1000L}) {
    const PlanDT k = plan(presets::j2d5pt(), n, 1, n, 4000, 10, 8, keeps);
    const PlanDT s = plan(presets::j2d5pt(), n, 1, n, 4000, 10, 8, streams);
    const long ext[3] = {n, 1, n};
    expect_consistent(k, ext, 1, false);
    EXPECT_EQ(s.kept_run_cells, 0);
    const long items = static_cast<long>(k.pencils) * k.chunks;
    const bool can_keep = KernelLimitsDT::keeps_runs_of(k.chunk_len) &&
                          items <= static_cast<long>(KernelLimitsDT::kKeptRuns) * k.threads;
    EXPECT_EQ(k.kept_run_cells, can_keep ? k.chunk_len : 0) << k.describe();
    if (k.kept_run_cells > 0 && k.tiles[0] == s.tiles[0] && k.tiles[2] == s.tiles[2]) {
      EXPECT_LT(k.t_step_s, s.t_step_s) << k.describe();  // one shared-memory access fewer per cell
      EXPECT_GE(k.list_cells, s.list_cells) << k.describe();
      EXPECT_NE(k.describe().find("runs kept in registers"), std::string::npos);
      // Two tile copies, each with the padding rows a column's last run may read past it.
      EXPECT_GE(k.smem_bytes,
                2L * (k.local[0] + KernelLimitsDT::kKeptRunPadRows) * k.local[1] * k.local[2] * 8) << k.describe();
    }
  }
  // Runs of 8 (256^2) and of 12 (1000^2, two runs per thread) both occur.
  EXPECT_EQ(plan(presets::j2d5pt(), 256, 1, 256, 4000, 12, 8, keeps).kept_run_cells, 8);
  const PlanDT two = plan(presets::j2d5pt(), 1000, 1, 1000, 4000, 10, 8, keeps);
  EXPECT_EQ(two.kept_run_cells, 12) << two.describe();
  EXPECT_GT(static_cast<long>(two.pencils) * two.chunks, two.threads) << two.describe();
  // A field tile beside the two copies leaves the lists too little room for
  // every halo cell (heat2d-var 1024^2, depth 4): the runs are streamed, with
  // halo offsets in registers.
  KernelLimitsDT with_field = keeps;
  with_field.field_tiles = 1;
  const PlanDT full = plan(presets::j2d5pt(), 1024, 1, 1024, 4000, 4, 8, with_field);
  ASSERT_TRUE(full.valid) << full.why_not;
  EXPECT_EQ(full.chunk_len, 12) << full.describe();
  EXPECT_EQ(full.kept_run_cells, 0) << full.describe();
  // More runs than a thread can keep: streamed as before.
  const PlanDT many = plan(presets::j2d5pt(), 1500, 1, 1500, 4000, 10, 8, keeps);
  if (many.valid) {
    EXPECT_GT(static_cast<long>(many.pencils) * many.chunks, KernelLimitsDT::kKeptRuns * many.threads);
    EXPECT_EQ(many.kept_run_cells, 0) << many.describe();
  }
}

TEST(PerformanceModelDeviceTiling, ShallowerDepthsForTheMeasuredChoice) {
  // The searched depths: 1-6, 8, 10, 12. Where the model chose the depth it
  // names the one just below and the one nearest two thirds of it below that.
  const int searched[] = {1, 2, 3, 4, 5, 6, 8, 10, 12};
  auto below = [&](int d) {
    int b = 0;
    for (int s : searched)
      if (s < d) b = s;
    return b;
  };
  int named = 0;
  for (long n : {128L, 256L, 512L, 768L, 1024L}) {
    for (int steps : {2, 5, 3000}) {
      const PlanDT p = plan(presets::j2d5pt(), n, 1, n, steps);
      ASSERT_TRUE(p.valid) << n << " " << steps;
      EXPECT_EQ(p.shallower_depths[0], below(p.depth)) << p.describe();
      if (p.shallower_depths[0] > 1) {
        const int second = p.shallower_depths[1];
        EXPECT_LT(second, p.shallower_depths[0]) << p.describe();
        EXPECT_GE(second, 1) << p.describe();
        // No searched depth below the first is nearer two thirds of the depth.
        for (int s : searched)
          if (s < p.shallower_depths[0])
            EXPECT_LE(std::abs(3 * second - 2 * p.depth), std::abs(3 * s - 2 * p.depth)) << s << " " << p.describe();
      } else {
        EXPECT_EQ(p.shallower_depths[1], 0) << p.describe();
      }
      named += p.shallower_depths[0] > 0 ? 1 : 0;
    }
  }
  EXPECT_GT(named, 5);
  // The two-thirds rule on the model's usual depths.
  const PlanDT d12 = plan(presets::j2d5pt(), 512, 1, 512, 12000);
  ASSERT_EQ(d12.depth, 12) << d12.describe();
  EXPECT_EQ(d12.shallower_depths[0], 10);
  EXPECT_EQ(d12.shallower_depths[1], 8);
  // A forced depth is kept as asked: nothing to time beside it.
  const PlanDT forced = plan(presets::j2d5pt(), 512, 1, 512, 1000, 8);
  EXPECT_EQ(forced.shallower_depths[0], 0);
  EXPECT_EQ(forced.shallower_depths[1], 0);
  // One step allows depth 1 only.
  const PlanDT one = plan(presets::j2d5pt(), 512, 1, 512, 1);
  EXPECT_EQ(one.depth, 1);
  EXPECT_EQ(one.shallower_depths[0], 0);
}

}  // namespace
