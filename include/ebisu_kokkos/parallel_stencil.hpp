#ifndef EBISU_KOKKOS_PARALLEL_STENCIL_HPP
#define EBISU_KOKKOS_PARALLEL_STENCIL_HPP

// parallel_stencil: T Jacobi steps of a stencil over a Kokkos View, the
// drop-in replacement for "parallel_for one step, swap, repeat".
//
// Two forms:
//  - parallel_stencil(label, policy, stencil, u, scratch): u holds step 0 on
//    entry and step T on return; scratch is a same-shaped work View whose
//    contents on return are unspecified. When the backend's last launch
//    writes scratch, the field is copied back into u (one extra pass).
//  - parallel_stencil(label, policy, stencil, buffers) on a DoubleBuffer:
//    buffers.current() holds step 0 on entry and step T on return; the
//    selector is flipped instead of copying.
//  - parallel_stencil(label, policy, stencil, state) on a State (state.hpp):
//    several fields and/or time levels updated together; the ring of buffers
//    turns instead of copying.
// Each takes read-only fields as a last argument, fields(k, centre_only(f))
// (fields.hpp): the stencil functor then receives one argument per field.
// All are asynchronous on the policy's execution space instance, like any
// Kokkos dispatch. By default the cells within the stencil radius of an edge
// are a fixed (Dirichlet) boundary; StencilPolicy::set_boundary makes a side
// periodic or mirrored (zero flux), and then the cells up to it are updated.

#include <ebisu_kokkos/double_buffer.hpp>
#include <ebisu_kokkos/fields.hpp>
#include <ebisu_kokkos/impl/backends.hpp>
#include <ebisu_kokkos/impl/generic_backend.hpp>
#include <ebisu_kokkos/impl/state_ring.hpp>
#include <ebisu_kokkos/impl/validate.hpp>
#include <ebisu_kokkos/policy.hpp>
#include <ebisu_kokkos/state.hpp>
#include <ebisu_kokkos/stencil.hpp>

#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>

