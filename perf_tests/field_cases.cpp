// The --field-cases benchmark rows (field_cases.hpp).

#include "field_cases.hpp"

#include "bench_case.hpp"

#include <Kokkos_Random.hpp>
#include <ebisu_kokkos/ebisu_kokkos.hpp>
#include <ebisu_kokkos/presets.hpp>

#include <algorithm>
#include <exception>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ebisu_bench {

const std::vector<std::string>& field_case_names() {
  static const std::vector<std::string> names{"heat2d-var", "heat3d-var", "j2d5pt-source", "j3d7pt-source"};
  return names;
}

namespace field_bench {

// Variable-coefficient heat, face conductivity = mean of the two cells:
// u' = u + dt/2 sum_faces (k_c + k_n)(u_n - u_c). The same expression for
// the stencil functor (Neighbors) and the plain loops (Views at i, j, l).
template <int Rank>
struct VariableHeat {
  double dt;
  template <class S>
  KOKKOS_INLINE_FUNCTION S operator()(const EbisuKokkos::Neighbors<S, Rank, 1>& u,
                                      const EbisuKokkos::Neighbors<S, Rank, 1>& k) const {
    const S c = u(0, 0, 0), kc = k(0, 0, 0);
    S sum = (k(-1, 0, 0) + kc) * (u(-1, 0, 0) - c) + (k(1, 0, 0) + kc) * (u(1, 0, 0) - c) +
            (k(0, -1, 0) + kc) * (u(0, -1, 0) - c) + (k(0, 1, 0) + kc) * (u(0, 1, 0) - c);
    if constexpr (Rank == 3) sum += (k(0, 0, -1) + kc) * (u(0, 0, -1) - c) + (k(0, 0, 1) + kc) * (u(0, 0, 1) - c);
    return c + S(0.5 * dt) * sum;
  }
};

template <class Scalar, int Rank>
struct HeatPhysics {
  Scalar half_dt;
  template <class In>
  KOKKOS_FORCEINLINE_FUNCTION Scalar operator()(const In& u, const In& k, int i, int j, int l) const {
    if constexpr (Rank == 2) {
      const Scalar c = u(i, j), kc = k(i, j);
      return c + half_dt * ((k(i - 1, j) + kc) * (u(i - 1, j) - c) + (k(i + 1, j) + kc) * (u(i + 1, j) - c) +
                            (k(i, j - 1) + kc) * (u(i, j - 1) - c) + (k(i, j + 1) + kc) * (u(i, j + 1) - c));
    } else {
      const Scalar c = u(i, j, l), kc = k(i, j, l);
      return c + half_dt * ((k(i - 1, j, l) + kc) * (u(i - 1, j, l) - c) + (k(i + 1, j, l) + kc) * (u(i + 1, j, l) - c) +
                            (k(i, j - 1, l) + kc) * (u(i, j - 1, l) - c) + (k(i, j + 1, l) + kc) * (u(i, j + 1, l) - c) +
                            (k(i, j, l - 1) + kc) * (u(i, j, l - 1) - c) + (k(i, j, l + 1) + kc) * (u(i, j, l + 1) - c));
    }
  }
};

// The preset's weighted sum plus f at the cell, offsets unrolled at compile time.
template <class Points, class Scalar, int Rank>
struct SourcePhysics {
  Kokkos::Array<Scalar, Points::size> c;
  template <class In, int K>
  KOKKOS_FORCEINLINE_FUNCTION Scalar term(const In& u, int i, int j, int l) const {
    using P = EbisuKokkos::Impl::Point<Points, K>;
    if constexpr (Rank == 2) {
      return c[K] * u(i + P::d0, j + P::d1);
    } else {
      return c[K] * u(i + P::d0, j + P::d1, l + P::d2);
    }
  }
  template <class In, int... K>
  KOKKOS_FORCEINLINE_FUNCTION Scalar sum(const In& u, int i, int j, int l, std::integer_sequence<int, K...>) const {
    return (term<In, K>(u, i, j, l) + ...);
  }
  template <class In>
  KOKKOS_FORCEINLINE_FUNCTION Scalar operator()(const In& u, const In& f, int i, int j, int l) const {
    const Scalar s = sum(u, i, j, l, std::make_integer_sequence<int, Points::size>{});
    if constexpr (Rank == 2) {
      return s + f(i, j);
    } else {
      return s + f(i, j, l);
    }
  }
};

struct Flat {};

// One time step of a plain loop: out = physics(in, field) over the interior.
template <class Physics, class View>
struct FieldStep {
  using In = typename View::const_type;
  static constexpr int rank = View::rank;
  static constexpr bool left = std::is_same_v<typename View::array_layout, Kokkos::LayoutLeft>;
  In in, field;
  View out;
  Physics physics;
  Kokkos::Array<int, 3> inner;  // interior extents in View index order

