// The --state-cases benchmark rows (state_cases.hpp).

#include "state_cases.hpp"

#include "bench_case.hpp"

#include <Kokkos_Random.hpp>
#include <ebisu_kokkos/ebisu_kokkos.hpp>

#include <algorithm>
#include <exception>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ebisu_bench {

const std::vector<std::string>& state_case_names() {
  static const std::vector<std::string> names{"wave1d", "wave2d", "wave3d", "gray-scott1d", "gray-scott2d", "gray-scott3d"};
  return names;
}

namespace state_bench {

// The physics once, for the stencil functors (Neighbors) and the plain loops
// (Views at a cell): read through `at(view, d0, d1, d2)`.
template <int Rank>
struct WavePhysics {
  double r2;
  template <class S, class At, class U, class UPrev>
  KOKKOS_FORCEINLINE_FUNCTION S update(const At& at, const U& u, const UPrev& u_prev) const {
    const S c = at(u, 0, 0, 0);
    S lap = at(u, -1, 0, 0) + at(u, 1, 0, 0) - S(2 * Rank) * c;
    if constexpr (Rank >= 2) lap += at(u, 0, -1, 0) + at(u, 0, 1, 0);
    if constexpr (Rank == 3) lap += at(u, 0, 0, -1) + at(u, 0, 0, 1);
    return S(2) * c - at(u_prev, 0, 0, 0) + S(r2) * lap;
  }
};
template <int Rank>
struct GrayScottPhysics {
  double du, dv, feed, kill, dt;
  template <class S, class At, class U>
  KOKKOS_FORCEINLINE_FUNCTION Kokkos::Array<S, 2> update(const At& at, const U& u, const U& v) const {
    const S uc = at(u, 0, 0, 0), vc = at(v, 0, 0, 0);
    S lu = at(u, -1, 0, 0) + at(u, 1, 0, 0) - S(2 * Rank) * uc;
    S lv = at(v, -1, 0, 0) + at(v, 1, 0, 0) - S(2 * Rank) * vc;
    if constexpr (Rank >= 2) {
      lu += at(u, 0, -1, 0) + at(u, 0, 1, 0);
      lv += at(v, 0, -1, 0) + at(v, 0, 1, 0);
    }
    if constexpr (Rank == 3) {
      lu += at(u, 0, 0, -1) + at(u, 0, 0, 1);
      lv += at(v, 0, 0, -1) + at(v, 0, 0, 1);
    }
    const S uvv = uc * vc * vc;
    return {uc + S(dt) * (S(du) * lu - uvv + S(feed) * (S(1) - uc)), vc + S(dt) * (S(dv) * lv + uvv - S(feed + kill) * vc)};
  }
};

struct NeighborsAt {
  template <class N>
  KOKKOS_FORCEINLINE_FUNCTION auto operator()(const N& nb, int d0, int d1, int d2) const {
    if constexpr (std::is_arithmetic_v<N>) {
      return nb;  // a level the functor takes at the cell only
    } else {
      return nb(d0, d1, d2);
    }
  }
};
template <int Rank>
struct ViewAt {
  int i, j, l;
  template <class V>
  KOKKOS_FORCEINLINE_FUNCTION auto operator()(const V& v, int d0, int d1, int d2) const {
    if constexpr (Rank == 1) {
      return v(i + d0);
    } else if constexpr (Rank == 2) {
      return v(i + d0, j + d1);
    } else {
      return v(i + d0, j + d1, l + d2);
    }
  }
};

// The functors parallel_stencil runs.
// u^{n-1} is read at the cell only, so the functor takes it as a Scalar (the kernels then keep no
// neighbourhood of it).
template <int Rank>
struct WaveStencil {
  WavePhysics<Rank> p;
  template <class S>
  KOKKOS_INLINE_FUNCTION S operator()(const EbisuKokkos::Neighbors<S, Rank, 1>& u, S u_prev) const {
    return p.template update<S>(NeighborsAt{}, u, u_prev);
  }
};
template <int Rank>
struct GrayScottStencil {
  GrayScottPhysics<Rank> p;
  template <class S>
  KOKKOS_INLINE_FUNCTION Kokkos::Array<S, 2> operator()(const EbisuKokkos::Neighbors<S, Rank, 1>& u,
                                                        const EbisuKokkos::Neighbors<S, Rank, 1>& v) const {
    return p.template update<S>(NeighborsAt{}, u, v);
  }
};

struct Flat {};

#if defined(_OPENMP)
// The plain-C++ reference on host spaces (as openmp_loop_variant.hpp for one
// field): raw pointers, the slow index (slow x middle in 3-D) over threads,
// `#pragma omp simd` over the contiguous one, the buffers turned after each step.
struct PointerAt {
  long idx;
  long stride[3];  // element strides of View indices 0, 1, 2
  template <class P>
  auto operator()(P p, int d0, int d1, int d2) const {
    return p[idx + d0 * stride[0] + d1 * stride[1] + d2 * stride[2]];
  }
};
template <class Physics, class View, int Outputs>
struct OpenMPStateStep {
  using Scalar = typename View::non_const_value_type;
  static constexpr int rank = View::rank;
  static constexpr bool left = std::is_same_v<typename View::array_layout, Kokkos::LayoutLeft>;
  Physics physics;
  long n[3] = {1, 1, 1};       // slow, middle, fast extents
  long along[3] = {0, 0, 0};   // their element strides (fast: 1)
  long stride[3] = {0, 0, 0};  // View index strides