namespace EbisuKokkos {

/// True when the EBISU backend can run this combination of execution space,
/// stencil and View type (what Backend::automatic would pick).
template <class ExecSpace, class Stencil, class ViewType>
inline constexpr bool ebisu_available = Impl::EbisuBackend<ExecSpace, Stencil, ViewType>::available;

namespace Impl {

// Validates, picks the backend and runs it on (u, scratch); the outcome says
// which of the two holds step T.
template <class ExecSpace, class Stencil, class ViewType, class ScratchType, class FieldSet = Fields<>>
StencilOutcome dispatch_stencil(const std::string& label, const StencilPolicy<ExecSpace>& policy,
                                const Stencil& stencil, const ViewType& u, const ScratchType& scratch,
                                const FieldSet& fields = FieldSet{}) {
  check_types<ExecSpace, Stencil, ViewType, ScratchType>();
  check_field_types<ExecSpace, ViewType>(static_cast<const FieldSet*>(nullptr));
  check_arguments<Stencil>(label, policy.steps(), u, scratch);
  check_fields(label, u, scratch, fields);
  // From here on both Views are handled as one type (they agree in value
  // type, layout and memory space); unmanaged views keep ownership with the caller.
  using View = Kokkos::View<typename ViewType::data_type, typename ViewType::array_layout,
                            typename ViewType::memory_space>;
  const View u_view = u;
  const View scratch_view = scratch;
  const auto bound_fields = field_views<typename View::const_type>(fields);
  constexpr bool has_fields = FieldSet::size > 0;
  using Ebisu = EbisuBackend<ExecSpace, Stencil, View>;

  if (policy.backend() == Backend::ebisu && !Ebisu::available) {
    invalid(label,
            "Backend::ebisu was requested, but no EBISU kernel supports this execution space, rank, "
            "scalar type or layout in this build (use Backend::automatic to fall back)");
  }
  check_boundaries<view_rank<ViewType>>(label, policy.boundaries());
  // Periodic and mirror sides go to the EBISU backend only when it takes them
  // (EbisuBackend::takes_boundary_rules / boundary_refusal; docs/design-fields-boundaries-state.md).
  const std::string rules_refused = boundary_refusal<Ebisu>(policy, stencil);
  const bool rules_ok = rules_refused.empty();
  if (policy.backend() == Backend::ebisu && !rules_ok) {
    invalid(label, "Backend::ebisu was requested with periodic or mirror sides it cannot run: " + rules_refused +
                       " (Backend::automatic or generic run them on the generic path)");
  }
  // Read-only fields go to the EBISU backend where it takes them (EbisuBackend::takes_fields:
  // the CUDA kernels and the host blocked path; docs/design-fields-boundaries-state.md).
  constexpr bool ebisu_takes_fields = backend_takes_fields<Ebisu>::value;
  if (policy.backend() == Backend::ebisu && has_fields && !ebisu_takes_fields) {
    invalid(label,
            "Backend::ebisu was requested with read-only fields, which the EBISU kernels of this execution space "
            "do not support yet (Backend::automatic or generic run them on the generic path)");
  }
  StencilOutcome outcome;
  Kokkos::Profiling::pushRegion("EbisuKokkos::parallel_stencil::" + label);
  if constexpr (has_fields) {
    if constexpr (Ebisu::available && ebisu_takes_fields) {
      if (policy.backend() != Backend::generic && rules_ok) {
        outcome = Ebisu::run(label, policy, stencil, u_view, scratch_view, bound_fields);
      } else {
        outcome = run_generic(label, policy, stencil, u_view, scratch_view, bound_fields);
        if (policy.backend() == Backend::automatic) outcome.report.plan += " (periodic/mirror sides: " + rules_refused + ")";
      }
    } else {
      outcome = run_generic(label, policy, stencil, u_view, scratch_view, bound_fields);
      if (policy.backend() == Backend::automatic) {
        outcome.report.plan += " (read-only fields: the EBISU kernels here do not read them yet)";
      }
    }
  } else if constexpr (Ebisu::available) {
    if (policy.backend() != Backend::generic && rules_ok) {
      outcome = Ebisu::run(label, policy, stencil, u_view, scratch_view);
    } else {
      outcome = run_generic(label, policy, stencil, u_view, scratch_view);
      if (policy.backend() == Backend::automatic) {
        outcome.report.plan += " (periodic/mirror sides: " + rules_refused + ")";
      }
    }
  } else {
    outcome = run_generic(label, policy, stencil, u_view, scratch_view);
  }
  Kokkos::Profiling::popRegion();
  if (policy.knobs().print_plan) std::printf("EbisuKokkos[%s]: %s\n", label.c_str(), outcome.report.plan.c_str());
  return outcome;
}

template <class View, class State, std::size_t... K>
StateRing<View, State::num_fields, State::ring_size> state_ring(const State& state, std::index_sequence<K...>) {
  constexpr int ring_size = State::ring_size;
  return {{View(StateAccess::slot(state, static_cast<int>(K) / ring_size, static_cast<int>(K) % ring_size))...}};
}

// Several state fields or time levels: validates and runs the steps on the
// state's ring of buffers, then turns the ring. One field of one level is a
// DoubleBuffer and goes where one goes.
template <class ExecSpace, class Stencil, class ViewType, int NumFields, int NumLevels, class FieldSet>
StencilReport dispatch_state(const std::string& label, const StencilPolicy<ExecSpace>& policy, const Stencil& stencil,
                             State<ViewType, NumFields, NumLevels>& state, const FieldSet& fields) {
  using StateType = State<ViewType, NumFields, NumLevels>;
  // Field f's buffers as given: its levels newest first, then its spare.
  const auto buffer = [&](int f, int j) -> const ViewType& {
    return j < NumLevels ? state.level(f, j) : StateAccess::slot(state, f, 1);
  };
  if constexpr (NumFields == 1 && NumLevels == 1) {
    const StencilOutcome outcome = dispatch_stencil(label, PolicyAccess::result_in_either_buffer(policy), stencil,
                                                    buffer(0, 0), buffer(0, 1), fields);
    StateAccess::advance(state, outcome.result_in_scratch ? 1 : 0);
    return outcome.report;
  } else {
    using View = Kokkos::View<typename ViewType::data_type, typename ViewType::array_layout,
                              typename ViewType::memory_space>;
    using ConstView = typename View::const_type;
    using Scalar = typename View::non_const_value_type;
    using BoundFields = decltype(field_views<ConstView>(fields));
    check_types<ExecSpace, Stencil, ViewType, ViewType>();
    check_field_types<ExecSpace, ViewType>(static_cast<const FieldSet*>(nullptr));
    StateStencilCheck<Stencil, Scalar, NumFields, StateStepFields<Stencil, ConstView, NumFields * NumLevels - 1, BoundFields>>::check();
    check_state<ViewType>(label, NumFields, NumLevels, buffer, fields);
    check_arguments<Stencil>(label, policy.steps(), buffer(0, 0), buffer(0, NumLevels));
    check_boundaries<view_rank<ViewType>>(label, policy.boundaries());
    // Several fields or levels go to the EBISU backend where it takes them
    // (EbisuBackend::takes_state: the CUDA kernels' device tiling in 2-D and 3-D, segment tiling in 1-D).
    using Ebisu = EbisuBackend<ExecSpace, Stencil, View>;
    constexpr bool ebisu_takes_state = backend_takes_state<Ebisu>::value;
    if (policy.backend() == Backend::ebisu && !ebisu_takes_state) {
      invalid(label,
              "Backend::ebisu was requested for a stencil over several state fields or time levels, which no EBISU "
              "kernel of this execution space, rank, scalar type or layout runs (Backend::automatic or generic run "
              "it on the generic path)");
    }
    const std::string rules_refused = boundary_refusal<Ebisu>(policy, stencil);
    if (policy.backend() == Backend::ebisu && !rules_refused.empty()) {
      invalid(label, "Backend::ebisu was requested with periodic or mirror sides it cannot run: " + rules_refused +
                         " (Backend::automatic or generic run them on the generic path)");
    }
    const auto ring = state_ring<View>(state, std::make_index_sequence<StateType::num_buffers>{});
    StencilOutcome outcome;
    Kokkos::Profiling::pushRegion("EbisuKokkos::parallel_stencil::" + label);
    if constexpr (ebisu_takes_state) {
      if (policy.backend() != Backend::generic && rules_refused.empty()) {
        outcome = Ebisu::run_state(label, policy, stencil, ring, field_views<ConstView>(fields));
      } else {
        outcome = run_generic_ring(label, policy, stencil, ring, field_views<ConstView>(fields));
        if (policy.backend() == Backend::automatic) outcome.report.plan += " (periodic/mirror sides: " + rules_refused + ")";
      }
    } else {
      outcome = run_generic_ring(label, policy, stencil, ring, field_views<ConstView>(fields));
      if (policy.backend() == Backend::automatic) {
        outcome.report.plan += " (several state fields / time levels: the EBISU kernels here do not run them)";
      }
    }
    Kokkos::Profiling::popRegion();
    StateAccess::advance(state, policy.steps());
    if (policy.knobs().print_plan) std::printf("EbisuKokkos[%s]: %s\n", label.c_str(), outcome.report.plan.c_str());
    return outcome.report;
  }
}

}  // namespace Impl

template <class ExecSpace, class Stencil, class ViewType, class ScratchType>
StencilReport parallel_stencil(const std::string& label, const StencilPolicy<ExecSpace>& policy,
                               const Stencil& stencil, const ViewType& u, const ScratchType& scratch) {
  const Impl::StencilOutcome outcome = Impl::dispatch_stencil(label, policy, stencil, u, scratch);
  if (outcome.result_in_scratch) Kokkos::deep_copy(policy.space(), u, scratch);
  return outcome.report;
}

/// Runs on buffers.current() and leaves step T there without copying.
template <class ExecSpace, class Stencil, class ViewType>
StencilReport parallel_stencil(const std::string& label, const StencilPolicy<ExecSpace>& policy,
                               const Stencil& stencil, DoubleBuffer<ViewType>& buffers) {
  const Impl::StencilOutcome outcome = Impl::dispatch_stencil(
      label, Impl::PolicyAccess::result_in_either_buffer(policy), stencil, buffers.current(), buffers.alternate());
  if (outcome.result_in_scratch) buffers.swap();
  return outcome.report;
}

/// With read-only fields (fields(...)): the stencil functor takes one argument per field.
template <class ExecSpace, class Stencil, class ViewType, class ScratchType, class... Fs>
StencilReport parallel_stencil(const std::string& label, const StencilPolicy<ExecSpace>& policy,
                               const Stencil& stencil, const ViewType& u, const ScratchType& scratch,
                               const Fields<Fs...>& fields) {
  const Impl::StencilOutcome outcome = Impl::dispatch_stencil(label, policy, stencil, u, scratch, fields);
  if (outcome.result_in_scratch) Kokkos::deep_copy(policy.space(), u, scratch);
  return outcome.report;
}

/// DoubleBuffer form with read-only fields.
template <class ExecSpace, class Stencil, class ViewType, class... Fs>
StencilReport parallel_stencil(const std::string& label, const StencilPolicy<ExecSpace>& policy,
                               const Stencil& stencil, DoubleBuffer<ViewType>& buffers, const Fields<Fs...>& fields) {
  const Impl::StencilOutcome outcome = Impl::dispatch_stencil(
      label, Impl::PolicyAccess::result_in_either_buffer(policy), stencil, buffers.current(), buffers.alternate(),
      fields);
  if (outcome.result_in_scratch) buffers.swap();
  return outcome.report;
}

/// Several state fields and/or time levels (state.hpp): state.current(f) holds
/// field f's step T on return, state.level(f, l) step T - l.
template <class ExecSpace, class Stencil, class ViewType, int NumFields, int NumLevels>
StencilReport parallel_stencil(const std::string& label, const StencilPolicy<ExecSpace>& policy,
                               const Stencil& stencil, State<ViewType, NumFields, NumLevels>& state) {
  return Impl::dispatch_state(label, policy, stencil, state, Fields<>{});
}

/// State form with read-only fields.
template <class ExecSpace, class Stencil, class ViewType, int NumFields, int NumLevels, class... Fs>
StencilReport parallel_stencil(const std::string& label, const StencilPolicy<ExecSpace>& policy,
                               const Stencil& stencil, State<ViewType, NumFields, NumLevels>& state,
                               const Fields<Fs...>& fields) {
  return Impl::dispatch_state(label, policy, stencil, state, fields);
}

/// Overload that allocates the scratch View itself (one allocation per call).
template <class ExecSpace, class Stencil, class ViewType>
StencilReport parallel_stencil(const std::string& label, const StencilPolicy<ExecSpace>& policy,
                               const Stencil& stencil, const ViewType& u) {
  Impl::check_types<ExecSpace, Stencil, ViewType, ViewType>();
  if (u.data() == nullptr) Impl::invalid(label, "u is not allocated");
  using Scratch = Kokkos::View<typename ViewType::non_const_data_type, typename ViewType::array_layout,
                               typename ViewType::memory_space>;
  Scratch scratch(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "_scratch"), u.layout());
  return parallel_stencil(label, policy, stencil, u, scratch);
}

}  // namespace EbisuKokkos

#endif
