#ifndef EBISU_BENCH_EBISU_VARIANTS_HPP
#define EBISU_BENCH_EBISU_VARIANTS_HPP

// EbisuKokkos::parallel_stencil variants:
//  - automatic / generic: the (u, scratch) form; the timed region is the
//    whole call (frame copy and, when the last launch writes scratch, the
//    copy back into u included): u holds step 0 before and step T after;
//  - double-buffer: Backend::automatic on a DoubleBuffer (no copy back);
//  - other-layout: Backend::automatic on the same memory seen through the
//    other layout (extents reversed, stencil offsets transposed), to show
//    that the kernels do not depend on the View's layout;
//  - ebisu-dD-tN: Backend::ebisu with forced depth / threads (--ebisu-depths,
//    --ebisu-threads), on a DoubleBuffer: what the model chooses from;
//  - ebisu-sm / ebisu-device / ebisu-auto: Backend::ebisu with the Strategy
//    forced to sm_tiling / device_tiling / automatic (--ebisu-strategies), on a
//    DoubleBuffer; the report's strategy (what ran) and plan are recorded;
//    with --ebisu-depths also ebisu-sm-dD / ebisu-device-dD at each depth.
//    Listed as skipped where Backend::ebisu is unavailable.
// --ebisu-variants restricts the parallel_stencil:* variants.
// make_boundary_variants (--boundaries): the same with every side periodic or
// mirror, checked against the generic path with that rule (its first variant).

#include "cli.hpp"
#include "variant.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>

#include <algorithm>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace ebisu_bench {

/// A parallel_stencil variant's after_run: what its report says of the run.
inline std::function<std::vector<Param>()> report_params(const std::shared_ptr<EbisuKokkos::StencilReport>& report) {
  return [report]() {
    return std::vector<Param>{text_param("backend", EbisuKokkos::to_string(report->backend)),
                              number_param("temporal_depth", report->temporal_depth),
                              number_param("launches", report->launches),
                              number_param("predicted_gcells_per_s", report->predicted_gcells_per_s),
                              text_param("strategy", EbisuKokkos::to_string(report->strategy)),
                              text_param("plan", report->plan)};
  };
}

// The same linear stencil with every offset's axes reversed (d0, d1, d2) ->
// (d_{r-1}, ..., d0), for a View of the other layout over the same memory.
template <class Stencil>
struct Transposed {
  static constexpr int rank = Stencil::rank;
  static constexpr int reversed(int k, int axis) {
    return axis < rank ? Stencil::offset(k, rank - 1 - axis) : 0;
  }
  static constexpr int index_of(int d0, int d1, int d2) {
    for (int k = 0; k < Stencil::num_points; ++k)
      if (Stencil::offset(k, 0) == d0 && Stencil::offset(k, 1) == d1 && Stencil::offset(k, 2) == d2) return k;
    return -1;
  }
  // The shape maps onto itself (true of every preset), so the same type fits.
  static constexpr bool symmetric() {
    for (int k = 0; k < Stencil::num_points; ++k)
      if (index_of(reversed(k, 0), reversed(k, 1), reversed(k, 2)) < 0) return false;
    return true;
  }
  static Stencil of(const Stencil& s) {
    Kokkos::Array<double, Stencil::num_points> c;
    for (int k = 0; k < Stencil::num_points; ++k) c[index_of(reversed(k, 0), reversed(k, 1), reversed(k, 2))] = s.coefficient(k);
    return Stencil(c);
  }
};

template <class Stencil>
constexpr bool transposable() {
  if constexpr (Stencil::is_linear && Stencil::rank >= 2) {
    return Transposed<Stencil>::symmetric();
  } else {
    return false;
  }
}

template <class View>
auto other_layout_view(const View& v) {
  using Other = std::conditional_t<std::is_same_v<typename View::array_layout, Kokkos::LayoutLeft>,
                                   Kokkos::LayoutRight, Kokkos::LayoutLeft>;
  using O = Kokkos::View<typename View::data_type, Other, typename View::memory_space,
                         Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  if constexpr (View::rank == 2) {
    return O(v.data(), v.extent(1), v.extent(0));
  } else {
    return O(v.data(), v.extent(2), v.extent(1), v.extent(0));
  }
}

