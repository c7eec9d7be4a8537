#ifndef EBISU_KOKKOS_IMPL_CUDA_EBISU_CUDA_BACKEND_HPP
#define EBISU_KOKKOS_IMPL_CUDA_EBISU_CUDA_BACKEND_HPP

// The Kokkos::Cuda specialization of the EBISU backend hook: which problems
// the hand-written kernels take (rank 1: segment tiling, ebisu_1d.hpp), and
// the choice between the strategies for ranks 2 and 3: device tiling (one
// persistent launch, domain on chip: small and medium domains), in-place
// tiling (3-D, one state field: one persistent launch, one copy of the
// domain on chip, one grid barrier per step), SM tiling
// (one launch per `depth` steps streaming through the SMs: large domains)
// and, under Backend::automatic, the generic path (launch-bound tiny
// domains, single steps). A forced strategy runs if it
// can and otherwise falls back, saying why. Strategy::automatic ranks the
// plans by the model and, where the model cannot tell the best two apart,
// by timing them (measured_choice.hpp). Read-only fields (FieldViews) go to
// every strategy; several state fields or time levels (run_state) to device
// tiling and SM tiling, to segment tiling in 1-D.
// Included only by nvcc-compiled code.

#include <ebisu_kokkos/impl/compat.hpp>
#include <ebisu_kokkos/impl/cuda/ebisu_1d.hpp>
#include <ebisu_kokkos/impl/cuda/ebisu_2d.hpp>
#include <ebisu_kokkos/impl/cuda/ebisu_3d.hpp>
#include <ebisu_kokkos/impl/cuda/ebisu_device_tiling.hpp>
#include <ebisu_kokkos/impl/cuda/ebisu_in_place_tiling.hpp>
#include <ebisu_kokkos/impl/cuda/measured_choice.hpp>
#include <ebisu_kokkos/impl/ebisu_backend_fwd.hpp>
#include <ebisu_kokkos/impl/generic_backend.hpp>
#include <ebisu_kokkos/impl/state_ring.hpp>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <type_traits>
#include <vector>

