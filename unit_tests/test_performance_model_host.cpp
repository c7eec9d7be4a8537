// The host temporal-blocking plan (performance_model_host.hpp): rings that fit
// L2, enough work items for every thread, and the cases where the plain path
// is kept (fields that fit in cache, single steps).
#include <ebisu_kokkos/impl/boundary.hpp>
#include <ebisu_kokkos/impl/performance_model_host.hpp>
#include <ebisu_kokkos/presets.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using namespace EbisuKokkos;
using namespace EbisuKokkos::Impl;

HostMachine xeon(int threads) {
  HostMachine m;
  m.threads = threads;
  m.l2_bytes = 1 << 20;
  m.l3_bytes = 32 << 20;
  return m;
}
// The 16-core Xeon of the GPU machines: 2 MB of L2 per core.
HostMachine xeon_2mb_l2(int threads) {
  HostMachine m = xeon(threads);
  m.l2_bytes = 2 << 20;
  return m;
}

template <class Stencil>
PlanHost plan(Stencil, const HostMachine& m, long n0, long n1, long n2, int steps, bool forced = false,
              TuningKnobs knobs = {}) {
  const long n[3] = {n0, n1, n2};
  return choose_plan_host(m, stencil_model<Stencil>(8), n, steps, knobs, forced);
}

void expect_covers(const PlanHost& p, long n0, long n1, long n2) {
  const long n[3] = {n0, n1, n2};
  for (int a = 0; a < 3; ++a) {
    EXPECT_GE(static_cast<long>(p.tile[a]) * p.items_per_axis[a], n[a]) << a;
    EXPECT_LT(static_cast<long>(p.tile[a]) * (p.items_per_axis[a] - 1), n[a]) << a;
  }
  EXPECT_EQ(p.items, p.items_per_axis[0] * p.items_per_axis[1] * p.items_per_axis[2]);
}

TEST(PerformanceModelHost, PaperSizesBlockDeepInL2WithWorkForEveryThread) {
  const HostMachine m = xeon(16);
  const PlanHost p = plan(presets::j2d5pt(), m, 8352, 1, 8352, 100);
  ASSERT_TRUE(p.blocked) << p.describe();
  expect_covers(p, 8352, 1, 8352);
  EXPECT_EQ(p.depth, 8);
  EXPECT_LE(p.ring_bytes, m.l2_bytes / 2);
  EXPECT_GE(p.items, 4 * m.threads);
  EXPECT_LT(p.redundancy, 1.2);

  const PlanHost q = plan(presets::j3d7pt(), m, 2560, 288, 384, 100);
  ASSERT_TRUE(q.blocked) << q.describe();
  expect_covers(q, 2560, 288, 384);
  EXPECT_GE(q.depth, 4);
  EXPECT_LE(q.ring_bytes, 3 * m.l2_bytes / 4);
  EXPECT_GE(q.items, m.threads);
  EXPECT_LT(q.redundancy, 1.5);
  EXPECT_LT(q.bytes_per_update, 16.0 / 3);
  // Radius 2 blocks shallower; on 2 MB of L2 (the 16-core Xeon's) so does a compute-heavy
  // box, whose redundant updates cost more than the memory traffic they save.
  EXPECT_LT(plan(presets::j3d13pt(), m, 2560, 288, 384, 100).depth, q.depth);
  const HostMachine big_l2 = xeon_2mb_l2(16);
  const PlanHost star = plan(presets::j3d7pt(), big_l2, 2560, 288, 384, 100);
  const PlanHost box = plan(presets::j3d27pt(), big_l2, 2560, 288, 384, 100);
  ASSERT_TRUE(star.blocked && box.blocked) << box.describe();
  EXPECT_LT(box.depth, star.depth) << box.describe() << "\n" << star.describe();
  EXPECT_LT(box.redundancy, star.redundancy);
}