template <class Stencil, class View>
std::vector<Variant> make_ebisu_variants(const Stencil& stencil, const View& input, const View& u,
                                         const View& scratch, int steps, const Options& options) {
  using Space = Kokkos::DefaultExecutionSpace;
  using Policy = EbisuKokkos::StencilPolicy<Space>;
  constexpr bool available = EbisuKokkos::ebisu_available<Space, Stencil, View>;
  auto reset = [=]() {
    Kokkos::deep_copy(u, input);
    Kokkos::deep_copy(scratch, input);
  };
  const Param avail = text_param("ebisu_available", available ? "true" : "false");

  std::vector<Variant> variants;
  // automatic-model (Backend::automatic, Selection::model: no timing runs) only when asked for.
  struct Entry {
    const char* name;
    EbisuKokkos::Backend backend;
    EbisuKokkos::Selection selection;
  };
  for (const Entry e : {Entry{"automatic", EbisuKokkos::Backend::automatic, EbisuKokkos::Selection::automatic},
                        Entry{"automatic-model", EbisuKokkos::Backend::automatic, EbisuKokkos::Selection::model},
                        Entry{"generic", EbisuKokkos::Backend::generic, EbisuKokkos::Selection::automatic}}) {
    const bool explicit_only = e.selection == EbisuKokkos::Selection::model;
    if (explicit_only ? !ebisu_variant_listed(options, e.name) : !ebisu_variant_selected(options, e.name)) continue;
    auto report = std::make_shared<EbisuKokkos::StencilReport>();
    auto run = [=]() {
      Policy policy(Space(), steps);
      policy.set_backend(e.backend).set_selection(e.selection);
      *report = EbisuKokkos::parallel_stencil("ebisu_bench", policy, stencil, u, scratch);
    };
    variants.push_back(Variant{std::string("parallel_stencil:") + e.name, "ebisu-kokkos",
                               {text_param("requested_backend", EbisuKokkos::to_string(e.backend)),
                                text_param("selection", EbisuKokkos::to_string(e.selection)), avail},
                               reset, run, [=]() -> const void* { return u.data(); }, report_params(report)});
  }

  // DoubleBuffer runs: the result is wherever the selector points after the run.
  auto buffers = std::make_shared<EbisuKokkos::DoubleBuffer<View>>();
  auto reset_buffers = [=]() {
    reset();
    *buffers = EbisuKokkos::DoubleBuffer<View>(u, scratch);
  };
  auto buffer_output = [=]() -> const void* { return buffers->current().data(); };
  auto add_double_buffer = [&](const std::string& name, EbisuKokkos::Backend backend, int depth, int threads,
                               EbisuKokkos::Strategy strategy = EbisuKokkos::Strategy::automatic) {
    auto report = std::make_shared<EbisuKokkos::StencilReport>();
    auto run = [=]() {
      Policy policy(Space(), steps);
      policy.set_backend(backend).set_temporal_depth(depth).set_threads(threads).set_strategy(strategy);
      *report = EbisuKokkos::parallel_stencil("ebisu_bench", policy, stencil, *buffers);
    };
    variants.push_back(Variant{name, "ebisu-kokkos",
                               {text_param("requested_backend", EbisuKokkos::to_string(backend)), avail,
                                text_param("api", "DoubleBuffer"), number_param("depth_knob", depth),
                                number_param("threads_knob", threads),
                                text_param("strategy_knob", EbisuKokkos::to_string(strategy))},
                               reset_buffers, run, buffer_output, report_params(report)});
  };
  if (ebisu_variant_selected(options, "double-buffer")) {
    add_double_buffer("parallel_stencil:double-buffer", EbisuKokkos::Backend::automatic, 0, 0);
  }

  if constexpr (transposable<Stencil>()) {
    if (ebisu_variant_selected(options, "other-layout")) {
      auto report = std::make_shared<EbisuKokkos::StencilReport>();
      const Stencil transposed = Transposed<Stencil>::of(stencil);
      auto ou = other_layout_view(u);
      auto os = other_layout_view(scratch);
      using O = decltype(ou);
      auto run = [=]() {
        Policy policy(Space(), steps);
        *report = EbisuKokkos::parallel_stencil("ebisu_bench", policy, transposed, ou, os);
      };
      variants.push_back(Variant{"parallel_stencil:other-layout", "ebisu-kokkos",
                                 {text_param("requested_backend", "automatic"),
                                  text_param("layout", std::is_same_v<typename O::array_layout, Kokkos::LayoutLeft>
                                                           ? "LayoutLeft"
                                                           : "LayoutRight"),
                                  text_param("ebisu_available",
                                             EbisuKokkos::ebisu_available<Space, Stencil, O> ? "true" : "false")},
                                 reset, run, [=]() -> const void* { return u.data(); }, report_params(report)});
    }
  }

  if constexpr (available) {
    const std::vector<int> depths = options.ebisu_depths.empty() ? std::vector<int>{} : options.ebisu_depths;
    const std::vector<int> threads = options.ebisu_threads.empty() ? std::vector<int>{0} : options.ebisu_threads;
    for (int d : depths)
      for (int t : threads)
        add_double_buffer("ebisu-d" + std::to_string(d) + (t > 0 ? "-t" + std::to_string(t) : ""),
                          EbisuKokkos::Backend::ebisu, d, t);
  }
  for (const auto& s : options.ebisu_strategies) {
    const auto strategy = s == "sm_tiling"           ? EbisuKokkos::Strategy::sm_tiling
                          : s == "device_tiling"     ? EbisuKokkos::Strategy::device_tiling
                          : s == "in_place_tiling" ? EbisuKokkos::Strategy::in_place_tiling
                                                     : EbisuKokkos::Strategy::automatic;
    const std::string name = s == "sm_tiling"           ? "ebisu-sm"
                             : s == "device_tiling"     ? "ebisu-device"
                             : s == "in_place_tiling" ? "ebisu-in-place"
                                                        : "ebisu-auto";
    if constexpr (available) {
      add_double_buffer(name, EbisuKokkos::Backend::ebisu, 0, 0, strategy);
      // A forced strategy at each --ebisu-depths depth too (calibrating one strategy's model).
      if (strategy != EbisuKokkos::Strategy::automatic)
        for (int d : options.ebisu_depths)
          add_double_buffer(name + "-d" + std::to_string(d), EbisuKokkos::Backend::ebisu, d, 0, strategy);
    } else {
      Variant v;
      v.name = name;
      v.family = "ebisu-kokkos";
      v.params = {text_param("requested_backend", "ebisu"), avail,
                  text_param("strategy_knob", EbisuKokkos::to_string(strategy))};
      v.skip_reason = "Backend::ebisu is not available for this execution space, rank, scalar and layout";
      variants.push_back(v);
    }
  }
  return variants;
}

