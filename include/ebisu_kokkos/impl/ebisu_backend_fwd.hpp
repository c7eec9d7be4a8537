#ifndef EBISU_KOKKOS_IMPL_EBISU_BACKEND_FWD_HPP
#define EBISU_KOKKOS_IMPL_EBISU_BACKEND_FWD_HPP

// The hook for temporal-blocking backends. The primary template says "not
// available"; a backend (impl/cuda/) specializes it for its execution space
// and for the ranks, scalars and layouts its kernels support. parallel_stencil
// asks `available` at compile time and falls back to the generic backend.

#include <ebisu_kokkos/policy.hpp>

#include <string>

namespace EbisuKokkos {
namespace Impl {

/// What a backend did: its report, and which View holds step T (the last
/// launch's destination). The public entry points copy back or swap.
struct StencilOutcome {
  StencilReport report;
  bool result_in_scratch = false;
};

template <class ExecSpace, class Stencil, class ViewType, class Enable = void>
struct EbisuBackend {
  static constexpr bool available = false;
  // Never called: parallel_stencil only dispatches here when `available`.
  static StencilOutcome run(const std::string&, const StencilPolicy<ExecSpace>&, const Stencil&, const ViewType&,
                            const ViewType&) {
    return {};
  }
};

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