  KOKKOS_FORCEINLINE_FUNCTION void operator()(int i, int j) const { out(i, j) = physics(in, field, i, j, 0); }
  KOKKOS_FORCEINLINE_FUNCTION void operator()(int i, int j, int l) const { out(i, j, l) = physics(in, field, i, j, l); }
  // Flattened interior, the contiguous index fastest.
  KOKKOS_FORCEINLINE_FUNCTION void operator()(Flat, long idx) const {
    int c[3] = {0, 0, 0};
    for (int a = 0; a < rank; ++a) {
      const int axis = left ? a : rank - 1 - a;
      c[axis] = static_cast<int>(idx % inner[axis]) + 1;
      idx /= inner[axis];
    }
    if constexpr (rank == 2) {
      out(c[0], c[1]) = physics(in, field, c[0], c[1], 0);
    } else {
      out(c[0], c[1], c[2]) = physics(in, field, c[0], c[1], c[2]);
    }
  }
};

template <int Rank, bool Left>
using MDPolicy = Kokkos::MDRangePolicy<
    Kokkos::Rank<Rank, Left ? Kokkos::Iterate::Left : Kokkos::Iterate::Right, Left ? Kokkos::Iterate::Left : Kokkos::Iterate::Right>,
    Kokkos::IndexType<int>>;

// Tiles, the contiguous index first (empty: Kokkos' default).
inline std::vector<std::vector<int>> tiles(int rank) {
  if (rank == 2) return {{}, {32, 4}, {64, 4}, {128, 2}, {256, 1}};
  return {{}, {32, 4, 1}, {32, 4, 2}, {64, 4, 1}, {128, 2, 1}};
}

inline std::string tile_name(const std::vector<int>& t) {
  if (t.empty()) return "mdrange-default";
  std::string s = "mdrange-tile-";
  for (size_t a = 0; a < t.size(); ++a) s += (a ? "x" : "") + std::to_string(t[a]);
  return s;
}

template <class Scalar, int Rank, class Physics, class Stencil, class FieldArg>
CaseResult run_case(const std::string& name, int points, int flops, const Physics& physics, const Stencil& stencil,
                    FieldArg make_field_argument, Scalar field_lo, Scalar field_hi, const Options& o,
                    const RunInfo& info) {
  using Space = Kokkos::DefaultExecutionSpace;
  using View = DomainView<Scalar, Rank>;
  constexpr bool left = std::is_same_v<typename View::array_layout, Kokkos::LayoutLeft>;
  const double tol = std::is_same_v<Scalar, double> ? 1e-10 : 1e-4;
  const int steps = info.steps;

  long e[3];
  CaseResult c = describe_case(name, Rank, 1, points, flops, domain_of(Rank == 2 ? "j2d5pt" : "j3d7pt", Rank, o),
                               left, o, info, e);
  std::printf("== %s (%s, read-only field) domain %s, T=%d, reps=%d\n", name.c_str(), o.precision.c_str(),
              domain_text(c.domain).c_str(), steps, o.reps);
  std::fflush(stdout);

  View input = make_view<View>("field_bench::input", e);
  View field = make_view<View>("field_bench::field", e);
  View u = make_view<View>("field_bench::u", e);
  View scratch = make_view<View>("field_bench::scratch", e);
  View ref = make_view<View>("field_bench::reference", e);
  {
    Kokkos::Random_XorShift64_Pool<Space> pool(20261124u + static_cast<unsigned>(name.size()));
    Kokkos::fill_random(input, pool, Scalar(0.5), Scalar(1.5));
    Kokkos::fill_random(field, pool, field_lo, field_hi);
    Kokkos::fence();
  }
  const long n = static_cast<long>(c.cells);
  const typename View::const_type field_c = field;
  auto reset = [&] {
    Kokkos::deep_copy(u, input);
    Kokkos::deep_copy(scratch, input);  // the frame of the second buffer
  };
  Kokkos::Array<int, 3> inner{1, 1, 1};
  for (int a = 0; a < Rank; ++a) inner[a] = static_cast<int>(e[a]) - 2;

  std::vector<Variant> variants;
  // Plain Kokkos: one dispatch per step and a swap.
  using Step = FieldStep<Physics, View>;
  for (const auto& t : tiles(Rank)) {
    Variant v;
    v.name = tile_name(t);
    v.family = "plain-kokkos";
    v.reset = reset;
    v.run = [&, t] {
      View a = u, b = scratch;
      MDPolicy<Rank, left> policy;
      if constexpr (Rank == 2) {
        policy = t.empty() ? MDPolicy<Rank, left>({1, 1}, {inner[0] + 1, inner[1] + 1})
                           : MDPolicy<Rank, left>({1, 1}, {inner[0] + 1, inner[1] + 1},
                                                  {left ? t[0] : t[1], left ? t[1] : t[0]});
      } else {
        policy = t.empty() ? MDPolicy<Rank, left>({1, 1, 1}, {inner[0] + 1, inner[1] + 1, inner[2] + 1})
                           : MDPolicy<Rank, left>({1, 1, 1}, {inner[0] + 1, inner[1] + 1, inner[2] + 1},
                                                  {left ? t[0] : t[2], t[1], left ? t[2] : t[0]});
      }
      for (int s = 0; s < steps; ++s) {
        Kokkos::parallel_for("field_bench::mdrange_step", policy, Step{a, field_c, b, physics, inner});
        std::swap(a, b);
      }
    };
    v.output = [&] { return static_cast<const void*>(steps % 2 == 0 ? u.data() : scratch.data()); };
    variants.push_back(v);
  }
  {
    Variant v;
    v.name = "range-interior";
    v.family = "plain-kokkos";
    v.reset = reset;
    v.run = [&] {
      View a = u, b = scratch;
      const long cells = static_cast<long>(c.interior_cells);
      for (int s = 0; s < steps; ++s) {
        Kokkos::parallel_for("field_bench::range_step", Kokkos::RangePolicy<Space, Flat, Kokkos::IndexType<long>>(0, cells),
                             Step{a, field_c, b, physics, inner});
        std::swap(a, b);
      }
    };
    v.output = [&] { return static_cast<const void*>(steps % 2 == 0 ? u.data() : scratch.data()); };
    variants.push_back(v);
  }
  const size_t plain_count = variants.size();
  // EbisuKokkos: the (u, scratch) form with the field; the result is in u.
  struct Form {
    std::string name;
    EbisuKokkos::Backend backend;
    EbisuKokkos::Strategy strategy;
    int depth;
    EbisuKokkos::SourceForm source_form = EbisuKokkos::SourceForm::automatic;
    int response_interval = 0;
    bool fresh_policy = false;  // what each call keeps is released before the next (a policy per call)
    int loop_calls_before = 0;  // calls of the loop before the timed ones (a long loop's steady state)
  };
  std::vector<Form> forms{{"parallel_stencil:generic", EbisuKokkos::Backend::generic, EbisuKokkos::Strategy::automatic, 0},
                          {"ebisu-sm", EbisuKokkos::Backend::ebisu, EbisuKokkos::Strategy::sm_tiling, 0},
                          {"ebisu-device", EbisuKokkos::Backend::ebisu, EbisuKokkos::Strategy::device_tiling, 0},
                          {"parallel_stencil:automatic", EbisuKokkos::Backend::automatic, EbisuKokkos::Strategy::automatic, 0}};
  if (Rank == 3) {
    forms.insert(forms.end() - 1, {"ebisu-in-place", EbisuKokkos::Backend::ebisu, EbisuKokkos::Strategy::in_place_tiling, 0});
  }
  for (int d : o.ebisu_depths) {  // what the model chooses from (--ebisu-depths)
    forms.push_back({"ebisu-sm-d" + std::to_string(d), EbisuKokkos::Backend::ebisu, EbisuKokkos::Strategy::sm_tiling, d});
  }
  if constexpr (EbisuKokkos::Impl::LinearPlusSource<Stencil>::value) {  // both forms of the source (SourceForm)
    for (const auto form : {EbisuKokkos::SourceForm::per_step, EbisuKokkos::SourceForm::response}) {
      forms.push_back({std::string("ebisu-sm-") + EbisuKokkos::to_string(form), EbisuKokkos::Backend::ebisu,
                       EbisuKokkos::Strategy::sm_tiling, 0, form});
    }
    // automatic as in a loop that builds a policy per call: nothing kept from the calls before.
    forms.push_back({"parallel_stencil:automatic-fresh-policy", EbisuKokkos::Backend::automatic,
                     EbisuKokkos::Strategy::automatic, 0, EbisuKokkos::SourceForm::automatic, 0, true});
    // automatic in a loop that has run 100 calls (the build's share follows the loop's length: 10^4 steps
    // in calls of 100), and the whole-call response forced.
    forms.push_back({"parallel_stencil:automatic-after-100-calls", EbisuKokkos::Backend::automatic,
                     EbisuKokkos::Strategy::automatic, 0, EbisuKokkos::SourceForm::automatic, 0, false, 100});
    forms.push_back({"ebisu-sm-response-whole-call", EbisuKokkos::Backend::ebisu, EbisuKokkos::Strategy::sm_tiling, 0,
                     EbisuKokkos::SourceForm::response, EbisuKokkos::response_over_whole_call});
    for (int every : o.response_intervals) {  // --response-intervals
      forms.push_back({"ebisu-sm-response-every-" + std::to_string(every), EbisuKokkos::Backend::ebisu,
                       EbisuKokkos::Strategy::sm_tiling, 0, EbisuKokkos::SourceForm::response, every});
    }
  }
  auto report = std::make_shared<EbisuKokkos::StencilReport>();
  for (const Form& f : forms) {
    Variant v;
    v.name = f.name;
    v.family = "ebisu-kokkos";
    v.reset = reset;
    constexpr bool ebisu_reads_fields =
        EbisuKokkos::Impl::backend_takes_fields<EbisuKokkos::Impl::EbisuBackend<Space, Stencil, View>>::value;
    if (f.backend == EbisuKokkos::Backend::ebisu && !ebisu_reads_fields) {
      v.skip_reason = "Backend::ebisu does not read fields on this execution space (rank, scalar, layout)";
    }
    // One policy for all the variant's calls, as a time loop holds one: what it keeps between calls (the
    // source's response) is kept for the next repetition, which runs on the same fields.
    auto policy = std::make_shared<EbisuKokkos::StencilPolicy<Space>>(steps);
    policy->set_backend(f.backend).set_strategy(f.strategy).set_temporal_depth(f.depth).set_source_form(f.source_form);
    policy->set_response_interval(f.response_interval);
    const bool fresh = f.fresh_policy;
    const int loop_calls_before = f.loop_calls_before;
    auto looped = std::make_shared<bool>(false);
    v.run = [&, policy, report, fresh, loop_calls_before, looped] {
      if (fresh) policy->release_kept_memory();
      if (!*looped && loop_calls_before > 0) {
        // The loop's earlier calls, on copies (what the policy keeps depends on the fields, not on u).
        *looped = true;
        View a(Kokkos::view_alloc(std::string("loop_u")), u.layout());
        View b(Kokkos::view_alloc(std::string("loop_scratch")), u.layout());
        Kokkos::deep_copy(a, u);
        for (int call = 0; call < loop_calls_before; ++call) {
          EbisuKokkos::parallel_stencil(name, *policy, stencil, a, b, EbisuKokkos::fields(make_field_argument(field_c)));
        }
      }
      *report = EbisuKokkos::parallel_stencil(name, *policy, stencil, u, scratch,
                                              EbisuKokkos::fields(make_field_argument(field_c)));
    };
    v.output = [&] { return static_cast<const void*>(u.data()); };
    v.after_run = report_params(report);
    variants.push_back(v);
  }

  run_checked_variants<Scalar>(variants, plain_count, ref.data(), n, tol, o.reps, info, c);
  return c;
}

}  // namespace field_bench