// Each coefficient averaged over the mirror images of its point along every
// axis (the presets' shapes contain all images): a stencil that the EBISU
// kernels can run with mirror sides.
template <class Stencil>
Stencil mirror_symmetrized(const Stencil& s) {
  constexpr int N = Stencil::num_points, rank = Stencil::rank;
  auto index_of = [](int d0, int d1, int d2) {
    for (int k = 0; k < N; ++k)
      if (Stencil::offset(k, 0) == d0 && Stencil::offset(k, 1) == d1 && Stencil::offset(k, 2) == d2) return k;
    return -1;
  };
  Kokkos::Array<double, N> c;
  for (int k = 0; k < N; ++k) {
    std::vector<double> images;
    for (int mask = 0; mask < (1 << rank); ++mask) {
      int d[3];
      for (int a = 0; a < 3; ++a) d[a] = ((mask >> a) & 1) != 0 ? -Stencil::offset(k, a) : Stencil::offset(k, a);
      const int j = index_of(d[0], d[1], d[2]);
      if (j < 0) throw std::logic_error("ebisu_bench: a preset shape without a point's mirror image");
      images.push_back(s.coefficient(j));
    }
    // Summed in sorted order: every point of an orbit gets the bit-identical value.
    std::sort(images.begin(), images.end());
    double sum = 0;
    for (double v : images) sum += v;
    c[k] = sum / static_cast<double>(images.size());
  }
  return Stencil(c);
}