namespace EbisuKokkos {
namespace Impl {

template <class Stencil, class ViewType>
inline constexpr bool cuda_kernels_take_view =
    Stencil::radius <= 2 && is_accessible_from<Kokkos::Cuda, typename ViewType::memory_space> &&
    (std::is_same_v<typename ViewType::non_const_value_type, double> ||
     std::is_same_v<typename ViewType::non_const_value_type, float>) &&
    (std::is_same_v<typename ViewType::array_layout, Kokkos::LayoutLeft> ||
     std::is_same_v<typename ViewType::array_layout, Kokkos::LayoutRight>);

template <class Stencil, class ViewType>
inline constexpr bool cuda_kernels_support =
    (view_rank<ViewType> == 2 || view_rank<ViewType> == 3) && cuda_kernels_take_view<Stencil, ViewType>;

// The kernels compute the cells beyond a mirror side from the reflected
// field instead of refilling them every step: that is the generic path's
// answer only for an update that is unchanged by the reflection.
template <int Rank, class Stencil>
std::string cuda_mirror_refusal(const StencilPolicy<Kokkos::Cuda>& policy, const Stencil& stencil) {
  for (int a = 0; a < Rank; ++a) {
    const Boundary* side = policy.boundaries().side[a];
    if ((side[0] == Boundary::mirror || side[1] == Boundary::mirror) && !stencil.is_mirror_symmetric(a)) {
      return "a mirror side on index " + std::to_string(a) +
             " needs a stencil that is mirror symmetric along it (a linear stencil with equal coefficients on "
             "mirrored points, or a functor stencil.declare_mirror_symmetric())";
    }
  }
  return "";
}

/// Rank 1: segment tiling (one launch per `depth` steps), whatever the
/// strategy knob says, for one field, read-only fields and several state
/// fields or time levels alike.
template <class Stencil, class ViewType>
struct EbisuBackend<Kokkos::Cuda, Stencil, ViewType,
                    std::enable_if_t<view_rank<ViewType> == 1 && cuda_kernels_take_view<Stencil, ViewType>>> {
  static constexpr bool available = true;
  static constexpr bool takes_boundary_rules = true;
  static constexpr bool takes_fields = true;
  static constexpr bool takes_state = true;
  static std::string boundary_refusal(const StencilPolicy<Kokkos::Cuda>& policy, const Stencil& stencil) {
    return cuda_mirror_refusal<1>(policy, stencil);
  }
  static StencilOutcome run(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                            const Stencil& stencil, const ViewType& u, const ViewType& scratch) {
    return Cuda::Segments1D<Stencil, ViewType>::run(label, policy, stencil, u, scratch);
  }
  /// fields: the call's read-only fields (FieldViews of ViewType::const_type).
  template <class FieldSet>
  static StencilOutcome run(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                            const Stencil& stencil, const ViewType& u, const ViewType& scratch, const FieldSet& fields) {
    using Kernel = typename Cuda::Segments1DFor<Stencil, ViewType, FieldSet>::type;
    return Kernel::run(label, policy, stencil, u, scratch, fields);
  }
  template <int NumFields, int RingSize, class FieldSet>
  static StencilOutcome run_state(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                                  const Stencil& stencil, const StateRing<ViewType, NumFields, RingSize>& ring,
                                  const FieldSet& fields) {
    constexpr int levels = RingSize - 1;
    using StepSet = StateStepFields<Stencil, typename ViewType::const_type, NumFields * levels - 1, FieldSet>;
    using Kernel = typename Cuda::Segments1DFor<Stencil, ViewType, StepSet, NumFields, levels>::type;
    return Kernel::run_state(label, policy, stencil, ring.buffers, fields);
  }
};

template <class Stencil, class ViewType>
struct EbisuBackend<Kokkos::Cuda, Stencil, ViewType, std::enable_if_t<cuda_kernels_support<Stencil, ViewType>>> {
  static constexpr bool available = true;
  static constexpr int rank = view_rank<ViewType>;
  // Periodic and mirror sides act in the kernels' loads (AxisRules).
  static constexpr bool takes_boundary_rules = true;
  // run() with FieldViews: device tiling keeps the fields on chip, 2-D SM tiling streams them through
  // shared-memory row queues, 3-D SM tiling through plane queues (footprint fields), a per-thread
  // ring (one centre-only field) or the read-only data cache (further centre-only fields).
  static constexpr bool takes_fields = true;
  template <class FieldSet>
  using DeviceTilingOf = typename Cuda::DeviceTilingFor<Stencil, ViewType, FieldSet>::type;
  template <class FieldSet>
  using SmTilingOf = typename std::conditional_t<rank == 2, Cuda::SmTiling2DFor<Stencil, ViewType, FieldSet>,
                                                 Cuda::SmTiling3DFor<Stencil, ViewType, FieldSet>>::type;
  using SmTiling = SmTilingOf<NoFields>;
  template <class FieldSet>
  using InPlaceTilingOf = typename Cuda::InPlaceTilingFor<Stencil, ViewType, FieldSet>::type;
  using Candidate = Cuda::Candidate;
  using Policy = StencilPolicy<Kokkos::Cuda>;

  static std::string boundary_refusal(const Policy& policy, const Stencil& stencil) {
    return cuda_mirror_refusal<rank>(policy, stencil);
  }

  // Every strategy's plan for one call.
  template <class FieldSet>
  struct Plans {
    typename SmTilingOf<FieldSet>::Plan sm;
    typename SmTilingOf<FieldSet>::Plan sm_deeper;  ///< valid where automatic also times a deeper SM plan
    PlanDT device;
    PlanDT device_shallower[2];  ///< valid where automatic also times device tiling at PlanDT::shallower_depths
    PlanIPT in_place;  ///< 3-D, one state field
    double generic_seconds = 0;
  };

  // Backend::automatic with a free depth also considers SM tiling one usable depth deeper than the
  // model's choice (a measured-choice candidate where the two are close): the model underrates the
  // deeper plan on some sizes (H100: j2d5pt 8352^2 depth 8 chosen, depth 10 measured 10% faster;
  // j3d27pt 128^3 depth 2 chosen, depth 3 7% faster; docs/perf-notes-2d.md, perf-notes-3d.md).
  // Device tiling the other way: two shallower depths (PlanDT::shallower_depths).
  static Policy policy_at_depth(const Policy& policy, int depth) {
    Policy at = policy;
    at.set_temporal_depth(depth);
    return at;
  }
  static bool free_automatic(const Policy& policy) {
    return policy.backend() == Backend::automatic && policy.knobs().strategy == Strategy::automatic &&
           policy.knobs().temporal_depth == 0;
  }
  static Candidate device_shallower_candidate(int i) {
    return i == 0 ? Candidate::device_tiling_shallower : Candidate::device_tiling_shallowest;
  }