  explicit OpenMPStateStep(const Physics& p, const View& v) : physics(p) {
    const int slow = left ? rank - 1 : 0, fast = left ? 0 : rank - 1;
    for (int a = 0; a < rank; ++a) stride[a] = static_cast<long>(v.stride(a));
    n[0] = static_cast<long>(v.extent(slow));
    along[0] = stride[slow];
    if (rank == 3) {
      n[1] = static_cast<long>(v.extent(1));
      along[1] = stride[1];
    }
    n[2] = static_cast<long>(v.extent(fast));
  }
  void cell(const Scalar* a, const Scalar* b, Scalar* const (&out)[Outputs], long idx) const {
    const auto r = physics.template update<Scalar>(PointerAt{idx, {stride[0], stride[1], stride[2]}}, a, b);
    if constexpr (Outputs == 1) {
      out[0][idx] = r;
    } else {
      for (int f = 0; f < Outputs; ++f) out[f][idx] = r[f];
    }
  }
  void step(const Scalar* a, const Scalar* b, Scalar* const (&out)[Outputs]) const {
    if constexpr (rank == 1) {
      const long nf = n[0];
#pragma omp parallel for simd schedule(static)
      for (long k = 1; k < nf - 1; ++k) cell(a, b, out, k);
    } else {
      const long n0 = n[0], n1 = n[1], n2 = n[2], s0 = along[0], s1 = along[1];
      const long m0 = rank == 3 ? 1 : 0, m1 = rank == 3 ? n1 - 1 : 1;
#pragma omp parallel for collapse(2) schedule(static)
      for (long i = 1; i < n0 - 1; ++i) {
        for (long j = m0; j < m1; ++j) {
          const long base = i * s0 + j * s1;
#pragma omp simd
          for (long k = 1; k < n2 - 1; ++k) cell(a, b, out, base + k);
        }
      }
    }
  }
};
#endif

// One plain step over the interior: out[f] = physics(in...) (wave: in = (u, u_prev),
// one output; Gray-Scott: in = (u, v), two outputs).
template <class Physics, class View, int Outputs>
struct PlainStep {
  using In = typename View::const_type;
  static constexpr int rank = View::rank;
  static constexpr bool left = std::is_same_v<typename View::array_layout, Kokkos::LayoutLeft>;
  using Scalar = typename View::non_const_value_type;
  In a, b;
  View out[Outputs];
  Physics physics;
  Kokkos::Array<int, 3> inner;

