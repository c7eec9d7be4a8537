// CPU tests of response_schedule (impl/source_response.hpp): how the source's
// response form groups a call's launches, and the policy knob that forces it.

#include <ebisu_kokkos/impl/source_response.hpp>
#include <ebisu_kokkos/policy.hpp>

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <stdexcept>

namespace {

using EbisuKokkos::Impl::response_schedule;
using EbisuKokkos::Impl::ResponseCosts;
using EbisuKokkos::Impl::ResponseSchedule;

// The schedule's time, counted independently: set-up, then groups of n launches (the last adding the
// response), then the launches left over with the source.
double counted(long K, int n, double P, ResponseCosts c, double set_up) {
  const double S = P * (1 + c.source), A = P * (1 + c.adding);
  double t = set_up + n * S;
  long left = K;
  while (left >= n) {
    t += (n - 1) * P + A;
    left -= n;
  }
  return t + left * S;
}

TEST(source_response, schedule_is_the_cheapest_interval) {
  const ResponseCosts costs{0.32, 0.20};
  for (long K : {1L, 2L, 12L, 25L, 75L, 125L}) {
    for (double set_up : {0.0, 8.0}) {
      const ResponseSchedule s = response_schedule(K, 1.0, costs, set_up, 0);
      ASSERT_GE(s.interval, 1);
      ASSERT_LE(s.interval, K);
      EXPECT_EQ(s.groups, K / s.interval);
      EXPECT_NEAR(s.seconds, counted(K, s.interval, 1.0, costs, set_up), 1e-9);
      EXPECT_NEAR(s.per_step_seconds, K * 1.32, 1e-9);
      for (int n = 1; n <= K; ++n) EXPECT_LE(s.seconds, counted(K, n, 1.0, costs, set_up) + 1e-9) << "n " << n;
    }
  }
  // Many launches: near sqrt(K (A - P) / S) = sqrt(125 x 0.2 / 1.32) ~ 4.4.
  const ResponseSchedule s = response_schedule(125, 1.0, costs, 8.0, 0);
  EXPECT_GE(s.interval, 4);
  EXPECT_LE(s.interval, 6);
  // The set-up and the additions beat the per-step source only with enough launches.
  EXPECT_LT(s.seconds, s.per_step_seconds);
  const ResponseSchedule few = response_schedule(12, 1.0, costs, 8.0, 0);
  EXPECT_GT(few.seconds, few.per_step_seconds);
}

TEST(source_response, forced_interval_and_nothing_to_schedule) {
  const ResponseCosts costs{0.56, 0.26};
  const ResponseSchedule forced = response_schedule(25, 3.3, costs, 7.0, 3);
  EXPECT_EQ(forced.interval, 3);
  EXPECT_EQ(forced.groups, 8);
  EXPECT_NEAR(forced.seconds, counted(25, 3, 3.3, costs, 7.0), 1e-9);
  // An interval beyond the call's launches: one group of all of them.
  const ResponseSchedule clamped = response_schedule(5, 3.3, costs, 7.0, 40);
  EXPECT_EQ(clamped.interval, 5);
  EXPECT_EQ(clamped.groups, 1);
  EXPECT_EQ(response_schedule(0, 3.3, costs, 7.0, 0).interval, 0);
  EXPECT_EQ(response_schedule(10, 0.0, costs, 7.0, 0).interval, 0);
}

TEST(source_response, policy_knob) {
  EbisuKokkos::StencilPolicy<Kokkos::DefaultHostExecutionSpace> p(10);
  EXPECT_EQ(p.knobs().response_interval, 0);
  p.set_response_interval(4);
  EXPECT_EQ(p.knobs().response_interval, 4);
  EXPECT_THROW(p.set_response_interval(-1), std::invalid_argument);
  EXPECT_EQ(p.knobs().response_interval, 4);
}

}  // namespace