  // Why in-place tiling cannot take this call, before any plan ("" if it can).
  template <class FieldSet>
  static std::string in_place_refusal(const ViewType& u, const ViewType& scratch, const FieldSet& fields) {
    if constexpr (rank != 3) {
      return "in-place tiling is 3-D only";
    } else {
      for (int a = 0; a < rank; ++a) {
        if (u.stride(a) != scratch.stride(a)) return "u and scratch have different strides";
      }
      if constexpr (FieldSet::size > 0) {
        // The kernel loads the fields with 32-bit element offsets.
        for (int k = 0; k < FieldSet::size; ++k) {
          long last = 0;
          for (int a = 0; a < rank; ++a)
            last += (static_cast<long>(fields.views[k].extent(a)) - 1) * static_cast<long>(fields.views[k].stride(a));
          if (last >= std::numeric_limits<int>::max()) return "read-only field offsets beyond 32 bits";
        }
      }
      (void)fields;
      return "";
    }
  }

  template <class FieldSet>
  static Plans<FieldSet> plan_all(const Policy& policy, const ViewType& u, const ViewType& scratch, bool with_device,
                                  bool with_in_place, const FieldSet& fields) {
    Plans<FieldSet> p;
    if constexpr (rank == 2) {
      p.sm = SmTilingOf<FieldSet>::plan(policy, u);
    } else {
      p.sm = SmTilingOf<FieldSet>::plan(policy, u, fields);
    }
    if (p.sm.valid && p.sm.deeper_depth > 0 && policy.backend() == Backend::automatic &&
        policy.knobs().strategy == Strategy::automatic) {
      if constexpr (rank == 2) {
        p.sm_deeper = SmTilingOf<FieldSet>::plan(policy_at_depth(policy, p.sm.deeper_depth), u);
      } else {
        p.sm_deeper = SmTilingOf<FieldSet>::plan(policy_at_depth(policy, p.sm.deeper_depth), u, fields);
      }
    }
    p.device.why_not = "not considered";
    if (with_device) p.device = DeviceTilingOf<FieldSet>::plan(policy, u);
    for (int i = 0; i < 2; ++i) {
      const int depth = p.device.shallower_depths[i];
      if (p.device.valid && depth > 0 && free_automatic(policy))
        p.device_shallower[i] = DeviceTilingOf<FieldSet>::plan(policy_at_depth(policy, depth), u);
    }
    p.in_place.why_not = with_in_place ? in_place_refusal(u, scratch, fields) : "not considered";
    if (p.in_place.why_not.empty()) p.in_place = InPlaceTilingOf<FieldSet>::plan(policy, u);
    // The generic step is memory-bound: each field adds one read per cell to the state's read and write.
    p.generic_seconds = SmTiling::generic_seconds(policy, u) * (2.0 + FieldSet::size) / 2.0;
    return p;
  }

  static double interior_cells(const ViewType& u) {
    double cells = 1;
    for (int a = 0; a < rank; ++a) cells *= static_cast<double>(u.extent(a)) - 2 * Stencil::radius;
    return cells;
  }

  // The generic path's own step form first, then, unless the policy fixes
  // it, the other tiled one and (3-D) the flat one.
  static std::vector<Candidate> generic_forms(const Policy& policy, const ViewType& u) {
    long interior = 1;
    for (int a = 0; a < rank; ++a) interior *= static_cast<long>(u.extent(a)) - 2 * Stencil::radius;
    const GenericStep knob = policy.knobs().generic_step;
    const GenericStep own = generic_step_form(policy.space(), interior, knob);
    std::vector<Candidate> forms{Cuda::candidate_of(own)};
    if (knob == GenericStep::automatic) {
      forms.push_back(own == GenericStep::tiled_4cells ? Candidate::generic_1cell : Candidate::generic_4cells);
      if (rank == 3) forms.push_back(Candidate::generic_flat);
    }
    return forms;
  }

