// CPU tests of response_schedule (impl/source_response.hpp): how the source's
// response form groups a call's launches, and the policy knob that forces it;
// and of what a policy keeps between calls (impl/source_response_claim.hpp):
// when a call builds the response, uses the kept one, or runs per step.

#include <ebisu_kokkos/impl/fields.hpp>
#include <ebisu_kokkos/impl/source_response.hpp>
#include <ebisu_kokkos/impl/source_response_claim.hpp>
#include <ebisu_kokkos/policy.hpp>
#include <ebisu_kokkos/presets.hpp>

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace {

using EbisuKokkos::Impl::response_schedule;
using EbisuKokkos::Impl::ResponseCosts;
using EbisuKokkos::Impl::KeptState;
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
  EXPECT_THROW(p.set_response_interval(-2), std::invalid_argument);
  EXPECT_EQ(p.knobs().response_interval, 4);
  p.set_response_interval(EbisuKokkos::response_over_whole_call);
  EXPECT_EQ(p.knobs().response_interval, EbisuKokkos::Impl::kWholeCallInterval);
}

// A whole-call response folds the call's tail into g: every launch runs source-free and one adds g_T.
// Its build is a whole call with the source, so it pays only where a loop shares it.
TEST(source_response, whole_call_folds_the_tail) {
  using EbisuKokkos::Impl::ResponseTail;
  using EbisuKokkos::Impl::kWholeCallInterval;
  const ResponseCosts costs{0.32, 0.20};
  const double S = 1.32, A = 1.2;
  // 8352^2, 100 steps as 10 x 8 + 10 + 10: two depth-10 launches.
  ResponseTail tail;
  tail.launches = 2;
  tail.source_seconds = 2 * 1.25 * S;
  tail.own_seconds = 2 * 1.25;
  const long K = 10;
  const double whole_alone = 0.5 + (K * S + tail.source_seconds) + tail.own_seconds + (K - 1) + A;
  const double whole_shared = 0.5 + (K * S + tail.source_seconds) / 32 + tail.own_seconds + (K - 1) + A;
  double best_interval_alone = 1e30, best_interval_shared = 1e30;
  for (int n = 1; n <= K; ++n) {
    best_interval_alone = std::min(best_interval_alone, counted(K, n, 1.0, costs, 0.5) + tail.source_seconds);
    best_interval_shared = std::min(best_interval_shared,
                                    counted(K, n, 1.0, costs, 0.5) - (1 - 1.0 / 32) * n * S + tail.source_seconds);
  }
  // Built by one call: an interval wins (the build of g_T is a call with the source).
  const ResponseSchedule alone = response_schedule(K, 1.0, costs, 0.5, 0, 1, tail);
  EXPECT_FALSE(alone.whole_call);
  EXPECT_NEAR(alone.seconds, std::min(best_interval_alone, whole_alone), 1e-9);
  EXPECT_NEAR(alone.per_step_seconds, K * S + tail.source_seconds, 1e-9);
  // Shared by 32 calls: the whole call, one group of every launch of the main depth.
  const ResponseSchedule shared = response_schedule(K, 1.0, costs, 0.5, 0, 1.0 / 32, tail);
  ASSERT_LT(whole_shared, best_interval_shared);
  EXPECT_TRUE(shared.whole_call);
  EXPECT_EQ(shared.interval, K);
  EXPECT_EQ(shared.groups, 1);
  EXPECT_NEAR(shared.seconds, whole_shared, 1e-9);
  // Forced; a tail that cannot run source-free (one group of all the main launches, the tail with the
  // source); no tail (the same).
  const ResponseSchedule forced = response_schedule(K, 1.0, costs, 0.5, kWholeCallInterval, 1, tail);
  EXPECT_TRUE(forced.whole_call);
  EXPECT_NEAR(forced.seconds, whole_alone, 1e-9);
  ResponseTail stuck = tail;
  stuck.own_seconds = -1;
  const ResponseSchedule unfolded = response_schedule(K, 1.0, costs, 0.5, kWholeCallInterval, 1, stuck);
  EXPECT_FALSE(unfolded.whole_call);
  EXPECT_EQ(unfolded.interval, K);
  EXPECT_NEAR(unfolded.seconds, counted(K, K, 1.0, costs, 0.5) + tail.source_seconds, 1e-9);
  const ResponseSchedule no_tail = response_schedule(K, 1.0, costs, 0.5, kWholeCallInterval);
  EXPECT_FALSE(no_tail.whole_call);
  EXPECT_EQ(no_tail.interval, K);
  EXPECT_FALSE(response_schedule(K, 1.0, costs, 0.5, 0, 1.0 / 32, stuck).whole_call);
  // A kept whole-call response of this call's launches costs no build; of other launches, it is rebuilt.
  const double bytes = 558e6, P = 0.52e-3;
  ResponseTail real = tail;
  real.source_seconds *= P;
  real.own_seconds *= P;
  const auto reuse = EbisuKokkos::Impl::choose_response(K, P, costs, bytes, false, 0, KeptState{K, true}, 12, real);
  EXPECT_TRUE(reuse.kept.whole_call);
  EXPECT_NEAR(reuse.kept.seconds, EbisuKokkos::Impl::response_check_seconds(bytes) + real.own_seconds + (K - 1) * P + A * P,
              1e-12);
  const auto other = EbisuKokkos::Impl::choose_response(K, P, costs, bytes, false, 0, KeptState{K, true}, 12, stuck);
  EXPECT_FALSE(other.kept.whole_call);
  // A loop's length: at its second call the build is shared by 8 calls (an interval), after 32 calls by 32
  // (the whole call); the build's share follows the calls so far.
  EXPECT_DOUBLE_EQ(EbisuKokkos::Impl::kept_build_share(1), 1.0 / EbisuKokkos::Impl::kKeptResponseCalls);
  EXPECT_DOUBLE_EQ(EbisuKokkos::Impl::kept_build_share(64), 1.0 / 64);
  const auto early = EbisuKokkos::Impl::choose_response(K, P, costs, bytes, false, 0, KeptState{0, false, 1, 1}, 12, real);
  const auto late = EbisuKokkos::Impl::choose_response(K, P, costs, bytes, false, 0, KeptState{0, false, 32, 32}, 12, real);
  EXPECT_FALSE(early.kept.whole_call);
  EXPECT_TRUE(late.kept.whole_call);
  EXPECT_LT(late.kept.seconds, early.kept.seconds);
  // A long loop whose step count changed at the last call: a response every n launches (it fits any).
  const auto varying = EbisuKokkos::Impl::choose_response(K, P, costs, bytes, false, 0, KeptState{0, false, 32, 1}, 12, real);
  EXPECT_FALSE(varying.kept.whole_call);
  EXPECT_GT(varying.kept.interval, 0);
  // The knob forces it per call and kept.
  const auto knob = EbisuKokkos::Impl::choose_response(K, P, costs, bytes, true, kWholeCallInterval, {}, 12, real);
  EXPECT_TRUE(knob.per_call.whole_call && knob.kept.whole_call);
}

