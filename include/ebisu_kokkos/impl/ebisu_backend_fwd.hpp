#ifndef EBISU_KOKKOS_IMPL_EBISU_BACKEND_FWD_HPP
#define EBISU_KOKKOS_IMPL_EBISU_BACKEND_FWD_HPP

// The hook for temporal-blocking backends. The primary template says "not
// available"; a backend (impl/cuda/) specializes it for its execution space
// and for the ranks, scalars and layouts its kernels support. parallel_stencil
// asks `available` at compile time and falls back to the generic backend.

#include <ebisu_kokkos/policy.hpp>

#include <string>
#include <type_traits>
#include <utility>

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
  // True when run() handles periodic and mirror sides (StencilPolicy::
  // set_boundary); otherwise dispatch_stencil sends those to the generic path.
  static constexpr bool takes_boundary_rules = false;
  // Never called: parallel_stencil only dispatches here when `available`.
  static StencilOutcome run(const std::string&, const StencilPolicy<ExecSpace>&, const Stencil&, const ViewType&,
                            const ViewType&) {
    return {};
  }
};

/// Reads Backend::takes_boundary_rules; false when a specialization does not
/// declare the member (older backends take fixed frames only).
template <class Backend, class Enable = void>
struct backend_takes_boundary_rules : std::false_type {};

template <class Backend>
struct backend_takes_boundary_rules<Backend, std::void_t<decltype(Backend::takes_boundary_rules)>>
    : std::bool_constant<Backend::takes_boundary_rules> {};

/// Reads Backend::takes_fields (run() has an overload taking FieldViews);
/// false when a specialization does not declare the member.
template <class Backend, class Enable = void>
struct backend_takes_fields : std::false_type {};

template <class Backend>
struct backend_takes_fields<Backend, std::void_t<decltype(Backend::takes_fields)>>
    : std::bool_constant<Backend::takes_fields> {};

/// Reads Backend::takes_state (run_state() runs several state fields or time
/// levels on a StateRing); false when absent.
template <class Backend, class Enable = void>
struct backend_takes_state : std::false_type {};

template <class Backend>
struct backend_takes_state<Backend, std::void_t<decltype(Backend::takes_state)>>
    : std::bool_constant<Backend::takes_state> {};

template <class Backend, class Policy, class Stencil, class Enable = void>
struct backend_may_refuse_boundaries : std::false_type {};

template <class Backend, class Policy, class Stencil>
struct backend_may_refuse_boundaries<Backend, Policy, Stencil,
                                     std::void_t<decltype(Backend::boundary_refusal(std::declval<const Policy&>(),
                                                                                    std::declval<const Stencil&>()))>>
    : std::true_type {};

/// Why the backend cannot take this call's periodic / mirror sides ("" when
/// it can, or when every side is fixed): a backend that takes boundary rules
/// may still refuse some combinations (Backend::boundary_refusal(policy, stencil)).
template <class Backend, class Policy, class Stencil>
std::string boundary_refusal(const Policy& policy, const Stencil& stencil) {
  if (policy.boundaries().all_fixed()) return "";
  if constexpr (!backend_takes_boundary_rules<Backend>::value) {
    return "the EBISU kernels here take fixed frames only";
  } else if constexpr (backend_may_refuse_boundaries<Backend, Policy, Stencil>::value) {
    return Backend::boundary_refusal(policy, stencil);
  } else {
    return "";
  }
}

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