  // The candidates of Strategy::automatic, fastest predicted first. In 3-D, SM
  // tiling must beat the generic path by kSmTilingMargin3D and device tiling
  // by kDeviceTilingMargin3D (both models are optimistic on mid-size domains,
  // docs/perf-notes-3d.md, perf-notes-device-tiling.md). The generic path's
  // forms share one prediction; its own default comes first.
  template <class FieldSet>
  static std::vector<Cuda::CandidatePlan> ranked_candidates(const Policy& policy, const ViewType& u,
                                                            const Plans<FieldSet>& p) {
    std::vector<Cuda::CandidatePlan> c;
    const double sm_margin = rank == 3 ? kSmTilingMargin3D : 1.0;
    if (p.sm.valid) c.push_back({Candidate::sm_tiling, p.sm.predicted_seconds * sm_margin, p.sm.predicted_seconds});
    if (p.sm_deeper.valid) {
      c.push_back({Candidate::sm_tiling_deeper, p.sm_deeper.predicted_seconds * sm_margin, p.sm_deeper.predicted_seconds});
    }
    const double device_margin = rank == 3 ? kDeviceTilingMargin3D : 1.0;
    if (p.device.valid) {
      c.push_back({Candidate::device_tiling, p.device.predicted_seconds * device_margin, p.device.predicted_seconds});
    }
    for (int i = 0; i < 2; ++i) {
      const PlanDT& d = p.device_shallower[i];
      if (d.valid) c.push_back({device_shallower_candidate(i), d.predicted_seconds * device_margin, d.predicted_seconds});
    }
    if (p.in_place.valid) {
      c.push_back({Candidate::in_place_tiling, p.in_place.predicted_seconds, p.in_place.predicted_seconds});
    }
    if (policy.backend() == Backend::automatic || c.empty()) {
      for (Candidate g : generic_forms(policy, u)) c.push_back({g, p.generic_seconds, p.generic_seconds});
    }
    std::stable_sort(c.begin(), c.end(), [](const Cuda::CandidatePlan& a, const Cuda::CandidatePlan& b) {
      return a.predicted_seconds < b.predicted_seconds;
    });
    return c;
  }

  template <class FieldSet>
  static StencilOutcome run_candidate(Candidate c, const std::string& label, const Policy& policy,
                                      const Stencil& stencil, const ViewType& u, const ViewType& scratch,
                                      const Plans<FieldSet>& p, const FieldSet& fields) {
    switch (c) {
      case Candidate::device_tiling:
        return DeviceTilingOf<FieldSet>::run(label, policy, stencil, u, scratch, p.device, fields);
      case Candidate::device_tiling_shallower:
      case Candidate::device_tiling_shallowest: {
        const int i = c == Candidate::device_tiling_shallower ? 0 : 1;
        if (!p.device_shallower[i].valid)
          return DeviceTilingOf<FieldSet>::run(label, policy, stencil, u, scratch, p.device, fields);
        return DeviceTilingOf<FieldSet>::run(label, policy_at_depth(policy, p.device.shallower_depths[i]), stencil, u,
                                             scratch, p.device_shallower[i], fields);
      }
      case Candidate::in_place_tiling:
        // (A candidate only where in_place_refusal allowed it: rank 3.)
        if constexpr (rank == 3) {
          return InPlaceTilingOf<FieldSet>::run(label, policy, stencil, u, scratch, p.in_place, fields);
        }
        break;
      case Candidate::sm_tiling:
        return SmTilingOf<FieldSet>::run(label, policy, stencil, u, scratch, p.sm, fields);
      case Candidate::sm_tiling_deeper:
        if (!p.sm_deeper.valid) return SmTilingOf<FieldSet>::run(label, policy, stencil, u, scratch, p.sm, fields);
        return SmTilingOf<FieldSet>::run(label, policy_at_depth(policy, p.sm.deeper_depth), stencil, u, scratch,
                                         p.sm_deeper, fields);
      case Candidate::generic_1cell:
      case Candidate::generic_4cells:
      case Candidate::generic_flat: break;
    }
    Policy generic_policy = policy;
    generic_policy.set_generic_step(Cuda::generic_step_of(c));
    StencilOutcome generic = run_generic(label, generic_policy, stencil, u, scratch, fields);
    generic.report.plan = "generic (" + generic.report.plan + ")";
    return generic;
  }