/// parallel_stencil with every side `rule` (periodic or mirror): the generic
/// path first (the reference of the others), then automatic and the forced
/// strategies of --ebisu-strategies, all on a DoubleBuffer.
template <class Stencil, class View>
std::vector<Variant> make_boundary_variants(const Stencil& preset, const View& input, const View& u,
                                            const View& scratch, int steps, const Options& options,
                                            const std::string& rule) {
  using Space = Kokkos::DefaultExecutionSpace;
  using Policy = EbisuKokkos::StencilPolicy<Space>;
  const EbisuKokkos::Boundary boundary =
      rule == "periodic" ? EbisuKokkos::Boundary::periodic : EbisuKokkos::Boundary::mirror;
  Stencil stencil = preset;
  if constexpr (Stencil::is_linear) {
    if (boundary == EbisuKokkos::Boundary::mirror) stencil = mirror_symmetrized(preset);
  }
  auto buffers = std::make_shared<EbisuKokkos::DoubleBuffer<View>>();
  auto reset = [=]() {
    Kokkos::deep_copy(u, input);
    Kokkos::deep_copy(scratch, input);
    *buffers = EbisuKokkos::DoubleBuffer<View>(u, scratch);
  };
  auto output = [=]() -> const void* { return buffers->current().data(); };
  std::vector<Variant> variants;
  auto add = [&](const std::string& name, EbisuKokkos::Backend backend, EbisuKokkos::Strategy strategy, int depth = 0) {
    auto report = std::make_shared<EbisuKokkos::StencilReport>();
    auto run = [=]() {
      Policy policy(Space(), steps);
      policy.set_backend(backend).set_strategy(strategy).set_temporal_depth(depth);
      for (int a = 0; a < View::rank; ++a) policy.set_boundary(a, boundary);
      *report = EbisuKokkos::parallel_stencil("ebisu_bench", policy, stencil, *buffers);
    };
    variants.push_back(Variant{name + "-" + rule, "ebisu-kokkos",
                               {text_param("requested_backend", EbisuKokkos::to_string(backend)),
                                text_param("boundary", rule), text_param("api", "DoubleBuffer"),
                                text_param("strategy_knob", EbisuKokkos::to_string(strategy)),
                                number_param("depth_knob", depth),
                                text_param("weights", boundary == EbisuKokkos::Boundary::mirror
                                                          ? "preset shape, mirror-symmetrised weights"
                                                          : "preset")},
                               reset, run, output, report_params(report)});
  };
  add("parallel_stencil:generic", EbisuKokkos::Backend::generic, EbisuKokkos::Strategy::automatic);
  add("parallel_stencil:automatic", EbisuKokkos::Backend::automatic, EbisuKokkos::Strategy::automatic);
  if constexpr (EbisuKokkos::ebisu_available<Space, Stencil, View>) {
    for (const auto& s : options.ebisu_strategies) {
      if (s == "sm_tiling") {
        add("ebisu-sm", EbisuKokkos::Backend::ebisu, EbisuKokkos::Strategy::sm_tiling);
        // Each --ebisu-depths depth forced too (the mapped kernels' depths measured one by one).
        for (int d : options.ebisu_depths)
          add("ebisu-sm-d" + std::to_string(d), EbisuKokkos::Backend::ebisu, EbisuKokkos::Strategy::sm_tiling, d);
      }
      if (s == "device_tiling") add("ebisu-device", EbisuKokkos::Backend::ebisu, EbisuKokkos::Strategy::device_tiling);
      if (s == "in_place_tiling") {
        add("ebisu-in-place", EbisuKokkos::Backend::ebisu, EbisuKokkos::Strategy::in_place_tiling);
      }
    }
  }
  return variants;
}

}  // namespace ebisu_bench

#endif
