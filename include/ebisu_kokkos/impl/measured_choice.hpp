#ifndef EBISU_KOKKOS_IMPL_MEASURED_CHOICE_HPP
#define EBISU_KOKKOS_IMPL_MEASURED_CHOICE_HPP

// Backend::automatic's measured choice, the parts every backend shares: where
// the performance model cannot tell a call's candidate plans apart, they are
// timed once on a copy of the caller's data, and the fastest is remembered for
// the process under a key of everything that changes the answer. The backends
// say when to measure and what the candidates are (impl/cuda/measured_choice.hpp:
// SM tiling, device tiling and the generic step forms; impl/host/ebisu_host.hpp:
// the blocked host path and the generic path). Timing never touches the
// caller's u; scratch is the call's work View, unspecified on return anyway.

#include <ebisu_kokkos/policy.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <typeinfo>
#include <vector>

namespace EbisuKokkos {
namespace Impl {

/// The fastest candidate, and the timings for the report.
template <class Choice>
struct MeasuredChoiceOf {
  Choice choice{};
  std::string summary;
};

/// Process-wide memory of measured choices (one per kind of candidate).
template <class Choice>
class MeasuredChoiceCache {
 public:
  static bool find(const std::string& key, MeasuredChoiceOf<Choice>& out) {
    std::lock_guard<std::mutex> lock(mutex());
    auto it = map().find(key);
    if (it == map().end()) return false;
    out = it->second;
    return true;
  }
  static void store(const std::string& key, const MeasuredChoiceOf<Choice>& choice) {
    std::lock_guard<std::mutex> lock(mutex());
    map()[key] = choice;
  }

 private:
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  static std::map<std::string, MeasuredChoiceOf<Choice>>& map() {
    static std::map<std::string, MeasuredChoiceOf<Choice>> m;
    return m;
  }
};

/// Everything of a call that changes which plan is fastest: `where` (the
/// device, or the host's thread count), the stencil and View types, extents,
/// steps, backend, knobs, boundary rules and whether the result may stay in scratch.
template <class Stencil, class ViewType, class ExecSpace>
std::string measured_choice_key(const std::string& where, const StencilPolicy<ExecSpace>& policy, const ViewType& u) {
  const TuningKnobs& k = policy.knobs();
  std::string key = where + "|" + typeid(Stencil).name() + "|" + typeid(ViewType).name() + "|";
  for (int a = 0; a < static_cast<int>(ViewType::rank); ++a) key += std::to_string(u.extent(a)) + "x";
  key += "|" + std::to_string(policy.steps()) + "|" + to_string(policy.backend()) + "|" +
         std::to_string(k.temporal_depth) + "," + std::to_string(k.tile_width) + "," + std::to_string(k.tile_height) +
         "," + std::to_string(k.threads) + "," + std::to_string(static_cast<int>(k.generic_step)) + "," +
         std::to_string(static_cast<int>(k.source_form)) + "," +
         std::to_string(k.response_interval) + "|";
  for (const auto& axis : policy.boundaries().side) key += std::string(to_string(axis[0])) + to_string(axis[1]);
  key += PolicyAccess::copy_back_free(policy) ? "|either buffer" : "|into u";
  return key;
}

/// Seconds of run(i, a, b) for each candidate i < n, each run on a fresh copy
/// a of u with scratch as b; the better of two rounds counts (a first run may
/// include one-time set-up such as loading a kernel).
template <class ExecSpace, class ViewType, class Run>
std::vector<double> time_candidates_on_copy(const ExecSpace& space, const ViewType& u, const ViewType& scratch, int n,
                                            Run&& run) {
  ViewType copy(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("EbisuKokkos::measured_choice")),
                u.layout());
  std::vector<double> best(static_cast<std::size_t>(n), std::numeric_limits<double>::infinity());
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < n; ++i) {
      Kokkos::deep_copy(space, copy, u);
      space.fence();
      Kokkos::Timer timer;
      run(i, copy, scratch);
      space.fence();
      best[static_cast<std::size_t>(i)] = std::min(best[static_cast<std::size_t>(i)], timer.seconds());
    }
  }
  return best;
}

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