  static std::string predictions(const std::vector<Cuda::CandidatePlan>& c, double cells) {
    std::string s = "automatic: predicted";
    char buf[64];
    for (const auto& k : c) {
      std::snprintf(buf, sizeof buf, " %s %.1f GCells/s", Cuda::to_string(k.candidate),
                    k.predicted_seconds > 0 ? cells / k.predicted_seconds * 1e-9 : 0.0);
      s += buf;
    }
    return s;
  }

  // Strategy::automatic: the model's best, or the measured best of the close
  // candidates; the reason goes into the report.
  template <class FieldSet>
  static Candidate choose(const std::string& label, const Policy& policy, const Stencil& stencil, const ViewType& u,
                          const ViewType& scratch, const FieldSet& fields,
                          const std::vector<Cuda::CandidatePlan>& ranked, std::string& why) {
    const Selection selection = policy.knobs().selection;
    std::vector<Cuda::CandidatePlan> close;
    for (const auto& c : ranked) {
      if (selection == Selection::measured || Cuda::worth_timing(c, ranked.front())) close.push_back(c);
    }
    if (selection == Selection::model || close.size() < 2) return ranked.front().candidate;

    const std::string key = Cuda::measured_choice_key<Stencil>(policy, u) + "|" + typeid(FieldSet).name();
    Cuda::MeasuredChoice measured;
    if (Cuda::MeasuredChoiceCache::find(key, measured)) {
      why = "measured choice (cached for the process; " + measured.summary + ")";
      return measured.choice;
    }
    const std::string blocker = Cuda::measurement_blocker(policy.space(), u.size() * sizeof(typename ViewType::value_type));
    if (!blocker.empty()) {
      why = "model choice (not timed: " + blocker + ")";
      return ranked.front().candidate;
    }
    // Timing runs over at most kMeasureMinSteps.. steps, re-planned for that count.
    const int steps = Cuda::measurement_steps(policy.steps(), ranked.front().predicted_seconds);
    const Policy timed = policy.with_steps(steps);
    const Plans<FieldSet> timed_plans = plan_all<FieldSet>(timed, u, scratch, true, true, fields);
    std::vector<Cuda::CandidatePlan> timed_candidates;
    for (const auto& c : ranked_candidates(timed, u, timed_plans)) {
      for (const auto& k : close)
        if (k.candidate == c.candidate) timed_candidates.push_back(c);
    }
    if (timed_candidates.size() < 2) return ranked.front().candidate;
    Kokkos::Profiling::pushRegion("EbisuKokkos::measured_choice::" + label);
    measured = Cuda::measure_candidates(policy.space(), u, scratch, timed_candidates, steps,
                                        [&](Candidate c, const ViewType& a, const ViewType& b) {
                                          run_candidate(c, label, timed, stencil, a, b, timed_plans, fields);
                                        });
    Kokkos::Profiling::popRegion();
    Cuda::MeasuredChoiceCache::store(key, measured);
    why = "measured choice (" + measured.summary + ")";
    return measured.choice;
  }

  static StencilOutcome run(const std::string& label, const Policy& policy, const Stencil& stencil,
                            const ViewType& u, const ViewType& scratch) {
    return run(label, policy, stencil, u, scratch, NoFields{});
  }

  // Several state fields or time levels (state.hpp) go to device tiling
  // (each field's levels and spare as a ring of tiles on chip) or to SM tiling
  // (a register window and row / plane queue per field and step), whichever
  // the model predicts faster and, under Backend::automatic, only where that
  // beats the generic path; a forced strategy runs where it can, the other
  // kernel or the generic path otherwise, saying why.
  static constexpr bool takes_state = true;
  // 2-D: the generic path measured 1.28-2.14x faster than counted (H200, wave and Gray-Scott 1024^2 ..
  // 8192^2, most where the levels fit in L2) and SM tiling's model 5-24% optimistic. 3-D: the margin of
  // the single-field kernels; it sends 64^3 to the generic path and 128^3 .. 2560x288x384 to SM tiling,
  // which measured 1.11-1.91x the best plain loop there (H200, wave and Gray-Scott, perf-notes-3d.md).
  static constexpr double kStateGenericSpeedup = rank == 2 ? 1.45 : 1.0;
  static constexpr double kSmStateMargin = rank == 2 ? 1.6 : kSmTilingMargin3D;