template <class Scalar>
void run_field_cases(const Options& o, const RunInfo& info, std::vector<CaseResult>& results) {
  using namespace field_bench;
  auto wanted = [&](const char* name) {
    return std::find(o.field_cases.begin(), o.field_cases.end(), name) != o.field_cases.end();
  };
  auto whole = [](const auto& v) { return v; };
  auto centre = [](const auto& v) { return EbisuKokkos::centre_only(v); };
  // Conductivities in [0.5, 1.5]: dt keeps the update a convex combination. The update reads the
  // state and the conductivity at the star's points: declared, so the kernels keep only those.
  if (wanted("heat2d-var")) {
    const double dt = 0.1;
    const auto stencil = EbisuKokkos::make_stencil<2, 1, EbisuKokkos::StarShape>(VariableHeat<2>{dt});
    results.push_back(run_case<Scalar, 2>("heat2d-var", 5, 15, HeatPhysics<Scalar, 2>{Scalar(0.5 * dt)}, stencil,
                                          whole, Scalar(0.5), Scalar(1.5), o, info));
  }
  if (wanted("heat3d-var")) {
    const double dt = 0.08;
    const auto stencil = EbisuKokkos::make_stencil<3, 1, EbisuKokkos::StarShape>(VariableHeat<3>{dt});
    results.push_back(run_case<Scalar, 3>("heat3d-var", 7, 21, HeatPhysics<Scalar, 3>{Scalar(0.5 * dt)}, stencil,
                                          whole, Scalar(0.5), Scalar(1.5), o, info));
  }
  // Sources small against the state, so that the values stay bounded.
  auto source_case = [&](const std::string& name, const auto& preset, auto rank_tag) {
    constexpr int rank = decltype(rank_tag)::value;
    using Linear = std::decay_t<decltype(preset)>;
    SourcePhysics<typename Linear::points, Scalar, rank> physics;
    for (int k = 0; k < Linear::num_points; ++k) physics.c[k] = static_cast<Scalar>(preset.coefficient(k));
    results.push_back(run_case<Scalar, rank>(name, Linear::num_points, Linear::flops_per_cell + 1, physics,
                                             EbisuKokkos::with_source(preset), centre, Scalar(-0.01), Scalar(0.01), o,
                                             info));
  };
  if (wanted("j2d5pt-source")) source_case("j2d5pt-source", EbisuKokkos::presets::j2d5pt(), std::integral_constant<int, 2>{});
  if (wanted("j3d7pt-source")) source_case("j3d7pt-source", EbisuKokkos::presets::j3d7pt(), std::integral_constant<int, 3>{});
}

template void run_field_cases<double>(const Options&, const RunInfo&, std::vector<CaseResult>&);

// Double only: the targets are stated in fp64, and each precision costs the
// continuous integration's compile checks another translation unit's time.
template <>
void run_field_cases<float>(const Options& o, const RunInfo&, std::vector<CaseResult>&) {
  if (!o.field_cases.empty()) std::printf("field cases: double precision only (--precision float skips them)\n");
}

}  // namespace ebisu_bench