TEST(source_response, kept_schedule_shares_the_build) {
  const ResponseCosts costs{0.32, 0.20};
  const double bytes = 558e6;
  // 12 launches (T = 100 at depth 8, 8352^2): building g for one call does not pay, a kept g does.
  const auto choice = EbisuKokkos::Impl::choose_response(12, 0.52e-3, costs, bytes, false, 0, {}, 12);
  EXPECT_EQ(choice.per_call.interval, 0);
  ASSERT_GT(choice.kept.interval, 1);
  EXPECT_LT(choice.kept.seconds, 0.95 * choice.kept.per_step_seconds);
  const double share = 1 / EbisuKokkos::Impl::kKeptResponseCalls;
  const double extra = EbisuKokkos::Impl::response_check_seconds(bytes) +
                       share * EbisuKokkos::Impl::response_kept_set_up_seconds(bytes);
  // The kept schedule counted as in `counted`, with the build's launches shared by kKeptResponseCalls calls.
  const int n = choice.kept.interval;
  EXPECT_NEAR(choice.kept.seconds,
              counted(12, n, 0.52e-3, costs, extra) - (1 - share) * n * 0.52e-3 * 1.32, 1e-12);
  // 125 launches: both pay; 2 launches: neither (the check and the build against two launches' gain).
  const auto many = EbisuKokkos::Impl::choose_response(125, 0.52e-3, costs, bytes, false, 0, {}, 12);
  EXPECT_GT(many.per_call.interval, 0);
  EXPECT_GT(many.kept.interval, 0);
  EXPECT_FALSE(EbisuKokkos::Impl::choose_response(1, 0.52e-3, costs, bytes, false, 0, {}, 12).any());
  // SourceForm::response takes both whatever they cost; the knob's interval is the interval.
  const auto forced = EbisuKokkos::Impl::choose_response(3, 0.52e-3, costs, bytes, true, 2, {}, 12);
  EXPECT_EQ(forced.per_call.interval, 2);
  EXPECT_EQ(forced.kept.interval, 2);
  // A response the policy keeps costs no build: its interval stays while it is no dearer than building
  // the cheapest one (here n = 3 against the free choice's), and one that no longer fits is rebuilt.
  const auto with_kept = EbisuKokkos::Impl::choose_response(12, 0.52e-3, costs, bytes, false, 0, KeptState{3}, 12);
  EXPECT_EQ(with_kept.kept.interval, 3);
  EXPECT_NEAR(with_kept.kept.seconds,
              counted(12, 3, 0.52e-3, costs, EbisuKokkos::Impl::response_check_seconds(bytes)) - 3 * 0.52e-3 * 1.32,
              1e-12);
  const auto too_wide = EbisuKokkos::Impl::choose_response(12, 0.52e-3, costs, bytes, false, 0, KeptState{40}, 12);
  EXPECT_EQ(too_wide.kept.interval, choice.kept.interval);
  // The knob wins over a kept interval.
  EXPECT_EQ(EbisuKokkos::Impl::choose_response(12, 0.52e-3, costs, bytes, true, 2, KeptState{3}, 12).kept.interval, 2);
}