// Stage k of a launch computes the owned box widened by (depth - k) R per side
// (the trapezoid), not the whole loaded box: the plan's redundancy counts that.
TEST(PerformanceModelHost, RedundancyCountsTheTrapezoid) {
  const HostMachine m = xeon_2mb_l2(16);
  TuningKnobs k;
  k.temporal_depth = 8;
  k.tile_height = 64;
  k.tile_width = 64;
  const PlanHost p = plan(presets::j3d7pt(), m, 384, 384, 384, 100, true, k);
  ASSERT_EQ(p.depth, 8);
  ASSERT_EQ(p.tile[1], 64);
  ASSERT_EQ(p.tile[2], 64);
  double cross = 0, run = 0;
  for (int stage = 1; stage <= 8; ++stage) {
    const double w = 64 + 2 * (8 - stage);
    cross += w * w / (64.0 * 64.0) / 8;
    run += std::min(p.tile[0] + 2.0 * (8 - stage), p.tile[0] + 16.0) / p.tile[0] / 8;
  }
  EXPECT_NEAR(p.redundancy, cross * run, 1e-9) << p.describe();
  // The loaded box (80 x 80 planes) is what each launch reads from memory.
  EXPECT_NEAR(p.loaded_per_owned, 80.0 * 80.0 / (64.0 * 64.0) * (p.tile[0] + 16.0) / p.tile[0], 1e-9);
  EXPECT_NEAR(p.bytes_per_update, (p.loaded_per_owned + 1.0) * 8.0 / 8, 1e-9);
  EXPECT_LT(p.redundancy, p.loaded_per_owned);
}

TEST(PerformanceModelHost, LinesBlockInL2Tiles) {
  const HostMachine m = xeon(16);
  const long n = 1L << 26;
  const PlanHost p = plan(presets::j1d3pt(), m, n, 1, 1, 100);
  ASSERT_TRUE(p.blocked) << p.describe();
  EXPECT_EQ(p.depth, 8);
  EXPECT_LE(p.ring_bytes, m.l2_bytes / 2);
  EXPECT_GE(p.items, 4 * m.threads);
  EXPECT_LT(p.redundancy, 1.01);
  expect_covers(p, n, 1, 1);
  EXPECT_FALSE(plan(presets::j1d5pt(), m, 1000, 1, 1, 100).blocked);  // fits in cache
}

TEST(PerformanceModelHost, KeepsThePlainPathWhereBlockingCannotPay) {
  const HostMachine m = xeon(2);
  // Two 256^2 fields (1 MB) fit in two 1 MB L2 caches.
  const PlanHost small = plan(presets::j2d5pt(), m, 256, 1, 256, 100);
  EXPECT_FALSE(small.blocked);
  EXPECT_NE(small.describe().find("L2"), std::string::npos) << small.describe();
  EXPECT_FALSE(plan(presets::j2d5pt(), m, 4096, 1, 4096, 1).blocked);  // one step
  // Backend::ebisu plans a blocked run anyway, even on a tiny domain.
  const PlanHost forced = plan(presets::j2d25pt(), m, 5, 1, 7, 3, true);
  EXPECT_TRUE(forced.blocked);
  EXPECT_EQ(forced.depth, 3);
  expect_covers(forced, 5, 1, 7);
}

// Which plans Backend::automatic may time against the plain path: those that
// only the rules of thumb (redundancy) decided, never those a hard limit
// rules out (a cache-resident field, one step, too few work items).
TEST(PerformanceModelHost, RulesOfThumbLeaveTheChoiceToATimingRun) {
  const HostMachine m = xeon_2mb_l2(16);
  // 128^3 j3d7pt on 16 threads of 2 MB, depth 8 with 16-row tiles: redundancy ~1.6
  // (over the rule's 1.5; such plans measured 1.7x the plain path on such a Xeon): not
  // blocked, timed. The model's own plan stays within 1.5 there.
  TuningKnobs narrow;
  narrow.temporal_depth = 8;
  narrow.tile_height = 16;
  const PlanHost mid = plan(presets::j3d7pt(), m, 128, 128, 128, 100, false, narrow);
  EXPECT_FALSE(mid.blocked) << mid.describe();
  EXPECT_TRUE(mid.worth_timing) << mid.describe();
  EXPECT_GT(mid.redundancy, 1.5);
  EXPECT_LE(mid.redundancy, 2.0);
  const PlanHost own = plan(presets::j3d7pt(), m, 128, 128, 128, 100);
  EXPECT_TRUE(own.blocked && own.worth_timing) << own.describe();
  EXPECT_LE(own.redundancy, 1.5);
  // Blocked by the model: also timed (a compute-bound box stencil may still lose).
  const PlanHost big = plan(presets::j3d27pt(), m, 256, 256, 256, 100);
  EXPECT_TRUE(big.blocked) << big.describe();
  EXPECT_TRUE(big.worth_timing);
  // Hard limits: never timed.
  EXPECT_FALSE(plan(presets::j3d7pt(), m, 64, 64, 64, 100).worth_timing);     // fits in the L2 caches
  EXPECT_FALSE(plan(presets::j3d7pt(), m, 256, 256, 256, 1).worth_timing);    // one step
  EXPECT_FALSE(plan(presets::j1d3pt(), m, 1000, 1, 1, 100).worth_timing);     // a line that fits in cache
  // Beyond L2 but within half of L3 (4 MB of 32 MB): the plain sweep runs from L3, so
  // the rules leave blocking to a timing run.
  const PlanHost l3 = plan(presets::j3d7pt(), xeon(2), 64, 64, 64, 100);
  EXPECT_FALSE(l3.blocked) << l3.describe();
  EXPECT_TRUE(l3.worth_timing) << l3.describe();
  EXPECT_NE(l3.describe().find("L3"), std::string::npos) << l3.describe();
  HostMachine small_l3 = xeon(2);
  small_l3.l3_bytes = 4 << 20;
  const PlanHost dram = plan(presets::j3d7pt(), small_l3, 64, 64, 64, 100);
  EXPECT_TRUE(dram.blocked && dram.worth_timing) << dram.describe();
  // Backend::ebisu runs its plan: nothing to time.
  EXPECT_FALSE(plan(presets::j3d7pt(), m, 128, 128, 128, 100, true).worth_timing);
}

