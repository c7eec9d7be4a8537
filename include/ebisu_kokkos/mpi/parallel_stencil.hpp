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
// values too, centre_only fields included). Where the domain splits one axis,
// a round may instead overlap its exchange with the block's steps and then
// recompute the strips next to the split sides (impl/mpi/overlapped_round.hpp;
// DomainOptions::overlap, measured on GPUs by default).
//
// Same call forms as the single-rank API: (u, scratch), DoubleBuffer, State,
// each with or without fields(...). On return the owned cells hold step T;
// ghost cells hold unspecified values. Bad arguments on any rank make every
// rank throw before anything is exchanged or computed.

#include <ebisu_kokkos/double_buffer.hpp>
#include <ebisu_kokkos/fields.hpp>
#include <ebisu_kokkos/impl/mpi/overlapped_round.hpp>
#include <ebisu_kokkos/impl/validate.hpp>
#include <ebisu_kokkos/mpi/cartesian_domain.hpp>
#include <ebisu_kokkos/mpi/transfer.hpp>
#include <ebisu_kokkos/parallel_stencil.hpp>
#include <ebisu_kokkos/policy.hpp>
#include <ebisu_kokkos/state.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <climits>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

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

/// What a domain remembers of the measured choice between exchange-then-compute
/// and overlapped rounds, per stencil and call form. The choice is made over the
/// first full rounds (of one call or several): one plain and one overlapped round
/// to warm up each form's plans and buffers, then kTimed of each, alternating; the
/// ranks agree on the form whose slowest rank had the shorter fastest round. (The
/// fastest, because the first transfers can be slower than the rest: a CUDA-aware
/// Open MPI sends its first messages between two GPUs through the host until its
/// IPC handshake is done.)
struct OverlapChoice {
  static constexpr int kTimed = 4;
  static constexpr int kTrialRounds = 2 + 2 * kTimed;
  int trial_rounds = 0;  ///< full rounds of the trial so far
  bool overlap = false;
  double plain_seconds = 1e30, overlapped_seconds = 1e30;  ///< fastest round of each, the slowest rank's
  double exchange_seconds = 1e30;                          ///< fastest exchange of the plain rounds (it fences)
  bool decided() const { return trial_rounds >= kTrialRounds; }
  /// Whether trial round t overlaps (warm-ups 0 and 1, then alternating).
  static bool overlaps_in_trial(int t) { return t % 2 == 1; }
};
template <class Stencil, class Strip>
struct OverlapChoiceOf : OverlapChoice {};

inline std::string milliseconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g ms", 1e3 * s);
  return text;
}

/// The rounds. Each round exchanges the state's ghost zones and runs up to k
/// steps on the local View, one after the other (exchange_state(), then the
/// local run) or overlapped (overlapped_round.hpp). ExchangeOverlap::automatic
/// overlaps only where the steps run asynchronously to the host (GPUs) and it
/// measured faster (OverlapChoice); the domain remembers the choice for the
/// stencil and call form.
template <class Stencil, int Rank, class ExecSpace, class LocalState, class Strip, class FieldSet, class LevelsOf,
          class MakeStrip, class ExchangeState>