using HostSpace = Kokkos::DefaultHostExecutionSpace;
using Field2D = Kokkos::View<double**, Kokkos::LayoutRight, HostSpace>;
using ConstField2D = Kokkos::View<const double**, Kokkos::LayoutRight, HostSpace>;
using OneSource = EbisuKokkos::Impl::FieldViews<ConstField2D, EbisuKokkos::Impl::CentreField>;

std::uint64_t hash_of(const Field2D& f) {
  std::uint64_t h = 0;
  EXPECT_TRUE(EbisuKokkos::Impl::hash_fields(HostSpace(), OneSource{{f}}, h));
  return h;
}

TEST(source_response, field_hash_sees_every_change) {
  Field2D f("f", 13, 11), same("same", 13, 11);
  for (int i = 0; i < 13; ++i) {
    for (int j = 0; j < 11; ++j) f(i, j) = same(i, j) = 0.25 * i - 0.125 * j;
  }
  const std::uint64_t h = hash_of(f);
  EXPECT_EQ(hash_of(same), h);  // the values, not the View
  f(7, 3) = std::nextafter(f(7, 3), 1.0);  // one ulp
  EXPECT_NE(hash_of(f), h);
  f(7, 3) = same(7, 3);
  EXPECT_EQ(hash_of(f), h);
  std::swap(f(2, 5), f(9, 1));  // the same values elsewhere
  EXPECT_NE(hash_of(f), h);
  std::swap(f(2, 5), f(9, 1));
  f(0, 0) = -0.0;  // +0 and -0 differ in their bits (and in what the kernels compute from them, nothing)
  EXPECT_NE(hash_of(f), h);
  // A strided field has gaps in its span: not hashed (nothing kept).
  const auto every_other = Kokkos::subview(ConstField2D(same), Kokkos::ALL, Kokkos::make_pair(0, 5));
  std::uint64_t ignored = 0;
  using Strided = EbisuKokkos::Impl::FieldViews<decltype(every_other), EbisuKokkos::Impl::CentreField>;
  EXPECT_FALSE(EbisuKokkos::Impl::hash_fields(HostSpace(), Strided{{every_other}}, ignored));
}