TEST(PerformanceModelHost, KnobsFixDepthAndTile) {
  const HostMachine m = xeon(4);
  TuningKnobs k;
  k.temporal_depth = 3;
  k.tile_width = 300;
  k.tile_height = 10;  // rings of 10 planes x 16 x 306 cells: 391 KB, within half of L2
  const PlanHost p = plan(presets::j3d7pt(), m, 400, 100, 1000, 50, true, k);
  ASSERT_TRUE(p.blocked) << p.describe();
  EXPECT_EQ(p.depth, 3);
  EXPECT_EQ(p.tile[2], 300);
  EXPECT_EQ(p.tile[1], 10);
  expect_covers(p, 400, 100, 1000);
  k.threads = 64;
  EXPECT_NE(plan(presets::j3d7pt(), m, 400, 100, 1000, 50, true, k).describe().find("threads knob ignored"),
            std::string::npos);
}

TEST(PerformanceModelHost, PeriodicAndMirrorSidesWidenTheTilesThatReachThem) {
  const HostMachine m = xeon(2);
  const long n[3] = {64, 1, 64};
  const StencilModel s = stencil_model<decltype(presets::j2d5pt())>(8);
  TuningKnobs k;
  k.temporal_depth = 4;  // halo H = 4
  const PlanHost fixed = choose_plan_host(m, s, n, 8, k, true);
  BoundaryRules periodic;  // kernel axes: slow, middle, fast
  for (int a : {0, 2}) periodic.side[a][0] = periodic.side[a][1] = Boundary::periodic;
  const PlanHost wrapped = choose_plan_host(m, s, n, 8, k, true, periodic);
  ASSERT_TRUE(fixed.blocked && wrapped.blocked);
  EXPECT_EQ(fixed.tile[2], 64);
  EXPECT_EQ(wrapped.tile[2], 64);
  // One tile of the whole width: the fixed frame clips its halo, the periodic one wraps around (64 + 2 x 4).
  EXPECT_EQ(wrapped.ring_bytes * 64, fixed.ring_bytes * 72) << wrapped.describe();
  EXPECT_GT(wrapped.redundancy, fixed.redundancy);
  BoundaryRules mirror;
  mirror.side[2][0] = mirror.side[2][1] = Boundary::mirror;  // R = 1 ghost on each side
  EXPECT_EQ(choose_plan_host(m, s, n, 8, k, true, mirror).ring_bytes * 64, fixed.ring_bytes * 66);
  // The plan names the rules (set by the backend in View indices).
  PlanHost named = wrapped;
  named.boundaries = describe_boundaries(BoundaryRules{}, 2);
  EXPECT_EQ(named.boundaries, "");
  BoundaryRules view_rules;
  view_rules.side[1][0] = view_rules.side[1][1] = Boundary::periodic;
  view_rules.side[0][1] = Boundary::mirror;
  named.boundaries = describe_boundaries(view_rules, 2);
  EXPECT_EQ(named.boundaries, "mirror axis 0 high, periodic axis 1");
  EXPECT_NE(named.describe().find("periodic axis 1"), std::string::npos) << named.describe();
}

