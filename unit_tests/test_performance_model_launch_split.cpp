// CPU tests of split_launches (performance_model.hpp): how a call's steps
// split into kernel launches of compiled depths.

#include <ebisu_kokkos/impl/performance_model.hpp>

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

namespace {

using EbisuKokkos::Impl::greedy_launch_depths;
using EbisuKokkos::Impl::LaunchSplit;
using EbisuKokkos::Impl::split_launches;

constexpr unsigned depths(std::initializer_list<int> ds) {
  unsigned m = 0;
  for (int d : ds) m |= 1u << d;
  return m;
}

// One launch of depth d: a fixed cost (the halo's redundant work and the launch) plus d steps.
double launch_cost(int d) { return 1.0 + 0.9 * d; }

int steps_of(const LaunchSplit& s, int main_depth) {
  return s.main_launches * main_depth + std::accumulate(s.tail.begin(), s.tail.end(), 0);
}

double predicted(const LaunchSplit& s, int main_depth, double odd) {
  double t = s.main_launches * launch_cost(main_depth);
  for (int d : s.tail) t += launch_cost(d);
  return t + (s.launches() % 2 == 1 ? odd : 0.0);
}

TEST(LaunchSplit, CoversEveryStepWithUsableDepthsOnly) {
  const unsigned usable = depths({1, 2, 4, 8, 10});
  for (int main_depth : {1, 2, 4, 8, 10}) {
    for (int steps = 1; steps <= 137; ++steps) {
      for (double odd : {0.0, 3.0}) {
        const LaunchSplit s = split_launches(steps, main_depth, usable, launch_cost, odd);
        EXPECT_EQ(steps_of(s, main_depth), steps) << "steps " << steps << " depth " << main_depth;
        EXPECT_GE(s.main_launches, 0);
        for (int d : s.tail) EXPECT_TRUE(((usable >> d) & 1u) != 0) << "depth " << d << " is not compiled";
        EXPECT_DOUBLE_EQ(s.seconds, predicted(s, main_depth, odd));
      }
    }
  }
}

TEST(LaunchSplit, WithoutAPenaltyTheGreedyRemainderStays) {
  // 100 steps at depth 8 of {1, 2, 4, 8}: 12 launches and one of depth 4, as before the search existed.
  const LaunchSplit s = split_launches(100, 8, depths({1, 2, 4, 8}), launch_cost, 0.0);
  EXPECT_EQ(s.main_launches, 12);
  EXPECT_EQ(s.tail, std::vector<int>({4}));
  // With depth 10 as well, two launches of 10 cover 20 steps that took three (8 + 8 + 4).
  const LaunchSplit ten = split_launches(100, 8, depths({1, 2, 4, 8, 10}), launch_cost, 0.0);
  EXPECT_EQ(ten.launches(), 12);
  // A multiple of the depth: no tail.
  const LaunchSplit m = split_launches(96, 8, depths({1, 2, 4, 8, 10}), launch_cost, 0.0);
  EXPECT_EQ(m.main_launches, 12);
  EXPECT_TRUE(m.tail.empty());
}

TEST(LaunchSplit, AnOddCountGivesWayWhereAnEvenOneCostsLess) {
  // 12 x 8 + 4 is 13 launches (cost 13 + 0.9 x 100 + copy); 10 x 8 + 10 + 10 is 12 launches, no copy.
  const LaunchSplit s = split_launches(100, 8, depths({1, 2, 4, 8, 10}), launch_cost, 3.0);
  EXPECT_EQ(s.launches() % 2, 0);
  EXPECT_EQ(s.main_launches, 10);
  EXPECT_EQ(s.tail, std::vector<int>({10, 10}));
  EXPECT_DOUBLE_EQ(s.seconds, 12 * 1.0 + 0.9 * 100);
  // A copy cheaper than the extra launch an even count needs: the odd split stays.
  // (13 = 8 + 4 + 1: three launches; every even split needs a fourth, 1.0 more than the copy.)
  const LaunchSplit cheap = split_launches(13, 8, depths({1, 2, 4, 8}), launch_cost, 0.5);
  EXPECT_EQ(cheap.main_launches, 1);
  EXPECT_EQ(cheap.tail, std::vector<int>({4, 1}));
  // 3-D depths {1..4}: 101 steps at depth 4 is 25 + 1 launches, already even.
  const LaunchSplit even = split_launches(101, 4, depths({1, 2, 3, 4}), launch_cost, 3.0);
  EXPECT_EQ(even.main_launches, 25);
  EXPECT_EQ(even.tail, std::vector<int>({1}));
}

TEST(LaunchSplit, FewerStepsThanTheDepthAndSparseDepths) {
  // Fewer steps than the main depth: no main launch, the deepest usable depth first.
  const LaunchSplit s = split_launches(7, 8, depths({1, 2, 4, 8}), launch_cost, 0.0);
  EXPECT_EQ(s.main_launches, 0);
  EXPECT_EQ(s.tail, std::vector<int>({4, 2, 1}));
  // Depths {1, 8} and a remainder of 7: more than four tail launches, so the fallback (seven of depth 1).
  const LaunchSplit sparse = split_launches(15, 8, depths({1, 8}), launch_cost, 0.0);
  EXPECT_EQ(steps_of(sparse, 8), 15);
  EXPECT_EQ(sparse.main_launches, 1);
  EXPECT_EQ(sparse.tail, std::vector<int>(7, 1));
  // No steps: nothing to launch.
  const LaunchSplit none = split_launches(0, 4, depths({1, 2, 3, 4}), launch_cost, 3.0);
  EXPECT_EQ(none.launches(), 0);
}

// The backends' fallback: the main depth while it fits, then the deepest usable depth (or 1).
TEST(LaunchSplit, GreedyDepthsCoverTheStepsWithUsableDepths) {
  EXPECT_EQ(greedy_launch_depths(21, 8, depths({2, 4, 8})), std::vector<int>({8, 8, 4, 1}));
  EXPECT_EQ(greedy_launch_depths(7, 4, depths({1, 2, 4})), std::vector<int>({4, 2, 1}));
  EXPECT_EQ(greedy_launch_depths(3, 10, depths({10})), std::vector<int>({1, 1, 1}));
  EXPECT_TRUE(greedy_launch_depths(0, 4, depths({4})).empty());
  for (int steps = 1; steps <= 60; ++steps) {
    const std::vector<int> g = greedy_launch_depths(steps, 6, depths({2, 3, 6}));
    EXPECT_EQ(std::accumulate(g.begin(), g.end(), 0), steps);
    for (int d : g) EXPECT_TRUE(d == 1 || d == 2 || d == 3 || d == 6) << steps;
  }
}

}  // namespace
