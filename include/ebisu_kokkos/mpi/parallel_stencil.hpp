#ifndef EBISU_KOKKOS_MPI_PARALLEL_STENCIL_HPP
#define EBISU_KOKKOS_MPI_PARALLEL_STENCIL_HPP

// parallel_stencil over a CartesianDomain: T steps of a stencil on a field
// split over MPI ranks, each rank running the single-rank parallel_stencil
// (every backend and strategy: EBISU kernels on Cuda, blocked host path, ...)
// on its block plus ghost zone.
//
// Communication-avoiding rounds: exchange the state's ghost zones (radius x
// steps_per_exchange deep), then run k = ghost / radius steps on the local
// View with its ghost sides held as a fixed frame. Each step spoils `radius`
// more cells of the ghost zone from its outer edge inwards, so after k steps
// the owned cells are exactly what one rank would have computed; the next
// round exchanges again. Read-only fields are exchanged once per call (their
// ghost cells are recomputed with the state, so they need the neighbours'
// values too, centre_only fields included).
//
// Same call forms as the single-rank API: (u, scratch), DoubleBuffer, State,
// each with or without fields(...). On return the owned cells hold step T;
// ghost cells hold unspecified values. Bad arguments on any rank make every
// rank throw before anything is exchanged or computed.

#include <ebisu_kokkos/double_buffer.hpp>
#include <ebisu_kokkos/fields.hpp>
#include <ebisu_kokkos/impl/validate.hpp>
#include <ebisu_kokkos/mpi/cartesian_domain.hpp>
#include <ebisu_kokkos/mpi/transfer.hpp>
#include <ebisu_kokkos/parallel_stencil.hpp>
#include <ebisu_kokkos/policy.hpp>
#include <ebisu_kokkos/state.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <exception>
#include <string>
#include <tuple>