// Read-only fields: one ring each of (depth+1) R + 1 planes beside the
// state's rings (so tiles or depth shrink to stay in L2), read once per launch
// like the state; the plain path reads them every step.
TEST(PerformanceModelHost, ReadOnlyFieldsAddRingsAndTraffic) {
  const HostMachine m = xeon(2);
  const StencilModel s = stencil_model<decltype(presets::j2d5pt())>(8);
  const long n[3] = {2048, 1, 2048};
  TuningKnobs k;
  k.temporal_depth = 4;
  k.tile_width = 512;  // loaded width 512 + 2 x 4 (halo 4): 520 cells
  const PlanHost none = choose_plan_host(m, s, n, 32, k, false);
  const PlanHost two = choose_plan_host(m, s, n, 32, k, false, BoundaryRules{}, 2);
  ASSERT_TRUE(none.blocked && two.blocked) << two.describe();
  EXPECT_EQ(none.ring_bytes, (4 * 3 + 1) * 520 * 8);
  EXPECT_EQ(two.ring_bytes, (4 * 3 + 1 + 2 * (5 * 1 + 1)) * 520 * 8);
  EXPECT_EQ(two.field_rings, 2);
  EXPECT_NE(two.describe().find("(2 read-only field rings)"), std::string::npos) << two.describe();
  EXPECT_DOUBLE_EQ(none.plain_bytes_per_update, 16.0);
  EXPECT_DOUBLE_EQ(two.plain_bytes_per_update, 32.0);
  EXPECT_DOUBLE_EQ(two.bytes_per_update, (3.0 * two.loaded_per_owned + 1.0) * 8.0 / 4);
  // Without knobs the rings of many fields shrink the tile or the depth to stay within half of L2.
  const PlanHost free_none = choose_plan_host(m, s, n, 32, TuningKnobs{}, false);
  const PlanHost free_many = choose_plan_host(m, s, n, 32, TuningKnobs{}, false, BoundaryRules{}, 8);
  ASSERT_TRUE(free_none.blocked && free_many.blocked) << free_many.describe();
  EXPECT_LE(free_many.ring_bytes, m.l2_bytes / 2);
  EXPECT_LT(static_cast<long>(free_many.depth) * free_many.tile[2], static_cast<long>(free_none.depth) * free_none.tile[2]);
  // Fields count towards the data that fits in the L2 caches: 2 x 256^2 x 8 B
  // buffers fit two 1 MB L2s (nothing to time), with three fields more they do
  // not (they fit in L3: timed).
  const long mid[3] = {256, 1, 256};
  const PlanHost alone = choose_plan_host(m, s, mid, 32, TuningKnobs{}, false);
  EXPECT_FALSE(alone.blocked || alone.worth_timing) << alone.describe();
  const PlanHost three = choose_plan_host(m, s, mid, 32, TuningKnobs{}, false, BoundaryRules{}, 3);
  EXPECT_TRUE(three.worth_timing) << three.describe();
  EXPECT_NE(three.describe().find("L3"), std::string::npos) << three.describe();
  // 1-D: one more tile per field.
  const StencilModel line = stencil_model<decltype(presets::j1d3pt())>(8);
  const long n1[3] = {1L << 24, 1, 1};
  const PlanHost l0 = choose_plan_host(m, line, n1, 32, TuningKnobs{}, false);
  const PlanHost l1 = choose_plan_host(m, line, n1, 32, TuningKnobs{}, false, BoundaryRules{}, 1);
  ASSERT_TRUE(l0.blocked && l1.blocked);
  EXPECT_EQ(l1.ring_bytes % 3, 0);
  EXPECT_LE(l1.ring_bytes, m.l2_bytes / 2);
  EXPECT_EQ(l1.field_rings, 1);
}