  /// fields: the call's read-only fields (FieldViews of ViewType::const_type).
  template <int NumFields, int RingSize, class FieldSet>
  static StencilOutcome run_state(const std::string& label, const Policy& policy, const Stencil& stencil,
                                  const StateRing<ViewType, NumFields, RingSize>& ring, const FieldSet& fields) {
    constexpr int levels = RingSize - 1;
    using StepSet = StateStepFields<Stencil, typename ViewType::const_type, NumFields * levels - 1, FieldSet>;
    using DT = typename Cuda::DeviceTilingFor<Stencil, ViewType, StepSet, NumFields, levels>::type;
    using SM = typename std::conditional_t<rank == 2, Cuda::SmTiling2DFor<Stencil, ViewType, StepSet, NumFields, levels>,
                                           Cuda::SmTiling3DFor<Stencil, ViewType, StepSet, NumFields, levels>>::type;
    using Ring = StateRing<ViewType, NumFields, RingSize>;
    using SmPlan = typename SM::Plan;
    const ViewType& u = ring.buffers[0];
    const Strategy wanted = policy.knobs().strategy;
    const bool forced = policy.backend() == Backend::ebisu || wanted != Strategy::automatic;
    const double cells = interior_cells(u) * policy.steps();
    auto rate = [&](double seconds) { return seconds > 0 ? cells / seconds * 1e-9 : 0.0; };

    // Every strategy's plan for `p` (the call's, or a timing run's step count).
    struct StatePlans {
      PlanDT device;
      PlanDT device_shallower[2];  ///< as Plans::device_shallower
      SmPlan sm{};
      bool sm_valid = false;
      std::string sm_why;
      double generic_seconds = 0;
    };
    const auto plan_state = [&](const Policy& p) {
      StatePlans s;
      s.device.why_not = "no steps";
      if (p.steps() > 0) s.device = DT::plan(p, u);
      for (int i = 0; i < 2; ++i) {
        const int depth = s.device.shallower_depths[i];
        if (s.device.valid && depth > 0 && free_automatic(p)) s.device_shallower[i] = DT::plan(policy_at_depth(p, depth), u);
      }
      s.sm_why = p.steps() > 0 ? SM::state_refusal(ring.buffers) : "no steps";
      if (s.sm_why.empty()) {
        if constexpr (rank == 2) {
          s.sm = SM::plan(p, u);
        } else {
          s.sm = SM::plan(p, u, fields);
        }
        s.sm_valid = s.sm.valid;
        s.sm_why = s.sm.why_not;
      }
      // The generic step reads every level of every field and the read-only fields, and writes each field.
      s.generic_seconds =
          SmTiling::generic_seconds(p, u) * (NumFields * levels + NumFields + FieldSet::size) / 2.0;
      return s;
    };
    const auto run_choice = [&](Candidate c, const Policy& p, const StatePlans& s, const Ring& r) -> StencilOutcome {
      if (c == Candidate::device_tiling) return DT::run_state(label, p, stencil, r.buffers, s.device, fields);
      if (c == Candidate::device_tiling_shallower || c == Candidate::device_tiling_shallowest) {
        const int i = c == Candidate::device_tiling_shallower ? 0 : 1;
        if (!s.device_shallower[i].valid) return DT::run_state(label, p, stencil, r.buffers, s.device, fields);
        return DT::run_state(label, policy_at_depth(p, s.device.shallower_depths[i]), stencil, r.buffers,
                             s.device_shallower[i], fields);
      }
      if (c == Candidate::sm_tiling) return SM::run_state(label, p, stencil, r.buffers, s.sm, fields);
      StencilOutcome generic = run_generic_ring(label, p, stencil, r, fields);
      generic.report.plan = "generic (" + generic.report.plan + ")";
      return generic;
    };
    const StatePlans plans = plan_state(policy);
    const PlanDT& device = plans.device;
    const bool sm_valid = plans.sm_valid;
    const double sm_seconds = sm_valid ? plans.sm.predicted_seconds : 0.0;
    const double generic_seconds = plans.generic_seconds;
    char predicted[200];
    std::snprintf(predicted, sizeof predicted,
                  "predicted device-tiling %.1f GCells/s, SM tiling %.1f GCells/s, generic %.1f GCells/s",
                  device.valid ? rate(device.predicted_seconds) : 0.0, sm_valid ? rate(sm_seconds) : 0.0,
                  rate(generic_seconds));

    // Under Backend::automatic a kernel is a candidate only where it is predicted faster than the generic
    // path. Against SM tiling that prediction is scaled by what it measured (H200, wave and Gray-Scott
    // 1024^2 .. 8192^2: the generic path 1.28-2.14x faster than counted, most where the levels fit in L2),
    // and SM tiling must be kSmStateMargin faster (its model was 5-24% optimistic there). Device tiling's
    // model is pessimistic for older levels read at the centre only (wave 1024^2: 120 predicted, 246
    // measured) and keeps the comparison it was checked with. Of the candidates, the faster by the model
    // runs (the one asked for, where a strategy is forced and possible).
    const bool device_ok = device.valid && (forced || device.predicted_seconds < generic_seconds);
    const bool sm_ok = sm_valid && (forced || sm_seconds * kSmStateMargin < generic_seconds / kStateGenericSpeedup);
    Candidate chosen = Candidate::generic_1cell;
    if (device_ok && (!sm_ok || device.predicted_seconds <= sm_seconds)) chosen = Candidate::device_tiling;
    if (sm_ok && (!device_ok || sm_seconds < device.predicted_seconds)) chosen = Candidate::sm_tiling;
    if (wanted == Strategy::sm_tiling && sm_valid) chosen = Candidate::sm_tiling;
    if (wanted == Strategy::device_tiling && device.valid) chosen = Candidate::device_tiling;
    std::string why = "model choice";
    if (!forced && policy.knobs().selection != Selection::model) {
      // As for one field (choose): the candidates the margins above leave within kModelSureRatio of the
      // best (every one under Selection::measured) are timed once on copies of the ring's buffers, and
      // the fastest is remembered for the process.
      std::vector<Cuda::CandidatePlan> close;
      const double best = std::min({device.valid ? device.predicted_seconds : 1e300,
                                    sm_valid ? sm_seconds * kSmStateMargin : 1e300,
                                    generic_seconds / kStateGenericSpeedup});
      const auto consider = [&](Candidate c, double seconds) {
        if (policy.knobs().selection == Selection::measured || seconds <= best * Cuda::kModelSureRatio)
          close.push_back({c, seconds, seconds});
      };
      if (device.valid) consider(Candidate::device_tiling, device.predicted_seconds);
      for (int i = 0; i < 2; ++i) {
        const PlanDT& d = plans.device_shallower[i];
        if (d.valid) consider(device_shallower_candidate(i), d.predicted_seconds);
      }
      if (sm_valid) consider(Candidate::sm_tiling, sm_seconds * kSmStateMargin);
      consider(Candidate::generic_1cell, generic_seconds / kStateGenericSpeedup);
      if (close.size() >= 2) {
        const std::string key = Cuda::measured_choice_key<Stencil>(policy, u) + "|state " +
                                std::to_string(NumFields) + "x" + std::to_string(RingSize) + "|" +
                                typeid(FieldSet).name();
        Cuda::MeasuredChoice measured;
        const std::string blocker = Cuda::measurement_blocker(
            policy.space(), ring.buffers.size() * u.size() * sizeof(typename ViewType::value_type));
        if (Cuda::MeasuredChoiceCache::find(key, measured)) {
          chosen = measured.choice;
          why = "measured choice (cached for the process; " + measured.summary + ")";
        } else if (!blocker.empty()) {
          why = "model choice (not timed: " + blocker + ")";
        } else {
          const int steps = Cuda::measurement_steps(policy.steps(), best);
          const Policy timed = policy.with_steps(steps);
          const StatePlans timed_plans = plan_state(timed);
          std::vector<Cuda::CandidatePlan> timed_candidates;
          for (const auto& c : close) {
            if ((c.candidate == Candidate::device_tiling && !timed_plans.device.valid) ||
                (c.candidate == Candidate::device_tiling_shallower && !timed_plans.device_shallower[0].valid) ||
                (c.candidate == Candidate::device_tiling_shallowest && !timed_plans.device_shallower[1].valid) ||
                (c.candidate == Candidate::sm_tiling && !timed_plans.sm_valid))
              continue;
            timed_candidates.push_back(c);
          }
          if (timed_candidates.size() >= 2) {
            Kokkos::Profiling::pushRegion("EbisuKokkos::measured_choice::" + label);
            measured = Cuda::measure_state_candidates(policy.space(), ring, timed_candidates, steps,
                                                      [&](Candidate c, const Ring& copy) {
                                                        run_choice(c, timed, timed_plans, copy);
                                                      });
            Kokkos::Profiling::popRegion();
            Cuda::MeasuredChoiceCache::store(key, measured);
            chosen = measured.choice;
            why = "measured choice (" + measured.summary + ")";
          }
        }
      }
    }

    const std::string not_possible =
        (wanted == Strategy::in_place_tiling
             ? "in-place tiling not possible (several state fields or levels); "
             : "") +
        (device.valid ? "" : "device tiling not possible (" + device.why_not + "); ") +
        (sm_valid ? "" : "SM tiling not possible (" + plans.sm_why + "); ");
    StencilOutcome outcome = run_choice(chosen, policy, plans, ring);
    outcome.report.plan += "; " + not_possible + (forced ? std::string("forced; ") : std::string("automatic: ")) +
                           predicted + "; " + why;
    return outcome;
  }

