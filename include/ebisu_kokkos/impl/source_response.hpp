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
// run the source kernel. Pure C++.

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

/// K launches of the main depth, own_seconds L's own launch of it (predicted); set_up_seconds: the
/// set-up's cost beside its launches (allocation, zeroing). forced: a knob's interval (0: the cheapest).
inline ResponseSchedule response_schedule(long K, double own_seconds, ResponseCosts costs, double set_up_seconds,
                                          int forced) {
  ResponseSchedule best;
  if (K <= 0 || own_seconds <= 0) return best;
  const double P = own_seconds, S = P * (1 + costs.source), A = P * (1 + costs.adding);
  const long lo = forced > 0 ? std::min<long>(forced, K) : 1, hi = forced > 0 ? lo : K;
  for (long n = lo; n <= hi; ++n) {
    const long groups = K / n;
    const double seconds = set_up_seconds + n * S + groups * ((n - 1) * P + A) + (K - groups * n) * S;
    if (best.interval == 0 || seconds < best.seconds) {
      best.interval = static_cast<int>(n);
      best.groups = groups;
      best.seconds = seconds;
    }
  }
  best.per_step_seconds = K * S;
  return best;
}

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