  KOKKOS_FORCEINLINE_FUNCTION void cell(int i, int j, int l) const {
    const auto r = physics.template update<Scalar>(ViewAt<rank>{i, j, l}, a, b);
    for (int f = 0; f < Outputs; ++f) {
      Scalar value;
      if constexpr (Outputs == 1) {
        value = r;
      } else {
        value = r[f];
      }
      if constexpr (rank == 1) {
        out[f](i) = value;
      } else if constexpr (rank == 2) {
        out[f](i, j) = value;
      } else {
        out[f](i, j, l) = value;
      }
    }
  }
  KOKKOS_FORCEINLINE_FUNCTION void operator()(int i, int j) const { cell(i, j, 0); }
  KOKKOS_FORCEINLINE_FUNCTION void operator()(int i, int j, int l) const { cell(i, j, l); }
  KOKKOS_FORCEINLINE_FUNCTION void operator()(Flat, long idx) const {
    if constexpr (rank == 1) {  // (no index arithmetic: the loop a user writes)
      cell(static_cast<int>(idx) + 1, 0, 0);
      return;
    }
    int c[3] = {0, 0, 0};
    for (int ax = 0; ax < rank; ++ax) {
      const int axis = left ? ax : rank - 1 - ax;
      c[axis] = static_cast<int>(idx % inner[axis]) + 1;
      idx /= inner[axis];
    }
    cell(c[0], c[1], c[2]);
  }
};

template <int Rank, bool Left>
using MDPolicy = Kokkos::MDRangePolicy<
    Kokkos::Rank<Rank, Left ? Kokkos::Iterate::Left : Kokkos::Iterate::Right, Left ? Kokkos::Iterate::Left : Kokkos::Iterate::Right>,
    Kokkos::IndexType<int>>;

inline std::vector<std::vector<int>> tiles(int rank) {
  if (rank == 2) return {{}, {32, 4}, {64, 4}, {128, 2}};
  return {{}, {32, 4, 1}, {64, 4, 1}, {128, 2, 1}};
}
inline std::string tile_name(const std::vector<int>& t) {
  if (t.empty()) return "mdrange-default";
  std::string s = "mdrange-tile-";
  for (size_t a = 0; a < t.size(); ++a) s += (a ? "x" : "") + std::to_string(t[a]);
  return s;
}
template <int Rank, bool Left>
MDPolicy<Rank, Left> md_policy(const Kokkos::Array<int, 3>& inner, const std::vector<int>& t) {
  if constexpr (Rank == 2) {
    if (t.empty()) return MDPolicy<Rank, Left>({1, 1}, {inner[0] + 1, inner[1] + 1});
    return MDPolicy<Rank, Left>({1, 1}, {inner[0] + 1, inner[1] + 1}, {Left ? t[0] : t[1], Left ? t[1] : t[0]});
  } else {
    if (t.empty()) return MDPolicy<Rank, Left>({1, 1, 1}, {inner[0] + 1, inner[1] + 1, inner[2] + 1});
    return MDPolicy<Rank, Left>({1, 1, 1}, {inner[0] + 1, inner[1] + 1, inner[2] + 1},
                                {Left ? t[0] : t[2], t[1], Left ? t[2] : t[0]});
  }
}

// Wave (Fields = 1: buffers u, u_prev, spare) or Gray-Scott (Fields = 2:
// u, u_next, v, v_next). `lo`/`hi`: the random initial values per buffer.
template <class Scalar, int Rank, int Fields, class Physics, class Stencil>
CaseResult run_case(const std::string& name, int flops, const Physics& physics, const Stencil& stencil,
                    const std::vector<std::pair<double, double>>& init_range, const Options& o, const RunInfo& run_info) {
  using Space = Kokkos::DefaultExecutionSpace;
  using View = DomainView<Scalar, Rank>;
  constexpr bool left = std::is_same_v<typename View::array_layout, Kokkos::LayoutLeft>;
  constexpr int buffers = Fields == 1 ? 3 : 4;
  const int bytes_per_update = static_cast<int>(sizeof(Scalar)) * (Fields == 1 ? 3 : 4);
  const double tol = std::is_same_v<Scalar, double> ? 1e-10 : 1e-4;
  RunInfo info = run_info;  // this row's per-step bound: its own bytes per update
  info.bound_gcells = run_info.bound_gcells * 2 * sizeof(Scalar) / bytes_per_update;
  const int steps = info.steps;

  std::vector<long> domain;
  if (Rank == 1) domain = {o.size1d > 0 ? o.size1d : 1L << 26};
  if (Rank == 2) domain = o.size2d[0] > 0 ? std::vector<long>{o.size2d[0], o.size2d[1]} : std::vector<long>{8192, 8192};
  if (Rank == 3) domain = o.size3d[0] > 0 ? std::vector<long>{o.size3d[0], o.size3d[1], o.size3d[2]}
                                          : std::vector<long>{2560, 288, 384};
  long e[3];
  CaseResult c = describe_case(name, Rank, 1, 2 * Rank + 1, flops, domain, left, o, info, e);
  std::printf("== %s (%s, %s) domain %s, T=%d, reps=%d, %d B per cell update\n", name.c_str(), o.precision.c_str(),
              Fields == 1 ? "two time levels" : "two coupled fields", domain_text(c.domain).c_str(), steps, o.reps,
              bytes_per_update);
  std::fflush(stdout);

  std::vector<View> input, buf;
  for (int k = 0; k < buffers; ++k) {
    input.push_back(make_view<View>("state_bench::input" + std::to_string(k), e));
    buf.push_back(make_view<View>("state_bench::buffer" + std::to_string(k), e));
  }
  View ref = make_view<View>("state_bench::reference", e);
  {
    Kokkos::Random_XorShift64_Pool<Space> pool(20261124u + static_cast<unsigned>(name.size()));
    for (int k = 0; k < buffers; ++k) {
      Kokkos::fill_random(input[k], pool, Scalar(init_range[k].first), Scalar(init_range[k].second));
    }
    // Every buffer of a field carries the same (Dirichlet) frame, as in a
    // user's loop: the wave starts at rest (u_prev = u), the spares are copies.
    if (Fields == 1) {
      Kokkos::deep_copy(input[1], input[0]);
      Kokkos::deep_copy(input[2], input[0]);
    }
    if (Fields == 2) {
      Kokkos::deep_copy(input[1], input[0]);
      Kokkos::deep_copy(input[3], input[2]);
    }
    Kokkos::fence();
  }
  const long n = static_cast<long>(c.cells);
  auto reset = [&] {
    for (int k = 0; k < buffers; ++k) Kokkos::deep_copy(buf[k], input[k]);
  };
  Kokkos::Array<int, 3> inner{1, 1, 1};
  for (int a = 0; a < Rank; ++a) inner[a] = static_cast<int>(e[a]) - 2;
  auto result = std::make_shared<const void*>(nullptr);

  // One plain run: `launch(step)` dispatches one step; the buffers turn like
  // a hand-written loop's.
  using Step = PlainStep<Physics, View, Fields>;
  auto plain_run = [&, result](const auto& launch) {
    if constexpr (Fields == 1) {
      View now = buf[0], prev = buf[1], next = buf[2];
      for (int s = 0; s < steps; ++s) {
        launch(Step{now, prev, {next}, physics, inner});
        View old = prev;
        prev = now;
        now = next;
        next = old;
      }
      *result = now.data();
    } else {
      View u = buf[0], u_next = buf[1], v = buf[2], v_next = buf[3];
      for (int s = 0; s < steps; ++s) {
        launch(Step{u, v, {u_next, v_next}, physics, inner});
        std::swap(u, u_next);
        std::swap(v, v_next);
      }
      *result = v.data();
    }
  };
  std::vector<Variant> variants;
  if constexpr (Rank >= 2) {  // (1-D: the range loop only)
    for (const auto& t : tiles(Rank)) {
      Variant v;
      v.name = tile_name(t);
      v.family = "plain-kokkos";
      v.reset = reset;
      v.run = [&, t, plain_run] {
        const auto policy = md_policy<Rank, left>(inner, t);
        plain_run([&](const Step& step) { Kokkos::parallel_for("state_bench::mdrange_step", policy, step); });
      };
      v.output = [result] { return *result; };
      variants.push_back(v);
    }
  }
  {
    Variant v;
    v.name = "range-interior";
    v.family = "plain-kokkos";
    v.reset = reset;
    v.run = [&, plain_run] {
      const auto range = Kokkos::RangePolicy<Space, Flat, Kokkos::IndexType<long>>(0, static_cast<long>(c.interior_cells));
      plain_run([&](const Step& step) { Kokkos::parallel_for("state_bench::range_step", range, step); });
    };
    v.output = [result] { return *result; };
    variants.push_back(v);
  }
#if defined(_OPENMP)
  if constexpr (std::is_same_v<typename View::memory_space, Kokkos::HostSpace>) {
    Variant v;
    v.name = "openmp-simd-loop";
    v.family = "plain-kokkos";  // (the best plain variant of the row, Kokkos or not)
    v.reset = reset;
    v.run = [&, result] {
      const OpenMPStateStep<Physics, View, Fields> loop(physics, buf[0]);
      if constexpr (Fields == 1) {
        Scalar *now = buf[0].data(), *prev = buf[1].data(), *next = buf[2].data();
        for (int s = 0; s < steps; ++s) {
          Scalar* const out[1] = {next};
          loop.step(now, prev, out);
          Scalar* const old = prev;
          prev = now;
          now = next;
          next = old;
        }
        *result = now;
      } else {
        Scalar *u = buf[0].data(), *u_next = buf[1].data(), *w = buf[2].data(), *w_next = buf[3].data();
        for (int s = 0; s < steps; ++s) {
          Scalar* const out[2] = {u_next, w_next};
          loop.step(u, w, out);
          std::swap(u, u_next);
          std::swap(w, w_next);
        }
        *result = w;
      }
    };
    v.output = [result] { return *result; };
    variants.push_back(v);
  }
#endif
  // --plain-variants narrows the plain rows (the first one left is the reference of the others).
  std::vector<Variant> selected;
  for (const Variant& v : variants) {
    if (plain_variant_selected(o, v.name)) selected.push_back(v);
  }
  if (!selected.empty()) variants = selected;
  const size_t plain_count = variants.size();
  auto report = std::make_shared<EbisuKokkos::StencilReport>();
  struct Form {
    std::string name;
    EbisuKokkos::Backend backend;
    EbisuKokkos::Strategy strategy;
    int depth = 0;  // 0: the plan's
  };
  std::vector<Form> forms{{"parallel_stencil:generic", EbisuKokkos::Backend::generic, EbisuKokkos::Strategy::automatic},
                          {"parallel_stencil:automatic", EbisuKokkos::Backend::automatic, EbisuKokkos::Strategy::automatic}};
  using Ebisu = EbisuKokkos::Impl::EbisuBackend<Space, std::decay_t<decltype(stencil)>, View>;
  if constexpr (EbisuKokkos::Impl::backend_takes_state<Ebisu>::value && EbisuKokkos::Impl::runs_on_host<Space>) {
    forms.push_back({"parallel_stencil:ebisu", EbisuKokkos::Backend::ebisu, EbisuKokkos::Strategy::automatic});
  } else if constexpr (EbisuKokkos::Impl::backend_takes_state<Ebisu>::value) {
    // (1-D: the segment kernel, whatever the strategy)
    forms.push_back({Rank == 1 ? "parallel_stencil:ebisu" : "parallel_stencil:ebisu-device", EbisuKokkos::Backend::ebisu,
                     Rank == 1 ? EbisuKokkos::Strategy::automatic : EbisuKokkos::Strategy::device_tiling});
    if (Rank >= 2) forms.push_back({"parallel_stencil:ebisu-sm", EbisuKokkos::Backend::ebisu, EbisuKokkos::Strategy::sm_tiling});
  }
  // --ebisu-depths: Backend::ebisu at forced depths (the strategy the plan picks for them).
  for (int d : o.ebisu_depths) {
    forms.push_back({"ebisu-d" + std::to_string(d), EbisuKokkos::Backend::ebisu, EbisuKokkos::Strategy::automatic, d});
  }
  for (const Form& form : forms) {
    Variant v;
    v.name = form.name;
    v.family = "ebisu-kokkos";
    v.reset = reset;
    v.run = [&, form, report, result] {
      EbisuKokkos::StencilPolicy<Space> policy(steps);
      policy.set_backend(form.backend).set_strategy(form.strategy);
      if (form.depth > 0) policy.set_temporal_depth(form.depth);
      if constexpr (Fields == 1) {
        EbisuKokkos::TimeLevels<View, 2> state(buf[0], buf[1], buf[2]);
        *report = EbisuKokkos::parallel_stencil(name, policy, stencil, state);
        *result = state.current().data();
      } else {
        EbisuKokkos::CoupledFields<View, 2> state(buf[0], buf[1], buf[2], buf[3]);
        *report = EbisuKokkos::parallel_stencil(name, policy, stencil, state);
        *result = state.current(1).data();
      }
    };
    v.output = [result] { return *result; };
    v.after_run = report_params(report);
    variants.push_back(v);
  }

  run_checked_variants<Scalar>(variants, plain_count, ref.data(), n, tol, o.reps, info, c);
  return c;
}

}  // namespace state_bench