// Several state fields and time levels: each field keeps a ring per input level and per stage of
// (levels + 1) R + 1 rows, reads every level and writes its new ones (ebisu_host.hpp).
TEST(PerformanceModelHost, StateFieldsAndLevelsAddRingsAndTraffic) {
  const HostMachine m = xeon(2);
  const StencilModel s = stencil_model<decltype(presets::j2d5pt())>(8);
  const long n[3] = {2048, 1, 2048};
  TuningKnobs k;
  k.temporal_depth = 4;
  k.tile_width = 512;  // loaded width 520 cells
  // The leapfrog wave: one field of two levels (rings of 3 R + 1 = 4 rows: input levels 0 and -1,
  // stages 1 to 3, and the output row); Gray-Scott: two fields of one level (2 R + 1 = 3 rows).
  const PlanHost wave = choose_plan_host(m, s, n, 32, k, false, BoundaryRules{}, 0, 1, 2);
  const PlanHost gray_scott = choose_plan_host(m, s, n, 32, k, false, BoundaryRules{}, 0, 2, 1);
  const PlanHost wave_fields = choose_plan_host(m, s, n, 32, k, false, BoundaryRules{}, 2, 1, 2);
  ASSERT_TRUE(wave.blocked && gray_scott.blocked && wave_fields.blocked) << wave.describe();
  EXPECT_EQ(wave.ring_bytes, (5 * 4 + 1) * 520 * 8);
  EXPECT_EQ(gray_scott.ring_bytes, 2 * (4 * 3 + 1) * 520 * 8);
  EXPECT_EQ(wave_fields.ring_bytes, (5 * 4 + 1 + 2 * (5 * 1 + 1)) * 520 * 8);
  // Plain: read both levels (both fields), write the new one (both): 24 and 32 B per update.
  EXPECT_DOUBLE_EQ(wave.plain_bytes_per_update, 24.0);
  EXPECT_DOUBLE_EQ(gray_scott.plain_bytes_per_update, 32.0);
  EXPECT_DOUBLE_EQ(wave_fields.plain_bytes_per_update, 40.0);
  // Blocked: the loaded cells of every level once per launch, the new levels' owned cells.
  EXPECT_DOUBLE_EQ(wave.bytes_per_update, (2.0 * wave.loaded_per_owned + 2.0) * 8.0 / 4);
  EXPECT_DOUBLE_EQ(gray_scott.bytes_per_update, (2.0 * gray_scott.loaded_per_owned + 2.0) * 8.0 / 4);
  // A launch of one step stores one level of the two.
  TuningKnobs one = k;
  one.temporal_depth = 1;
  const PlanHost wave1 = choose_plan_host(m, s, n, 32, one, true, BoundaryRules{}, 0, 1, 2);
  EXPECT_DOUBLE_EQ(wave1.bytes_per_update, (2.0 * wave1.loaded_per_owned + 1.0) * 8.0);
  // All the state's buffers count towards what fits in L2: a 256^2 leapfrog's three buffers
  // (1.5 MB) do not fit half of two 1 MB L2s, a single field's two do.
  const long mid[3] = {256, 1, 256};
  EXPECT_FALSE(choose_plan_host(m, s, mid, 32, TuningKnobs{}, false).worth_timing);
  EXPECT_TRUE(choose_plan_host(m, s, mid, 32, TuningKnobs{}, false, BoundaryRules{}, 0, 1, 2).worth_timing);
  // 1-D: a ring of levels + 1 tiles per field.
  const StencilModel line = stencil_model<decltype(presets::j1d3pt())>(8);
  const long n1[3] = {1L << 24, 1, 1};
  TuningKnobs lk;
  lk.tile_width = 4096;
  lk.temporal_depth = 8;
  const PlanHost l = choose_plan_host(m, line, n1, 32, lk, false, BoundaryRules{}, 0, 2, 2);
  ASSERT_TRUE(l.blocked) << l.describe();
  EXPECT_EQ(l.ring_bytes, 2 * 3 * (4096 + 16) * 8);
}

// At depth 1 blocking reads every loaded cell once per step: no traffic saved, the plain path is kept.
TEST(PerformanceModelHost, DepthOneSavesNoTraffic) {
  const HostMachine m = xeon(2);
  const StencilModel s = stencil_model<decltype(presets::j2d5pt())>(8);
  const long n[3] = {4096, 1, 4096};
  TuningKnobs k;
  k.temporal_depth = 1;
  const PlanHost p = choose_plan_host(m, s, n, 32, k, false, BoundaryRules{}, 1);
  EXPECT_FALSE(p.blocked) << p.describe();
  EXPECT_NE(p.describe().find("no memory traffic saved"), std::string::npos) << p.describe();
  EXPECT_TRUE(choose_plan_host(m, s, n, 32, k, true, BoundaryRules{}, 1).blocked);  // forced: still blocked
}

TEST(PerformanceModelHost, ReadsThisMachinesCaches) {
  const HostMachine m = host_machine(3);
  EXPECT_EQ(m.threads, 3);
  EXPECT_GT(m.l1_bytes, 0);
  EXPECT_GT(m.l2_bytes, 0);
  EXPECT_GT(m.l3_bytes, 0);
}

}  // namespace