  /// fields: the call's read-only fields (FieldViews of ViewType::const_type), or NoFields.
  template <class FieldSet>
  static StencilOutcome run(const std::string& label, const Policy& policy, const Stencil& stencil,
                            const ViewType& u, const ViewType& scratch, const FieldSet& fields) {
    if (policy.steps() == 0) {
      StencilOutcome none;
      none.report.backend = Backend::ebisu;
      none.report.strategy = Strategy::sm_tiling;
      none.report.temporal_depth = 0;
      none.report.launches = 0;
      none.report.plan = std::string(rank == 2 ? "ebisu-2d" : "ebisu-3d") + ": no steps";
      return none;
    }
    const Strategy wanted = policy.knobs().strategy;
    const bool consider_device = wanted == Strategy::device_tiling ||
                                 (wanted == Strategy::automatic && Cuda::device_tiling::kAutomaticConsidersDeviceTiling);
    const bool consider_in_place = wanted == Strategy::in_place_tiling || wanted == Strategy::automatic;
    const Plans<FieldSet> plans = plan_all<FieldSet>(policy, u, scratch, consider_device, consider_in_place, fields);

    if (wanted == Strategy::device_tiling && plans.device.valid) {
      return run_candidate(Candidate::device_tiling, label, policy, stencil, u, scratch, plans, fields);
    }
    if (wanted == Strategy::in_place_tiling && plans.in_place.valid) {
      return run_candidate(Candidate::in_place_tiling, label, policy, stencil, u, scratch, plans, fields);
    }
    if (wanted != Strategy::automatic) {
      // Forced SM tiling, or forced device tiling that cannot run: SM tiling,
      // or the generic path where no SM tiling fits either.
      const Candidate c = plans.sm.valid ? Candidate::sm_tiling : generic_forms(policy, u).front();
      StencilOutcome outcome = run_candidate(c, label, policy, stencil, u, scratch, plans, fields);
      if (!plans.sm.valid) outcome.report.plan += "; SM tiling not possible (" + plans.sm.why_not + ")";
      if (wanted == Strategy::device_tiling) {
        outcome.report.plan = "device tiling not possible (" + plans.device.why_not + "); " + outcome.report.plan;
      }
      if (wanted == Strategy::in_place_tiling) {
        outcome.report.plan =
            "in-place tiling not possible (" + plans.in_place.why_not + "); " + outcome.report.plan;
      }
      return outcome;
    }

    const std::vector<Cuda::CandidatePlan> ranked = ranked_candidates(policy, u, plans);
    std::string why = "model choice";
    const Candidate chosen = choose(label, policy, stencil, u, scratch, fields, ranked, why);
    StencilOutcome outcome = run_candidate(chosen, label, policy, stencil, u, scratch, plans, fields);
    const double cells = interior_cells(u) * policy.steps();
    outcome.report.plan += "; " + predictions(ranked, cells) + "; " + why;
    return outcome;
  }
};

}  // namespace Impl
}  // namespace EbisuKokkos

#endif
