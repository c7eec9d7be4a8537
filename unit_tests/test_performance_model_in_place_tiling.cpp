// The in-place tiling model (performance_model_in_place_tiling.hpp) on
// the reference H200: which kernel (cells and columns per thread) a domain
// gets, the domains that cannot stay in registers and why, and the step
// time's terms.
#include <ebisu_kokkos/impl/performance_model_in_place_tiling.hpp>

#include <gtest/gtest.h>

namespace {

using namespace EbisuKokkos::Impl;

// The compiled kernels, one block per SM each (512 threads, up to 128
// registers): columns of 4, 16 and 32 cells, and for stars pairs of 16-cell columns.
std::vector<KernelLimitsIPT> kernels(int spill_of_32 = 0, bool pairs = false) {
  std::vector<KernelLimitsIPT> k;
  for (int p : {4, 16, 32, 16}) {
    KernelLimitsIPT l;
    l.cells_per_thread = p;
    l.columns_per_thread = k.size() == 3 ? 2 : 1;
    l.max_blocks = 132;
    l.local_bytes = p * l.columns_per_thread == 32 ? spill_of_32 : 0;
    if (l.columns_per_thread == 1 || pairs) k.push_back(l);
  }
  return k;
}
std::vector<KernelLimitsIPT> star_kernels() { return kernels(0, true); }

StencilShapeIPT j3d7pt() { return StencilShapeIPT{1, 8, 4, false, 7, 6}; }
StencilShapeIPT poisson() { return StencilShapeIPT{1, 8, 8, true, 19}; }

PlanIPT plan(const StencilShapeIPT& s, long n0, long n1, long n2, int steps = 1000,
            const std::vector<KernelLimitsIPT>& k = kernels()) {
  const long n[3] = {n0, n1, n2};
  return choose_plan_in_place_tiling(reference_h200_model(), s, n, steps, k);
}

// The kernel (P cells, C columns per thread) and the blocks along each axis.
void expect_tiling(const PlanIPT& p, int cells, int columns, int t0, int t1, int t2) {
  ASSERT_TRUE(p.valid) << p.why_not;
  EXPECT_EQ(p.cells_per_thread, cells);
  EXPECT_EQ(p.columns_per_thread, columns);
  EXPECT_EQ(p.tiles[0], t0);
  EXPECT_EQ(p.tiles[1], t1);
  EXPECT_EQ(p.tiles[2], t2);
  EXPECT_EQ(p.blocks, t0 * t1 * t2);
}

TEST(PerformanceModelInPlaceTiling, PicksTheKernelWhoseTilesFillTheGpu) {
  // (Single columns only: the kernels of a box-like stencil.)
  // 128^3: only 32 cells per thread keeps the tiles resident (4 x 8 x 4 = 128 blocks).
  const PlanIPT big = plan(j3d7pt(), 128, 128, 128);
  expect_tiling(big, 32, 1, 4, 8, 4);
  // The star's halo is its six faces: 2 x (16 x 32 + 32 x 32 + 32 x 16) cells, listed beside the tile.
  EXPECT_EQ(big.halo_cells, 2L * (16 * 32 + 32 * 32 + 32 * 16));
  EXPECT_TRUE(big.halo_list);
  EXPECT_EQ(big.smem_bytes, 34L * 18 * 34 * 8 + big.halo_cells * 8);
  // 64^3: 4 cells per thread gives 128 blocks; 16 would leave most SMs idle.
  expect_tiling(plan(j3d7pt(), 64, 64, 64), 4, 1, 16, 4, 2);
  // 96^3: 16 cells per thread (6 x 6 x 3 blocks); 4 would need 432.
  EXPECT_EQ(plan(j3d7pt(), 96, 96, 96).cells_per_thread, 16);
}

TEST(PerformanceModelInPlaceTiling, PairsOfColumnsWhereTheyCostFewerAccesses) {
  // A thread with two middle-adjacent columns reads each from registers where the
  // other needs it: j3d7pt 3 loads and a store per cell instead of 4 and a store.
  // Measured (H200, fp64, 2026-11-29): 128^3 pairs of 16 cells 304-315 GCells/s
  // against 286-293 with 32-cell columns, 112^3 214 against 196.
  const PlanIPT big = plan(j3d7pt(), 128, 128, 128, 1000, star_kernels());
  expect_tiling(big, 16, 2, 8, 4, 4);
  EXPECT_EQ(big.halo_cells, 2L * (32 * 32 + 16 * 32 + 16 * 32));
  EXPECT_EQ(big.smem_bytes, 18L * 34 * 34 * 8 + big.halo_cells * 8);
  EXPECT_NE(big.describe().find("512 threads of 2 x 16 cells"), std::string::npos) << big.describe();
  EXPECT_NEAR(big.t_step_s * 1e6, 6.42, 1.5);  // measured 6.2-6.4 us; the fit's worst point (22% fast)
  EXPECT_LT(big.t_step_s, plan(j3d7pt(), 128, 128, 128).t_step_s);
  // 112^3 has no room for 16-cell single columns (7 x 7 x 4 = 196 blocks): pairs.
  EXPECT_EQ(plan(j3d7pt(), 112, 112, 112, 1000, star_kernels()).columns_per_thread, 2);
  // 96^3: single 16-cell columns on 108 blocks beat pairs on 54 (measured 202 against 135).
  const PlanIPT mid = plan(j3d7pt(), 96, 96, 96, 1000, star_kernels());
  EXPECT_EQ(mid.columns_per_thread, 1);
  EXPECT_EQ(mid.cells_per_thread, 16);
  // 64^3 keeps 4-cell columns.
  EXPECT_EQ(plan(j3d7pt(), 64, 64, 64, 1000, star_kernels()).cells_per_thread, 4);
}

TEST(PerformanceModelInPlaceTiling, BlocksBeyondOnePerSmShareIt) {
  // fp32 16-cell kernels fit two blocks per SM: 110 x 65 x 100 as 7 x 5 x 4 = 140 blocks of 16 x 16 x 32
  // runs two blocks' work on 8 SMs each step, so pairs of columns on 7 x 3 x 4 = 84 blocks win.
  StencilShapeIPT f = j3d7pt();
  f.scalar_bytes = 4;
  std::vector<KernelLimitsIPT> k = star_kernels();
  k[0].max_blocks = k[1].max_blocks = 264;
  const long n[3] = {110, 65, 100};
  KernelLimitsIPT single = k[1];
  const PlanIPT shared_sms = evaluate_plan_in_place_tiling(reference_h200_model(), f, n, 10, single);
  ASSERT_TRUE(shared_sms.valid) << shared_sms.why_not;
  EXPECT_EQ(shared_sms.blocks, 140);
  single.max_blocks = 1000;
  const long fewer[3] = {110, 60, 100};  // 7 x 4 x 4 = 112 blocks: one per SM
  const PlanIPT one_each = evaluate_plan_in_place_tiling(reference_h200_model(), f, fewer, 10, single);
  const double fixed = 1.45e-6;
  EXPECT_NEAR((shared_sms.t_step_s - fixed) / (one_each.t_step_s - fixed), 2.0, 1e-9);
  const PlanIPT chosen = choose_plan_in_place_tiling(reference_h200_model(), f, n, 10, k);
  expect_tiling(chosen, 16, 2, 7, 3, 4);
}

TEST(PerformanceModelInPlaceTiling, StepTimeFollowsTheMeasuredTerms) {
  // Measured (H200, fp64, 2026-11-29): j3d7pt 128^3 7.08 us per step (the fit's worst point,
  // 18% fast), poisson 128^3 9.41 us, j3d7pt 64^3 2.12 us, j3d13pt 128^3 (pairs of 16-cell columns,
  // 3,136 of the 8,192 halo cells listed, the rest decoded) 10.67 us.
  const PlanIPT a = plan(j3d7pt(), 128, 128, 128), b = plan(poisson(), 128, 128, 128);
  EXPECT_NEAR(a.t_step_s * 1e6, 7.08, 1.3);
  EXPECT_NEAR(b.t_step_s * 1e6, 9.41, 0.5);
  EXPECT_NEAR(plan(j3d7pt(), 64, 64, 64).t_step_s * 1e6, 2.12, 0.2);
  const PlanIPT decoded = plan(StencilShapeIPT{2, 8, 8, false, 13, 12}, 128, 128, 128, 1000, star_kernels());
  EXPECT_FALSE(decoded.halo_list);
  EXPECT_EQ(decoded.listed_halo_cells, 3136);
  EXPECT_NEAR(decoded.t_step_s * 1e6, 10.67, 0.6);
  // A box footprint loads the whole shell, a star its faces.
  EXPECT_EQ(b.halo_cells, 34L * 18 * 34 - 32L * 16 * 32);
  EXPECT_GT(b.t_step_s, a.t_step_s);
  // fp32 moves half the bytes.
  StencilShapeIPT f = j3d7pt();
  f.scalar_bytes = 4;
  const PlanIPT c = plan(f, 128, 128, 128);
  EXPECT_LT(c.t_step_s, a.t_step_s);
  EXPECT_EQ(c.smem_bytes, 34L * 18 * 34 * 4 + c.halo_cells * 8);
  // Throughput: cells x steps over the predicted seconds, launch included.
  EXPECT_NEAR(a.predicted_gcells_per_s, 126.0 * 126 * 126 * 1000 / a.predicted_seconds * 1e-9, 1e-6);
  EXPECT_GT(a.predicted_seconds, 1000 * a.t_step_s);
}

TEST(PerformanceModelInPlaceTiling, KeepsTheColumnInRegistersWhereItFits) {
  // Up to 16 fp64 (32 fp32) cells always; at 32 fp64 cells with a listed halo and up to 19 points
  // (j3d7pt, j3d17pt, poisson), not with a decoded halo (radius 2) or 27 points (ptxas: 84-148 B spilled).
  static_assert(PlanIPT::keeps_column(1, 32, 1, 8, false, 7) && PlanIPT::keeps_column(1, 32, 1, 8, true, 19), "");
  static_assert(!PlanIPT::keeps_column(2, 32, 1, 8, false, 13) && !PlanIPT::keeps_column(1, 32, 1, 8, true, 27), "");
  static_assert(PlanIPT::keeps_column(2, 16, 1, 8, false, 13) && PlanIPT::keeps_column(1, 32, 1, 4, true, 27), "");
  // A pair of 16-cell columns counts as 32 cells.
  static_assert(PlanIPT::keeps_column(1, 16, 2, 8, false, 7) && !PlanIPT::keeps_column(2, 16, 2, 8, false, 13), "");
  // A kept column saves one shared-memory access per cell: the same footprint with 27 points
  // (the column re-read each step) is predicted slower by one access per cell of the tile.
  StencilShapeIPT box = poisson();
  box.points = 27;
  const PlanIPT kept = plan(poisson(), 128, 128, 128), reread = plan(box, 128, 128, 128);
  ASSERT_TRUE(kept.valid && reread.valid);
  EXPECT_NEAR((reread.t_step_s - kept.t_step_s) * 1e6, 0.0495e-3 * 32 * 16 * 32, 1e-3);
}

TEST(PerformanceModelInPlaceTiling, ListsTheHaloWhereItFits) {
  // Radius 2 at 32 cells: the tile (36 x 20 x 36 doubles, 207 KB) leaves room for 3,136 of the
  // 8,192 entries; the kernel lists those and decodes the rest at each exchange.
  const PlanIPT r2 = plan(StencilShapeIPT{2, 8, 8, false}, 128, 128, 128);
  ASSERT_TRUE(r2.valid) << r2.why_not;
  EXPECT_EQ(r2.cells_per_thread, 32);
  EXPECT_FALSE(r2.halo_list);
  EXPECT_EQ(r2.listed_halo_cells, 3136);
  EXPECT_EQ(r2.smem_bytes, 227L * 1024);
  EXPECT_NE(r2.describe().find("(3136 listed)"), std::string::npos) << r2.describe();
  static_assert(PlanIPT::listed_cells(2, 32, 1, 8, false) == 3136 && PlanIPT::listed_cells(2, 16, 2, 8, false) == 3136,
                "");
  static_assert(PlanIPT::listed_cells(1, 32, 1, 8, true) == PlanIPT::shell_cells(1, 32, 1, true), "");
  const PlanIPT p = plan(poisson(), 128, 128, 128);
  EXPECT_TRUE(p.halo_list);
  EXPECT_NE(p.describe().find("listed"), std::string::npos);
  EXPECT_EQ(p.smem_bytes, 34L * 18 * 34 * 8 + (34L * 18 * 34 - 32 * 16 * 32) * 8);
  // The kernels decide at compile time: the same rule.
  static_assert(PlanIPT::lists_halo(1, 32, 1, 8, true) && !PlanIPT::lists_halo(2, 32, 1, 8, false), "");
  static_assert(PlanIPT::lists_halo(2, 16, 1, 8, false) && PlanIPT::lists_halo(2, 32, 1, 4, false), "");
  static_assert(PlanIPT::lists_halo(1, 16, 2, 8, false) && !PlanIPT::lists_halo(2, 16, 2, 8, false), "");
}

TEST(PerformanceModelInPlaceTiling, ReadOnlyFieldsTakeTilesAndLoads) {
  // A footprint field keeps a whole tile, a centre-only one the owned cells.
  static_assert(PlanIPT::field_cells(1, 4, 1, 1, 0) == PlanIPT::tile_cells(1, 4, 1), "");
  static_assert(PlanIPT::field_cells(1, 16, 1, 1, 2) == 18L * 18 * 34 + 2L * 16 * 16 * 32, "");
  // Heat with a conductivity field (footprint, 7 points) at 64^3: the 4-cell tile twice, and the
  // 7 conductivity loads per cell on top of the state's 4 off-column loads and its store.
  StencilShapeIPT heat = j3d7pt();
  heat.neighbourhood_fields = 1;
  heat.field_reads = 7;
  const PlanIPT h = plan(heat, 64, 64, 64, 1000);
  expect_tiling(h, 4, 1, 16, 4, 2);
  EXPECT_EQ(h.smem_bytes, 2L * 6 * 18 * 34 * 8 + h.halo_cells * 8);
  const PlanIPT plain = plan(j3d7pt(), 64, 64, 64, 1000);
  EXPECT_NEAR((h.t_step_s - plain.t_step_s) * 1e6, 0.0495e-3 * 7 * 4 * 16 * 32, 1e-3);
  // 128^3 no longer fits: 16-cell tiles would need 256 blocks, 32-cell ones (not compiled with
  // fields) twice the shared memory.
  std::vector<KernelLimitsIPT> with_fields = kernels();
  with_fields.resize(2);
  const PlanIPT big = plan(heat, 128, 128, 128, 1000, with_fields);
  EXPECT_FALSE(big.valid);
  EXPECT_NE(big.why_not.find("can be resident"), std::string::npos) << big.why_not;
  // The 32-cell tile with a field's tile beside it exceeds the SM's shared memory.
  const PlanIPT no_room = plan(heat, 128, 128, 128, 1000, kernels());
  EXPECT_FALSE(no_room.valid);
  EXPECT_NE(no_room.why_not.find("with its read-only field tiles does not fit"), std::string::npos) << no_room.why_not;
  // Seven centre-only coefficient fields: 4-cell tiles fit with 7 x 2048 cells beside them.
  StencilShapeIPT coefficients = j3d7pt();
  coefficients.centre_fields = 7;
  coefficients.field_reads = 7;
  const PlanIPT c = plan(coefficients, 33, 40, 21, 10);
  expect_tiling(c, 4, 1, 9, 3, 1);
  EXPECT_EQ(c.smem_bytes, (6L * 18 * 34 + 7L * 4 * 16 * 32) * 8 + c.halo_cells * 8);
}

TEST(PerformanceModelInPlaceTiling, SaysWhyADomainCannotStayInRegisters) {
  const PlanIPT big = plan(j3d7pt(), 256, 256, 256);
  EXPECT_FALSE(big.valid);
  EXPECT_NE(big.why_not.find("can be resident"), std::string::npos) << big.why_not;
  EXPECT_NE(big.describe().find("not possible"), std::string::npos);
  // No interior along an axis.
  const PlanIPT flat = plan(j3d7pt(), 64, 2, 64);
  EXPECT_FALSE(flat.valid);
  EXPECT_NE(flat.why_not.find("no interior"), std::string::npos) << flat.why_not;
  // A kernel that spills more than a few bytes is not used: 128^3 then has no kernel.
  const PlanIPT spilled = plan(j3d7pt(), 128, 128, 128, 1000, kernels(96));
  EXPECT_FALSE(spilled.valid);
  EXPECT_NE(spilled.why_not.find("spills"), std::string::npos) << spilled.why_not;
  EXPECT_TRUE(plan(j3d7pt(), 128, 128, 128, 1000, kernels(48)).valid);
  // A kernel that cannot be resident at all (max_blocks 0).
  std::vector<KernelLimitsIPT> none = kernels();
  for (auto& k : none) k.max_blocks = 0;
  const PlanIPT no_fit = plan(j3d7pt(), 64, 64, 64, 10, none);
  EXPECT_FALSE(no_fit.valid);
  EXPECT_NE(no_fit.why_not.find("does not fit"), std::string::npos) << no_fit.why_not;
}

}  // namespace