StencilReport run_rounds(const std::string& label, const CartesianDomain<Rank>& domain,
                         const StencilPolicy<ExecSpace>& policy, const Stencil& stencil, LocalState& local,
                         const FieldSet& fields, const LevelsOf& levels_of, const MakeStrip& make_strip,
                         const ExchangeState& exchange_state) {
  // Steps one exchange serves (all of them when no side faces another rank).
  const int k = domain.has_neighbours() ? static_cast<int>(domain.ghost_width() / Stencil::radius)
                                        : std::max(policy.steps(), 1);
  const StencilPolicy<ExecSpace> local_p = local_policy(policy, domain.local_boundaries());
  const auto run_local = [&](int steps) {
    return EbisuKokkos::parallel_stencil(label, local_p.with_steps(steps), stencil, local, fields);
  };

  // Whether and why rounds overlap.
  constexpr bool asynchronous =
      !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
  const std::string refusal = overlap_refusal(domain);
  const ExchangeOverlap mode = domain.overlap();
  OverlapChoice& choice = domain.halo_cache().template get<OverlapChoiceOf<Stencil, Strip>>(
      [] { return OverlapChoiceOf<Stencil, Strip>{}; });
  const bool can_overlap = domain.has_neighbours() && refusal.empty() && mode != ExchangeOverlap::off &&
                           (mode == ExchangeOverlap::on || asynchronous);
  const bool trial = can_overlap && mode == ExchangeOverlap::automatic && !choice.decided();
  const auto overlaps = [&](int steps) {
    if (!can_overlap) return false;
    if (mode == ExchangeOverlap::on) return true;
    if (!choice.decided()) return steps == k && OverlapChoice::overlaps_in_trial(choice.trial_rounds);
    return choice.overlap;
  };

  using Rounds = StripRounds<Rank, Strip, typename LocalState::view_type>;
  Rounds* strips = nullptr;
  using StripFields = decltype(strip_fields(policy.space(), fields, Box{}));
  std::array<std::optional<StripFields>, 2> strip_f;
  StencilPolicy<ExecSpace> strip_p = local_p;
  const auto overlapped_round = [&](int steps) {
    if (!strips) {
      strips = &domain.halo_cache().template get<Rounds>([&] {
        return Rounds(domain, static_cast<int>(levels_of(local).size()), make_strip);
      });
      for (int s = 0; s < 2; ++s)
        if (strips->strip(s)) strip_f[s].emplace(strip_fields(policy.space(), fields, strips->geometry(s).strip));
      strip_p.set_boundary(strips->axis(), Side::low, Boundary::fixed);
      strip_p.set_boundary(strips->axis(), Side::high, Boundary::fixed);
    }
    return strips->round(domain, policy.space(), local, levels_of, [&] { return run_local(steps); },
                         [&](int s) {
                           EbisuKokkos::parallel_stencil(label, strip_p.with_steps(steps), stencil,
                                                         *strips->strip(s), *strip_f[s]);
                         });
  };

  StencilReport report;
  int launches = 0, exchanges = 0, overlapped = 0;
  for (int done = 0; done < policy.steps();) {
    const int steps = std::min(k, policy.steps() - done);
    const bool in_trial = trial && !choice.decided() && steps == k;
    const bool timed = in_trial && choice.trial_rounds >= 2;
    if (timed) policy.space().fence();
    const auto start = std::chrono::steady_clock::now();
    if (overlaps(steps)) {
      report = overlapped_round(steps);
      ++overlapped;
    } else {
      if (domain.has_neighbours()) exchange_state();
      if (timed) {
        choice.exchange_seconds = std::min(
            choice.exchange_seconds, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      }
      report = run_local(steps);
    }
    if (timed) {
      policy.space().fence();
      double& fastest = OverlapChoice::overlaps_in_trial(choice.trial_rounds) ? choice.overlapped_seconds
                                                                               : choice.plain_seconds;
      fastest = std::min(fastest, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    if (in_trial && ++choice.trial_rounds == OverlapChoice::kTrialRounds) {
      const double mine[3] = {choice.plain_seconds, choice.overlapped_seconds, choice.exchange_seconds};
      double slowest[3] = {0, 0, 0};
      check_mpi(MPI_Allreduce(mine, slowest, 3, MPI_DOUBLE, MPI_MAX, domain.communicator()),
                "MPI_Allreduce (overlap choice)");
      choice.plain_seconds = slowest[0];
      choice.overlapped_seconds = slowest[1];
      choice.exchange_seconds = slowest[2];
      choice.overlap = slowest[1] < 0.97 * slowest[0];
    }
    exchanges += domain.has_neighbours() ? 1 : 0;
    launches += report.launches;
    done += steps;
  }
  report.launches = launches;
  std::string dims;
  for (int a = 0; a < Rank; ++a) dims += (a ? " x " : "") + std::to_string(domain.ranks_per_axis(a));
  std::string overlap_plan;
  if (domain.has_neighbours()) {
    const std::string measured = choice.decided() ? " (fastest measured round: " + milliseconds(choice.overlapped_seconds) +
                                                      " overlapped, " + milliseconds(choice.plain_seconds) + " not, " +
                                                      milliseconds(choice.exchange_seconds) + " of it the exchange)"
                                                : std::string();
    if (!refusal.empty()) {
      overlap_plan = "exchange then compute (no overlap: " + refusal + ")";
    } else if (mode == ExchangeOverlap::off) {
      overlap_plan = "exchange then compute (overlap off)";
    } else if (!can_overlap) {
      overlap_plan = "exchange then compute (the steps run on the calling thread: nothing to overlap with)";
    } else if (mode == ExchangeOverlap::on) {
      overlap_plan = "exchange overlapped with the interior's steps (overlap on)";
    } else if (!choice.decided()) {
      overlap_plan = "overlap being measured (" + std::to_string(choice.trial_rounds) + " of the " +
                     std::to_string(OverlapChoice::kTrialRounds) + " full rounds it takes so far)";
    } else {
      overlap_plan = choice.overlap ? "exchange overlapped with the interior's steps" + measured
                                    : "exchange then compute, overlap measured slower" + measured;
    }
    overlap_plan += ", " + std::to_string(overlapped) + " of " + std::to_string(exchanges) + " rounds overlapped";
  }
  const std::string exchange_plan =
      domain.has_neighbours() ? "ghost zones " + std::to_string(domain.ghost_width()) + " cells deep, " +
                                    std::to_string(exchanges) + " exchanges of up to " + std::to_string(k) +
                                    " steps each, " + overlap_plan
                              : std::string("no neighbours, no exchange");
  report.plan = "distributed over " + std::to_string(domain.size()) + " ranks (" + dims + "), " + exchange_plan +
                "; rank " + std::to_string(domain.rank()) +
                "'s block: " + (policy.steps() > 0 ? report.plan : std::string("nothing to run (0 steps)"));
  if (policy.knobs().print_plan && domain.rank() == 0) {
    std::printf("EbisuKokkos[%s]: %s\n", label.c_str(), report.plan.c_str());
  }
  return report;
}

/// A strip state's Views: contiguous, of the strip's extents.
template <class ViewType>
ContiguousView<ViewType> strip_view(const Box& box) {
  return allocate_box<ContiguousView<ViewType>>("EbisuKokkos::Mpi::strip", box);
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
  using Strip = DoubleBuffer<ContiguousView<ViewType>>;
  return run_rounds<Stencil, Rank, ExecSpace, DoubleBuffer<ViewType>, Strip>(
      label, domain, policy, stencil, buffers, fields,
      [](const auto& state) { return std::vector<std::decay_t<decltype(state.current())>>{state.current()}; },
      [](const Box& box) { return Strip(strip_view<ViewType>(box), strip_view<ViewType>(box)); },
      [&] { exchange_halo_unchecked(domain, policy.space(), buffers.current()); });
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

template <class StateType, std::size_t... K>
StateType make_state(const Box& box, std::index_sequence<K...>) {
  return StateType((static_cast<void>(K), strip_view<typename StateType::view_type>(box))...);
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
  using StripView = ContiguousView<ViewType>;
  using Strip = State<StripView, NumFields, NumLevels>;
  return run_rounds<Stencil, Rank, ExecSpace, State<ViewType, NumFields, NumLevels>, Strip>(
      label, domain, policy, stencil, state, fields,
      [](const auto& st) {
        std::vector<std::decay_t<decltype(st.current())>> levels;
        for (int f = 0; f < NumFields; ++f)
          for (int l = 0; l < NumLevels; ++l) levels.push_back(st.level(f, l));
        return levels;
      },
      [](const Box& box) {
        return make_state<Strip>(box, std::make_index_sequence<Strip::num_buffers>{});
      },
      [&] {
        for (int f = 0; f < NumFields; ++f)
          for (int l = 0; l < NumLevels; ++l) exchange_halo_unchecked(domain, policy.space(), state.level(f, l));
      });
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