// A time loop's calls: the first runs per step (building g for one call does not pay), the second builds g
// and the policy keeps it, the next ones use it; any change of what g depends on drops it.
TEST(source_response, policy_keeps_the_response_for_a_loop) {
  using EbisuKokkos::Impl::claim_source_response;
  Field2D u("u", 13, 11), f("f", 13, 11);
  Kokkos::deep_copy(f, 0.5);
  const auto stencil = EbisuKokkos::with_source(EbisuKokkos::presets::j2d5pt());
  const OneSource fields{{f}};
  EbisuKokkos::StencilPolicy<HostSpace> policy(100);
  auto& kept = EbisuKokkos::Impl::PolicyAccess::kept_response(policy);
  using EbisuKokkos::Impl::ResponseSpan;
  const auto claim = [&](const EbisuKokkos::StencilPolicy<HostSpace>& p, const auto& s, int depth, int per_call,
                         int kept_interval, std::vector<int> folded = {}) {
    return claim_source_response<Field2D>(p, s, u, fields, depth, ResponseSpan{per_call, {}},
                                          ResponseSpan{kept_interval, std::move(folded)});
  };

  const auto first = claim(policy, stencil, 8, 0, 4);
  EXPECT_FALSE(first.run);
  EXPECT_EQ(kept.kept_interval(8), 0);
  EXPECT_FALSE(kept.hash_known);  // a first call hashes nothing (a policy per call never pays for it)
  const auto second = claim(policy, stencil, 8, 0, 4);
  ASSERT_TRUE(second.run);
  EXPECT_TRUE(second.set_up);
  EXPECT_EQ(second.span.interval, 4);
  EXPECT_EQ(second.response.extent(0), 13u);
  EXPECT_EQ(second.response.extent(1), 11u);
  EXPECT_EQ(kept.kept_interval(8), 4);
  EXPECT_EQ(kept.kept_interval(6), 0);
  const auto third = claim(policy, stencil, 8, 0, 4);
  ASSERT_TRUE(third.run);
  EXPECT_FALSE(third.set_up);
  EXPECT_EQ(third.span.interval, 4);
  EXPECT_EQ(third.response.data(), second.response.data());
  EXPECT_EQ(kept.loop_length(100).calls, 3);  // the loop's length so far (the build's share follows it)
  EXPECT_EQ(kept.loop_length(100).calls_of_these_steps, 3);
  EXPECT_EQ(kept.loop_length(50).calls_of_these_steps, 0);
  // Copies of the policy share what it keeps (the call forms copy it).
  const auto from_copy = claim(policy.with_steps(50), stencil, 8, 0, 4);
  EXPECT_FALSE(from_copy.set_up);
  EXPECT_EQ(from_copy.response.data(), second.response.data());
  EXPECT_EQ(kept.loop_length(50).calls, 4);  // one loop, another step count
  EXPECT_EQ(kept.loop_length(50).calls_of_these_steps, 1);

  // The source changed by one ulp: per step again, nothing kept.
  EXPECT_TRUE(kept.hash_known);
  f(6, 5) = std::nextafter(0.5, 1.0);
  EXPECT_FALSE(claim(policy, stencil, 8, 0, 4).run);
  EXPECT_EQ(kept.kept_interval(8), 0);
  const auto rebuilt = claim(policy, stencil, 8, 0, 4);
  EXPECT_TRUE(rebuilt.run && rebuilt.set_up);
  EXPECT_FALSE(claim(policy, stencil, 8, 0, 4).set_up);

  // Another coefficient, another depth, other boundary rules: each is another response.
  const auto weaker = EbisuKokkos::with_source(
      EbisuKokkos::linear_stencil<2, 1, EbisuKokkos::StarShape>({0.1, 0.2, 0.4, 0.2, 0.1}));
  EXPECT_FALSE(claim(policy, weaker, 8, 0, 4).run);
  EXPECT_EQ(kept.loop_length(100).calls, 1);
  // Calls the per-step form runs without weighing the response count too (the same loop: any depth).
  EbisuKokkos::Impl::count_source_call<Field2D>(policy, stencil, u);
  EbisuKokkos::Impl::count_source_call<Field2D>(policy, stencil, u);
  EXPECT_EQ(kept.loop_length(100).calls, 2);
  EXPECT_FALSE(claim(policy, stencil, 6, 0, 4).run);  // another depth: another response, the same loop
  EXPECT_EQ(kept.loop_length(100).calls, 3);
  EbisuKokkos::StencilPolicy<HostSpace> periodic(100);
  periodic.set_boundary(1, EbisuKokkos::Boundary::periodic);
  EXPECT_FALSE(claim(periodic, stencil, 8, 0, 4).run);

  // A call whose own schedule pays builds at once, and keeps it; a kept g of another interval is rebuilt.
  const auto at_once = claim(policy, stencil, 8, 5, 0);
  EXPECT_TRUE(at_once.run && at_once.set_up);
  EXPECT_EQ(at_once.span.interval, 5);
  EXPECT_FALSE(claim(policy, stencil, 8, 5, 0).set_up);
  const auto other_interval = claim(policy, stencil, 8, 3, 3);
  EXPECT_TRUE(other_interval.set_up);
  EXPECT_EQ(other_interval.span.interval, 3);
  // The kept schedule's interval wins over the per-call one (the loop's steady state): a response kept
  // at the per-call interval is rebuilt once at it.
  const auto loop_interval = claim(policy, stencil, 8, 3, 6);
  EXPECT_TRUE(loop_interval.set_up);
  EXPECT_EQ(loop_interval.span.interval, 6);
  const auto steady = claim(policy, stencil, 8, 3, 6);
  EXPECT_FALSE(steady.set_up);
  EXPECT_EQ(steady.span.interval, 6);

  // A whole-call response (12 x 8 + 4): kept with its tail; a call of other launches (2 + 2) rebuilds it.
  const auto whole = claim(policy, stencil, 8, 0, 12, {4});
  EXPECT_TRUE(whole.run && whole.set_up);
  EXPECT_EQ(whole.span.folded, std::vector<int>{4});
  EXPECT_EQ(kept.kept_span(8).folded, std::vector<int>{4});
  EXPECT_FALSE(claim(policy, stencil, 8, 0, 12, {4}).set_up);
  const auto other_tail = claim(policy, stencil, 8, 0, 12, {2, 2});
  EXPECT_TRUE(other_tail.set_up);
  EXPECT_EQ(other_tail.span.folded, (std::vector<int>{2, 2}));
  const auto every_twelve = claim(policy, stencil, 8, 0, 12);  // the same interval without the tail
  EXPECT_TRUE(every_twelve.set_up);
  EXPECT_TRUE(every_twelve.span.folded.empty());

  // Released on request; a claim that does not pay keeps nothing.
  policy.release_kept_memory();
  EXPECT_EQ(kept.kept_interval(8), 0);
  EXPECT_FALSE(claim(policy, stencil, 8, 0, 0).run);
  EXPECT_FALSE(claim(policy, stencil, 8, 0, 0).run);
  EXPECT_EQ(kept.kept_interval(8), 0);
}

}  // namespace
