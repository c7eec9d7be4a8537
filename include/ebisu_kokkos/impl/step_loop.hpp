#ifndef EBISU_KOKKOS_IMPL_STEP_LOOP_HPP
#define EBISU_KOKKOS_IMPL_STEP_LOOP_HPP

// How the generic path issues its per-step dispatches. On small domains a
// step is shorter than the host's cost of one Kokkos dispatch, so the loop is
// launch-bound; a backend whose runtime can record a chain of dispatches once
// and replay it (CUDA graphs) specializes StepLoop for its execution space.
// The default issues every step as an ordinary dispatch.

#include <string>

namespace EbisuKokkos {
namespace Impl {

/// `issue(space, n)` must issue the next n steps on `space` (each call goes
/// on from the last), `dispatches_per_step` dispatches for each step; the
/// buffers a step uses repeat every `period` steps (2 for a double buffer,
/// a state's ring size), so a replayed chunk is a multiple of it. `replayable` says whether
/// the step functor is small enough to travel as a kernel argument (a
/// replay would otherwise read staging memory that later dispatches reuse).
/// Returns a note for the plan ("" when nothing was replayed).
template <class ExecSpace, class Enable = void>
struct StepLoop {
  template <class Issue>
  static std::string run(const ExecSpace& space, int steps, int /*dispatches_per_step*/, bool /*replayable*/,
                         const Issue& issue, int /*period*/ = 2) {
    issue(space, steps);
    return {};
  }
};

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
