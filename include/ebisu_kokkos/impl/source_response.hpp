#ifndef EBISU_KOKKOS_IMPL_SOURCE_RESPONSE_HPP
#define EBISU_KOKKOS_IMPL_SOURCE_RESPONSE_HPP

// The schedule of the source's response form (SourceForm::response), shared by
// the 2-D and 3-D SM-tiling kernels. u' = L u + f is affine: G steps give
// u_{t+G} = L^G u_t + g_G, g_G the source's G-step response from a zero state.
// A call of K launches of the main depth d runs them in groups of n: n - 1
// launches of L's own kernel, then one of L's kernel adding g_{nd} where it
// stores. g_{nd} costs n launches of the source kernel from zero, so the
// interval trades the set-up (n S) against the additions (K / n (A - P)):
// near n = sqrt(K (A - P) / S). Launches left over after the last full group
// run the source kernel. The policy keeps g for its next calls
// (impl/kept_response.hpp), so a loop of short calls pays the set-up once.
// Pure C++.

#include <algorithm>

namespace EbisuKokkos {
namespace Impl {

struct ResponseSchedule {
  int interval = 0;        ///< launches per group (0: the response form does not run)
  long groups = 0;         ///< full groups; K - groups * interval launches run the source kernel
  double seconds = 0;      ///< predicted: set-up and the K launches
  double per_step_seconds = 0;  ///< predicted: the K launches of the source kernel
};

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
/// 64-bit hash, impl/source_response_claim.hpp; 0.33 ms for 558 MB on an H200 with two mixes per
/// element, bound by the multiplies) and the wait for its result.
inline double response_check_seconds(double field_bytes) { return 3e-5 + field_bytes / 2e12; }

/// A kept response is built by the second call of a loop and used by the ones after it: the plans charge
/// a call with this share of the build (a loop of this many calls pays it back).
constexpr double kKeptResponseCalls = 8;

/// K launches of the main depth, own_seconds L's own launch of it (predicted); set_up_seconds: the
/// set-up's cost beside its launches (allocation, zeroing). forced: a knob's interval (0: the cheapest).
/// set_up_share: the share of the n source launches of the set-up a call pays (1: built by each call).
inline ResponseSchedule response_schedule(long K, double own_seconds, ResponseCosts costs, double set_up_seconds,
                                          int forced, double set_up_share = 1) {
  ResponseSchedule best;
  if (K <= 0 || own_seconds <= 0) return best;
  const double P = own_seconds, S = P * (1 + costs.source), A = P * (1 + costs.adding);
  const long lo = forced > 0 ? std::min<long>(forced, K) : 1, hi = forced > 0 ? lo : K;
  for (long n = lo; n <= hi; ++n) {
    const long groups = K / n;
    const double seconds =
        set_up_seconds + set_up_share * n * S + groups * ((n - 1) * P + A) + (K - groups * n) * S;
    if (best.interval == 0 || seconds < best.seconds) {
      best.interval = static_cast<int>(n);
      best.groups = groups;
      best.seconds = seconds;
    }
  }
  best.per_step_seconds = K * S;
  return best;
}

/// The two ways a call may run the response form: built by this call alone (per_call), or kept by the
/// policy across the calls of a loop (kept: the check at every call, the build shared by
/// kKeptResponseCalls calls, or none where the policy keeps a response of an interval that is still
/// the cheapest). A schedule with interval 0 does not run. forced_form: SourceForm::response;
/// knob_interval: set_response_interval (0: the cheapest); kept_interval: of the response the policy
/// keeps for this depth (0: none).
struct ResponseChoice {
  ResponseSchedule per_call;
  ResponseSchedule kept;
  bool any() const { return per_call.interval > 0 || kept.interval > 0; }
};

/// A kept response must be predicted this much cheaper than the per-step form: the check and the build
/// are paid where the prediction is wrong.
constexpr double kKeptResponseMargin = 0.95;

inline ResponseChoice choose_response(long K, double own_seconds, ResponseCosts costs, double field_bytes,
                                      bool forced_form, int knob_interval, int kept_interval, long min_launches) {
  ResponseChoice choice;
  const ResponseSchedule per_call =
      response_schedule(K, own_seconds, costs, response_set_up_seconds(field_bytes), knob_interval);
  if (per_call.groups > 0 &&
      (forced_form || (K >= min_launches && per_call.seconds < per_call.per_step_seconds))) {
    choice.per_call = per_call;
  }
  const double check = response_check_seconds(field_bytes);
  ResponseSchedule kept =
      response_schedule(K, own_seconds, costs, check + response_kept_set_up_seconds(field_bytes) / kKeptResponseCalls,
                        knob_interval, 1 / kKeptResponseCalls);
  if (knob_interval == 0 && kept_interval > 0 && kept_interval <= K) {  // the kept one costs no build
    const ResponseSchedule reuse = response_schedule(K, own_seconds, costs, check, kept_interval, 0);
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
