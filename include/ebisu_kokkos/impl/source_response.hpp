#ifndef EBISU_KOKKOS_IMPL_SOURCE_RESPONSE_HPP
#define EBISU_KOKKOS_IMPL_SOURCE_RESPONSE_HPP

// The schedule of the source's response form (SourceForm::response), shared by
// the 2-D and 3-D SM-tiling kernels. u' = L u + f is affine: G steps give
// u_{t+G} = L^G u_t + g_G, g_G the source's G-step response from a zero state.
// A call of K launches of the main depth d runs them in groups of n: n - 1
// launches of L's own kernel, then one of L's kernel adding g_{nd} where it
// stores. g_{nd} costs n launches of the source kernel from zero, so the
// interval trades the set-up (n S) against the additions (K / n (A - P)):
// near n = sqrt(K (A - P) / S). Launches left over after the last full group,
// and the call's launches of other depths (its tail), run the source kernel.
// A whole-call response folds the tail in as well: g_T of all the call's
// launches, built once by the policy for a loop of calls of one step count;
// every launch then runs L's own kernel and one adds g_T. The policy keeps g
// for its next calls (impl/kept_response.hpp), so a loop of short calls pays
// the set-up once.
// Pure C++.

#include <algorithm>

namespace EbisuKokkos {
namespace Impl {

struct ResponseSchedule {
  int interval = 0;        ///< launches per group (0: the response form does not run)
  long groups = 0;         ///< full groups; K - groups * interval launches run the source kernel
  bool whole_call = false; ///< one group of the K launches with the tail folded into g (run source-free)
  double seconds = 0;      ///< predicted: set-up, the K launches and the tail
  double per_step_seconds = 0;  ///< predicted: the K launches and the tail with the source kernel
};

/// The call's launches of other depths than the main one (its tail), as the schedules price them.
struct ResponseTail {
  int launches = 0;
  double source_seconds = 0;  ///< predicted, with the source kernel
  double own_seconds = -1;    ///< predicted, with L's own kernel (< 0: not planned at their depths)
  bool foldable() const { return launches > 0 && own_seconds >= 0; }
};

/// set_response_interval's value for a whole-call response (policy.hpp's response_over_whole_call).
constexpr int kWholeCallInterval = -1;

/// What a launch of the main depth costs beyond L's own launch, relative to it: the source kernel's
/// (f read at every level) and the adding kernel's (one more array read where it stores). Measured: the
/// model counts both as bound by the same device memory and cannot rank them.
struct ResponseCosts {
  double source = 0;
  double adding = 0;
};

/// The set-up's cost beside its launches: allocating and releasing the response's buffer (cudaMalloc and
/// cudaFree, the release waiting for the call's last launch) and zeroing one field. Fitted to the calls'
/// times at several intervals (H200, Kokkos 3.4): ~4.5 ms for 558 MB (8352^2 fp64), ~7.4 ms for 2.26 GB
/// (2560x288x384): a fixed part larger than its bytes.
inline double response_set_up_seconds(double field_bytes) { return 3.5e-3 + 1.7e-12 * field_bytes; }

/// The set-up's cost beside its launches where the policy keeps the buffer: allocating it (cudaMalloc,
/// 0.13-0.32 ms measured) and zeroing one field (Kokkos 3.4's fill, ~0.8 TB/s on an H200); no release
/// in the call (the release waits for the device: with the policy, not in a time loop's calls).
inline double response_kept_set_up_seconds(double field_bytes) { return 5e-4 + field_bytes / 0.8e12; }

/// What a call pays to tell whether the policy's kept response fits it: one read of the fields (a
/// 64-bit hash, impl/source_response_claim.hpp: one pass of partial sums, four loads in flight per thread)
/// and the wait for its result. H200: 0.072 / 0.238 / 0.822 ms for 134 / 558 / 2147 MB (2.6-2.7 TB/s
/// beyond a fixed ~30 us).
inline double response_check_seconds(double field_bytes) { return 3e-5 + field_bytes / 2.6e12; }

/// A kept response is built by the second call of a loop and used by the ones after it: the plans charge
/// a call with a share of the build, as if the loop ran this many calls, or as many more as it has run
/// (a loop that ran c calls is expected to run c more: a build that pays back over them, such as a
/// whole-call response, replaces a cheaper one as the loop goes on, at most once per doubling). A
/// whole-call response counts only the calls in a row of the call's step count, so a loop whose step
/// counts vary keeps a response every n launches, which fits any of them.
constexpr double kKeptResponseCalls = 8;
inline double kept_build_share(long calls) {
  return 1 / std::max(kKeptResponseCalls, static_cast<double>(calls));
}

/// K launches of the main depth, own_seconds L's own launch of it (predicted); set_up_seconds: the
/// set-up's cost beside its launches (allocation, zeroing). forced: a knob's interval (0: the cheapest;
/// kWholeCallInterval: the whole call's). set_up_share: the share of the set-up's launches a call pays
/// (1: built by each call). tail: the call's other launches.
inline ResponseSchedule response_schedule(long K, double own_seconds, ResponseCosts costs, double set_up_seconds,
                                          int forced, double set_up_share = 1, const ResponseTail& tail = {}) {
  ResponseSchedule best;
  if (K <= 0 || own_seconds <= 0) return best;
  const double P = own_seconds, S = P * (1 + costs.source), A = P * (1 + costs.adding);
  const auto consider = [&](long n, bool whole, double seconds) {
    if (best.interval == 0 || seconds < best.seconds) {
      best.interval = static_cast<int>(n);
      best.groups = K / n;
      best.whole_call = whole;
      best.seconds = seconds;
    }
  };
  const bool whole_forced = forced == kWholeCallInterval;
  const long lo = forced > 0 ? std::min<long>(forced, K) : whole_forced ? K : 1;
  const long hi = forced > 0 ? lo : K;
  if (!whole_forced || !tail.foldable()) {
    for (long n = lo; n <= hi; ++n) {
      const long groups = K / n;
      consider(n, false,
               set_up_seconds + set_up_share * n * S + groups * ((n - 1) * P + A) + (K - groups * n) * S +
                   tail.source_seconds);
    }
  }
  if (forced <= 0 && tail.foldable()) {
    consider(K, true,
             set_up_seconds + set_up_share * (K * S + tail.source_seconds) + tail.own_seconds + (K - 1) * P + A);
  }
  best.per_step_seconds = K * S + tail.source_seconds;
  return best;
}

/// The two ways a call may run the response form: built by this call alone (per_call), or kept by the
/// policy across the calls of a loop (kept: the check at every call, the build shared by
/// kKeptResponseCalls calls, or none where the policy keeps a response of an interval that is still
/// the cheapest). A schedule with interval 0 does not run. forced_form: SourceForm::response;
/// knob_interval: set_response_interval (0: the cheapest); kept_interval: of the response the policy
/// keeps (KeptState).
struct ResponseChoice {
  ResponseSchedule per_call;
  ResponseSchedule kept;
  bool any() const { return per_call.interval > 0 || kept.interval > 0; }
};

/// What the policy keeps, as a plan sees it.
struct KeptState {
  int interval = 0;                ///< of the kept response of this depth (0: none)
  bool whole_call = false;         ///< it is the whole-call response of this call's launches
  long loop_calls = 0;             ///< calls so far of the loop (with the key the policy saw last)
  long calls_of_these_steps = 0;   ///< the last of them in a row with this call's step count
};

/// A kept response must be predicted this much cheaper than the per-step form: the check and the build
/// are paid where the prediction is wrong.
constexpr double kKeptResponseMargin = 0.95;

inline ResponseChoice choose_response(long K, double own_seconds, ResponseCosts costs, double field_bytes,
                                      bool forced_form, int knob_interval, const KeptState& kept_now,
                                      long min_launches, const ResponseTail& tail = {}) {
  ResponseChoice choice;
  const ResponseSchedule per_call =
      response_schedule(K, own_seconds, costs, response_set_up_seconds(field_bytes), knob_interval, 1, tail);
  if (per_call.groups > 0 &&
      (forced_form || (K >= min_launches && per_call.seconds < per_call.per_step_seconds))) {
    choice.per_call = per_call;
  }
  const double check = response_check_seconds(field_bytes);
  // A response every n launches fits a call of any step count: its build is shared by the loop's calls.
  // A whole-call one fits calls of this step count: shared by those in a row.
  const double set_up = response_kept_set_up_seconds(field_bytes);
  const double share = kept_build_share(kept_now.loop_calls);
  ResponseTail unfolded = tail;
  unfolded.own_seconds = -1;
  ResponseSchedule kept =
      response_schedule(K, own_seconds, costs, check + share * set_up, knob_interval, share, unfolded);
  if (knob_interval <= 0 && tail.foldable()) {
    const double whole_share = kept_build_share(kept_now.calls_of_these_steps);
    const ResponseSchedule whole =
        response_schedule(K, own_seconds, costs, check + whole_share * set_up, kWholeCallInterval, whole_share, tail);
    if (knob_interval < 0 || whole.seconds < kept.seconds) kept = whole;
  }
  const bool kept_fits = kept_now.whole_call ? tail.foldable() && kept_now.interval == K
                                             : kept_now.interval > 0 && kept_now.interval <= K;
  if (knob_interval == 0 && kept_fits) {  // the kept one costs no build
    const ResponseSchedule reuse = response_schedule(
        K, own_seconds, costs, check, kept_now.whole_call ? kWholeCallInterval : kept_now.interval, 0, tail);
    if (reuse.seconds <= kept.seconds) kept = reuse;
  }
  if (kept.groups > 0 && (forced_form || kept.seconds < kKeptResponseMargin * kept.per_step_seconds)) {
    choice.kept = kept;
  }
  return choice;
}

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