namespace EbisuKokkos {
namespace Mpi {
namespace Impl {

[[noreturn]] inline void invalid(const std::string& label, const std::string& what) {
  throw std::invalid_argument("EbisuKokkos::Mpi::parallel_stencil(\"" + label + "\"): " + what);
}

/// Runs `check` (which throws std::invalid_argument on bad input) on every
/// rank; if any rank failed, every rank throws, before anything is exchanged.
template <class Check>
void check_on_every_rank(MPI_Comm comm, int rank, const std::string& label, const Check& check) {
  std::string mine;
  try {
    check();
  } catch (const std::invalid_argument& e) {
    mine = e.what();
  }
  const int me = mine.empty() ? INT_MAX : rank;
  int first = INT_MAX;
  check_mpi(MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce (argument check)");
  if (first == INT_MAX) return;
  if (!mine.empty()) throw std::invalid_argument(mine);
  invalid(label, "rank " + std::to_string(first) + " rejected its arguments (its exception says why); nothing ran");
}

template <int Rank, class ExecSpace, class Stencil>
void check_common(const std::string& label, const CartesianDomain<Rank>& domain,
                  const StencilPolicy<ExecSpace>& policy) {
  if (policy.steps() < 0) invalid(label, "policy steps must be >= 0, got " + std::to_string(policy.steps()));
  if (Stencil::radius > domain.radius()) {
    invalid(label, "the stencil's radius " + std::to_string(Stencil::radius) + " exceeds the domain's radius " +
                       std::to_string(domain.radius()) + " (its ghost zones are sized for that radius)");
  }
  const BoundaryRules& rules = policy.boundaries();
  if (!rules.all_fixed()) {
    for (int a = 0; a < 3; ++a)
      for (int s = 0; s < 2; ++s)
        if (rules.side[a][s] != domain.boundaries().side[a][s]) {
          invalid(label, "the policy's boundary rule on index " + std::to_string(a) + (s ? " (high side)" : " (low side)") +
                             " is " + to_string(rules.side[a][s]) + ", the domain's is " +
                             to_string(domain.boundaries().side[a][s]) +
                             ": a distributed run takes its rules from the domain (DomainOptions::boundaries)");
        }
  }
}

template <int Rank, class FieldSet>
void check_field_extents(const CartesianDomain<Rank>& domain, const FieldSet& fields) {
  std::apply(
      [&](const auto&... argument) {
        (check_local_extents(domain,
                             EbisuKokkos::Impl::FieldArgument<std::decay_t<decltype(argument)>>::view(argument),
                             "parallel_stencil (read-only field)"),
         ...);
      },
      fields.arguments());
}

/// Read-only fields' ghost zones. Their Views may be const: the ghost cells are
/// the library's (they mirror other ranks' cells), so they are written through
/// a non-const alias.
template <int Rank, class ExecSpace, class FieldSet>
void exchange_fields(const CartesianDomain<Rank>& domain, const ExecSpace& space, const FieldSet& fields) {
  const auto one = [&](const auto& argument) {
    const auto& f = EbisuKokkos::Impl::FieldArgument<std::decay_t<decltype(argument)>>::view(argument);
    using F = std::decay_t<decltype(f)>;
    using Writable = Kokkos::View<typename F::non_const_data_type, typename F::array_layout, typename F::memory_space,
                                  Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    const Writable w(const_cast<typename F::non_const_value_type*>(f.data()), f.layout());
    exchange_halo_unchecked(domain, space, w);
  };
  std::apply([&](const auto&... argument) { (one(argument), ...); }, fields.arguments());
}

template <class ExecSpace>
StencilPolicy<ExecSpace> local_policy(const StencilPolicy<ExecSpace>& policy, const BoundaryRules& local) {
  StencilPolicy<ExecSpace> p = policy;
  for (int a = 0; a < 3; ++a) {
    p.set_boundary(a, Side::low, local.side[a][0]);
    p.set_boundary(a, Side::high, local.side[a][1]);
  }
  p.set_print_plan(false);
  return p;
}

/// The rounds: exchange the state (exchange_state()), run up to k steps locally (run_local(policy)).
template <class Stencil, int Rank, class ExecSpace, class ExchangeState, class RunLocal>
StencilReport run_rounds(const std::string& label, const CartesianDomain<Rank>& domain,
                         const StencilPolicy<ExecSpace>& policy, const ExchangeState& exchange_state,
                         const RunLocal& run_local) {
  // Steps one exchange serves (all of them when no side faces another rank).
  const int k = domain.has_neighbours() ? static_cast<int>(domain.ghost_width() / Stencil::radius)
                                        : std::max(policy.steps(), 1);
  const StencilPolicy<ExecSpace> local = local_policy(policy, domain.local_boundaries());
  StencilReport report;
  int launches = 0, exchanges = 0;
  for (int done = 0; done < policy.steps();) {
    const int steps = std::min(k, policy.steps() - done);
    if (domain.has_neighbours()) {
      exchange_state();
      ++exchanges;
    }
    report = run_local(local.with_steps(steps));
    launches += report.launches;
    done += steps;
  }
  report.launches = launches;
  std::string dims;
  for (int a = 0; a < Rank; ++a) dims += (a ? " x " : "") + std::to_string(domain.ranks_per_axis(a));
  const std::string exchange_plan =
      domain.has_neighbours() ? "ghost zones " + std::to_string(domain.ghost_width()) + " cells deep, " +
                                    std::to_string(exchanges) + " exchanges of up to " + std::to_string(k) + " steps each"
                              : std::string("no neighbours, no exchange");
  report.plan = "distributed over " + std::to_string(domain.size()) + " ranks (" + dims + "), " + exchange_plan +
                "; rank " + std::to_string(domain.rank()) +
                "'s block: " + (policy.steps() > 0 ? report.plan : std::string("nothing to run (0 steps)"));
  if (policy.knobs().print_plan && domain.rank() == 0) {
    std::printf("EbisuKokkos[%s]: %s\n", label.c_str(), report.plan.c_str());
  }
  return report;
}

template <class ExecSpace, class Stencil, int Rank, class ViewType, class FieldSet>
StencilReport run_buffers(const std::string& label, const CartesianDomain<Rank>& domain,
                          const StencilPolicy<ExecSpace>& policy, const Stencil& stencil,
                          DoubleBuffer<ViewType>& buffers, const FieldSet& fields) {
  static_assert(EbisuKokkos::Impl::view_rank<ViewType> == Rank,
                "EbisuKokkos::Mpi::parallel_stencil: the View's rank differs from the domain's");
  check_on_every_rank(domain.communicator(), domain.rank(), label, [&] {
    check_common<Rank, ExecSpace, Stencil>(label, domain, policy);
    EbisuKokkos::Impl::check_arguments<Stencil>(label, policy.steps(), buffers.current(), buffers.alternate());
    EbisuKokkos::Impl::check_fields(label, buffers.current(), buffers.alternate(), fields);
    check_local_extents(domain, buffers.current(), "parallel_stencil");
    check_field_extents(domain, fields);
  });
  if (policy.steps() > 0) exchange_fields(domain, policy.space(), fields);
  return run_rounds<Stencil>(
      label, domain, policy, [&] { exchange_halo_unchecked(domain, policy.space(), buffers.current()); },
      [&](const StencilPolicy<ExecSpace>& p) { return EbisuKokkos::parallel_stencil(label, p, stencil, buffers, fields); });
}

template <class ExecSpace, class Stencil, int Rank, class ViewType, class ScratchType, class FieldSet>
StencilReport run_pair(const std::string& label, const CartesianDomain<Rank>& domain,
                       const StencilPolicy<ExecSpace>& policy, const Stencil& stencil, const ViewType& u,
                       const ScratchType& scratch, const FieldSet& fields) {
  EbisuKokkos::Impl::check_types<ExecSpace, Stencil, ViewType, ScratchType>();
  using View = ContiguousView<ViewType>;
  DoubleBuffer<View> buffers{View(u), View(scratch)};
  const StencilReport report = run_buffers(label, domain, policy, stencil, buffers, fields);
  if (buffers.current().data() != u.data()) Kokkos::deep_copy(policy.space(), u, scratch);
  return report;
}

template <class ExecSpace, class Stencil, int Rank, class ViewType, int NumFields, int NumLevels, class FieldSet>
StencilReport run_state(const std::string& label, const CartesianDomain<Rank>& domain,
                        const StencilPolicy<ExecSpace>& policy, const Stencil& stencil,
                        State<ViewType, NumFields, NumLevels>& state, const FieldSet& fields) {
  static_assert(EbisuKokkos::Impl::view_rank<ViewType> == Rank,
                "EbisuKokkos::Mpi::parallel_stencil: the View's rank differs from the domain's");
  using Access = EbisuKokkos::Impl::StateAccess;
  const auto buffer = [&](int f, int j) -> const ViewType& {
    return j < NumLevels ? state.level(f, j) : Access::slot(state, f, 1);
  };
  check_on_every_rank(domain.communicator(), domain.rank(), label, [&] {
    check_common<Rank, ExecSpace, Stencil>(label, domain, policy);
    EbisuKokkos::Impl::check_state<ViewType>(label, NumFields, NumLevels, buffer, fields);
    EbisuKokkos::Impl::check_arguments<Stencil>(label, policy.steps(), buffer(0, 0), buffer(0, NumLevels));
    check_local_extents(domain, buffer(0, 0), "parallel_stencil");
    check_field_extents(domain, fields);
  });
  if (policy.steps() > 0) exchange_fields(domain, policy.space(), fields);
  return run_rounds<Stencil>(
      label, domain, policy,
      [&] {
        for (int f = 0; f < NumFields; ++f)
          for (int l = 0; l < NumLevels; ++l) exchange_halo_unchecked(domain, policy.space(), state.level(f, l));
      },
      [&](const StencilPolicy<ExecSpace>& p) { return EbisuKokkos::parallel_stencil(label, p, stencil, state, fields); });
}

}  // namespace Impl

/// u holds step 0 in its owned cells on entry and step T on return; scratch is a work View of the same extents.
template <class ExecSpace, class Stencil, int Rank, class ViewType, class ScratchType>
StencilReport parallel_stencil(const std::string& label, const CartesianDomain<Rank>& domain,
                               const StencilPolicy<ExecSpace>& policy, const Stencil& stencil, const ViewType& u,
                               const ScratchType& scratch) {
  return Impl::run_pair(label, domain, policy, stencil, u, scratch, Fields<>{});
}

template <class ExecSpace, class Stencil, int Rank, class ViewType, class ScratchType, class... Fs>
StencilReport parallel_stencil(const std::string& label, const CartesianDomain<Rank>& domain,
                               const StencilPolicy<ExecSpace>& policy, const Stencil& stencil, const ViewType& u,
                               const ScratchType& scratch, const Fields<Fs...>& fields) {
  return Impl::run_pair(label, domain, policy, stencil, u, scratch, fields);
}

/// buffers.current() holds step T on return (the selector flips instead of copying).
template <class ExecSpace, class Stencil, int Rank, class ViewType>
StencilReport parallel_stencil(const std::string& label, const CartesianDomain<Rank>& domain,
                               const StencilPolicy<ExecSpace>& policy, const Stencil& stencil,
                               DoubleBuffer<ViewType>& buffers) {
  return Impl::run_buffers(label, domain, policy, stencil, buffers, Fields<>{});
}

template <class ExecSpace, class Stencil, int Rank, class ViewType, class... Fs>
StencilReport parallel_stencil(const std::string& label, const CartesianDomain<Rank>& domain,
                               const StencilPolicy<ExecSpace>& policy, const Stencil& stencil,
                               DoubleBuffer<ViewType>& buffers, const Fields<Fs...>& fields) {
  return Impl::run_buffers(label, domain, policy, stencil, buffers, fields);
}

/// Several state fields and/or time levels (state.hpp); every level is exchanged each round.
template <class ExecSpace, class Stencil, int Rank, class ViewType, int NumFields, int NumLevels>
StencilReport parallel_stencil(const std::string& label, const CartesianDomain<Rank>& domain,
                               const StencilPolicy<ExecSpace>& policy, const Stencil& stencil,
                               State<ViewType, NumFields, NumLevels>& state) {
  return Impl::run_state(label, domain, policy, stencil, state, Fields<>{});
}

template <class ExecSpace, class Stencil, int Rank, class ViewType, int NumFields, int NumLevels, class... Fs>
StencilReport parallel_stencil(const std::string& label, const CartesianDomain<Rank>& domain,
                               const StencilPolicy<ExecSpace>& policy, const Stencil& stencil,
                               State<ViewType, NumFields, NumLevels>& state, const Fields<Fs...>& fields) {
  return Impl::run_state(label, domain, policy, stencil, state, fields);
}

}  // namespace Mpi
}  // namespace EbisuKokkos

#endif