template <class Scalar>
void run_state_cases(const Options& o, const RunInfo& info, std::vector<CaseResult>& results) {
  using namespace state_bench;
  auto wanted = [&](const char* name) {
    return std::find(o.state_cases.begin(), o.state_cases.end(), name) != o.state_cases.end();
  };
  // Random levels: the leapfrog at (c dt / h)^2 = 0.2 (2-D) / 0.15 (3-D) stays
  // bounded (it conserves a discrete energy); Gray-Scott from u near 1, v small.
  if (wanted("wave1d")) {
    const WavePhysics<1> p{0.4};
    results.push_back(run_case<Scalar, 1, 1>("wave1d", 6, p, EbisuKokkos::make_stencil<1, 1>(WaveStencil<1>{p}),
                                             {{0.5, 1.5}, {0.5, 1.5}, {0.5, 1.5}}, o, info));
  }
  if (wanted("wave2d")) {
    const WavePhysics<2> p{0.2};
    results.push_back(run_case<Scalar, 2, 1>("wave2d", 10, p, EbisuKokkos::make_stencil<2, 1>(WaveStencil<2>{p}),
                                             {{0.5, 1.5}, {0.5, 1.5}, {0.5, 1.5}}, o, info));
  }
  if (wanted("wave3d")) {
    const WavePhysics<3> p{0.15};
    // Declared a 7-point star (what it reads), as a user would: the 3-D kernels then queue no
    // off-column planes of other z.
    results.push_back(run_case<Scalar, 3, 1>("wave3d", 12, p,
                                             EbisuKokkos::make_stencil<3, 1, EbisuKokkos::StarShape>(WaveStencil<3>{p}),
                                             {{0.5, 1.5}, {0.5, 1.5}, {0.5, 1.5}}, o, info));
  }
  if (wanted("gray-scott1d")) {
    const GrayScottPhysics<1> p{0.16, 0.08, 0.035, 0.065, 1.0};
    results.push_back(run_case<Scalar, 1, 2>("gray-scott1d", 18, p, EbisuKokkos::make_stencil<1, 1>(GrayScottStencil<1>{p}),
                                             {{0.7, 1.0}, {0.7, 1.0}, {0.0, 0.3}, {0.0, 0.3}}, o, info));
  }
  if (wanted("gray-scott2d")) {
    const GrayScottPhysics<2> p{0.16, 0.08, 0.035, 0.065, 1.0};
    results.push_back(run_case<Scalar, 2, 2>("gray-scott2d", 26, p, EbisuKokkos::make_stencil<2, 1>(GrayScottStencil<2>{p}),
                                             {{0.7, 1.0}, {0.7, 1.0}, {0.0, 0.3}, {0.0, 0.3}}, o, info));
  }
  if (wanted("gray-scott3d")) {
    const GrayScottPhysics<3> p{0.12, 0.06, 0.035, 0.065, 1.0};
    results.push_back(run_case<Scalar, 3, 2>("gray-scott3d", 30, p,
                                             EbisuKokkos::make_stencil<3, 1, EbisuKokkos::StarShape>(GrayScottStencil<3>{p}),
                                             {{0.7, 1.0}, {0.7, 1.0}, {0.0, 0.3}, {0.0, 0.3}}, o, info));
  }
}

template void run_state_cases<double>(const Options&, const RunInfo&, std::vector<CaseResult>&);

// Double only, as the field cases (state_cases.hpp).
template <>
void run_state_cases<float>(const Options& o, const RunInfo&, std::vector<CaseResult>&) {
  if (!o.state_cases.empty()) std::printf("state cases: double precision only (--precision float skips them)\n");
}

}  // namespace ebisu_bench
