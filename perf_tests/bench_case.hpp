#ifndef EBISU_BENCH_BENCH_CASE_HPP
#define EBISU_BENCH_BENCH_CASE_HPP

// One case = one stencil at one size and precision: build the variants, check
// each against the best plain-Kokkos variant's output on the same input, time
// them, and fill a CaseResult.
//
// Order of work:
//  1. every plain-Kokkos variant: warm-up run checked against the first plain
//     variant (so a wrong-but-fast variant cannot become the reference), then
//     `reps` timed runs, each after restoring the saved input;
//  2. the fastest correct plain variant (median) is the reference: its output
//     is recomputed, every plain variant is re-checked against it, and, on
//     small domains, it is checked against a serial host computation;
//  3. SpMV and parallel_stencil: warm-up run checked against the reference;
//     only a variant that passes is timed.

#include "cases.hpp"
#include "check.hpp"
#include "cli.hpp"
#include "ebisu_variants.hpp"
#include "plain_variants.hpp"
#include "results.hpp"
#include "spmv_variant.hpp"
#include "timing.hpp"
#include "variant.hpp"

#include <Kokkos_Random.hpp>
#include <ebisu_kokkos/presets.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace ebisu_bench {

/// Logical domain (z,) (y,) x of a stencil: options or the paper's size.
inline std::vector<long> domain_of(const std::string& name, int rank, const Options& o) {
  if (rank == 1) return {o.size1d > 0 ? o.size1d : 1L << 26};
  if (rank == 2) {
    if (o.size2d[0] > 0) return {o.size2d[0], o.size2d[1]};
    const long n = name == "j2d5pt" ? 8352 : name == "j2d9pt" ? 8064 : name == "j2d9pt-gol" ? 8784 : 8640;
    return {n, n};
  }
  if (o.size3d[0] > 0) return {o.size3d[0], o.size3d[1], o.size3d[2]};
  return {2560, 288, 384};
}

template <class Scalar>
void copy_flat(void* dst, const void* src, long n) {
  using Mem = Kokkos::DefaultExecutionSpace::memory_space;
  using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  Kokkos::deep_copy(Kokkos::View<Scalar*, Mem, Unmanaged>(static_cast<Scalar*>(dst), n),
                    Kokkos::View<const Scalar*, Mem, Unmanaged>(static_cast<const Scalar*>(src), n));
}

inline void print_variant_line(const CaseResult& c, const VariantResult& r) {
  if (r.status == "skipped") {
    std::printf("  %-10s %-33s skipped: %s\n", c.stencil.c_str(), r.name.c_str(), r.note.c_str());
  } else if (r.times_s.empty()) {
    std::printf("  %-10s %-33s %s: %s\n", c.stencil.c_str(), r.name.c_str(), r.status.c_str(), r.note.c_str());
  } else {
    char clock[32] = "";
    if (r.sm_clock_mhz_median > 0) std::snprintf(clock, sizeof(clock), "  SM %.0f MHz", r.sm_clock_mhz_median);
    std::printf("  %-10s %-33s median %9.3f ms  best %9.3f ms  %8.2f GCells/s  %5.1f%% of bound  %s%s\n",
                c.stencil.c_str(), r.name.c_str(), r.median_s * 1e3, r.best_s * 1e3, r.gcells_median,
                100 * r.fraction_of_bound, r.status.c_str(), clock);
  }
  std::fflush(stdout);
}

template <class Scalar>
void fill_stats(VariantResult& r, const CaseResult& c, const RunInfo& info) {
  r.median_s = median(r.times_s);
  r.best_s = minimum(r.times_s);
  const double updates = static_cast<double>(c.interior_cells) * c.steps;
  r.gcells_median = r.median_s > 0 ? updates / r.median_s / 1e9 : 0;
  r.gcells_best = r.best_s > 0 ? updates / r.best_s / 1e9 : 0;
  r.fraction_of_bound = info.bound_gcells > 0 ? r.gcells_median / info.bound_gcells : 0;
  std::vector<double> clocks;
  for (double mhz : r.sm_clock_mhz) {
    if (std::isfinite(mhz)) clocks.push_back(mhz);
  }
  r.sm_clock_mhz_median = median(clocks);
}

/// The timed reps of `v` into r, each with the GPU's clock and power during it where NVML is available.
inline void time_variant(VariantResult& r, int reps, Variant& v) {
  std::vector<TelemetrySummary> telemetry;
  r.times_s = time_reps(reps, v.reset, v.run, gpu_telemetry(), telemetry);
  for (const TelemetrySummary& t : telemetry) {
    r.sm_clock_mhz.push_back(t.sm_clock_mhz_mean);
    r.power_w.push_back(t.power_w_mean);
    r.power_capped_fraction.push_back(t.power_capped_fraction);
  }
}

inline VariantResult result_of(const Variant& v, double tol) {
  VariantResult r;
  r.name = v.name;
  r.family = v.family;
  r.params = v.params;
  r.tolerance = tol;
  return r;
}

inline void fail(VariantResult& r, const std::string& why) {
  r.status = "FAILED";
  r.note = r.note.empty() ? why : r.note + "; " + why;
}

// One variant: recorded as skipped if it says so; otherwise run once, its
// output checked against `reference` (n cells; when `is_reference`, the
// output is copied into it instead), and timed only where it agrees within
// tol. `precondition`, when not empty, fails it before it runs.
template <class Scalar>
VariantResult check_and_time(Variant& v, Scalar* reference, bool is_reference, const std::string& reference_name,
                             long n, double tol, int reps, const RunInfo& info, const CaseResult& c,
                             const std::string& precondition = "") {
  VariantResult r = result_of(v, tol);
  if (!v.skip_reason.empty()) {
    r.status = "skipped";
    r.note = v.skip_reason;
    return r;
  }
  try {
    if (!precondition.empty()) throw std::runtime_error(precondition);
    v.reset();
    time_fenced(v.run);
    if (v.after_run) {
      for (const auto& p : v.after_run()) r.params.push_back(p);
    }
    if (is_reference) copy_flat<Scalar>(reference, v.output(), n);
    r.checked_against = reference_name;
    r.max_rel_diff = is_reference ? 0.0 : max_rel_diff<Scalar>(v.output(), reference, n);
    if (!(r.max_rel_diff <= tol)) {
      fail(r, "differs from " + reference_name);
    } else {
      time_variant(r, reps, v);
      fill_stats<Scalar>(r, c, info);
    }
  } catch (const std::exception& ex) {
    fail(r, ex.what());
  }
  return r;
}

// Runs `variants` in order: the first one's output becomes the reference
// (`ref`, n cells), every other is checked against it and timed only where it
// agrees within tol; the fastest of the first plain_count sets every row's
// speedup. (The field and state cases; the preset cases also check against a
// host oracle and run graph variants.)
template <class Scalar>
void run_checked_variants(std::vector<Variant>& variants, size_t plain_count, Scalar* ref, long n, double tol,
                          int reps, const RunInfo& info, CaseResult& c) {
  int best = -1;
  for (size_t i = 0; i < variants.size(); ++i) {
    const VariantResult r =
        check_and_time<Scalar>(variants[i], ref, i == 0, variants[0].name, n, tol, reps, info, c);
    print_variant_line(c, r);
    c.variants.push_back(r);
    if (i < plain_count && r.status == "ok" &&
        (best < 0 || r.median_s < c.variants[static_cast<size_t>(best)].median_s)) {
      best = static_cast<int>(c.variants.size() - 1);
    }
  }
  if (best >= 0) {
    c.best_plain = c.variants[static_cast<size_t>(best)].name;
    const double base = c.variants[static_cast<size_t>(best)].median_s;
    for (auto& r : c.variants) r.speedup = r.median_s > 0 ? base / r.median_s : 0;
  }
}

/// A case's description (name, sizes in View index order into e, cell counts);
/// `domain` is the logical (z,) (y,) x domain, x contiguous.
inline CaseResult describe_case(const std::string& name, int rank, int radius, int points, int flops,
                                const std::vector<long>& domain, bool layout_left, const Options& o,
                                const RunInfo& info, long (&e)[3]) {
  CaseResult c;
  c.stencil = name;
  c.rank = rank;
  c.radius = radius;
  c.points = points;
  c.flops_per_cell = flops;
  c.domain = domain;
  c.layout = layout_left ? "LayoutLeft" : "LayoutRight";
  c.steps = info.steps;
  c.reps = o.reps;
  c.precision = o.precision;
  e[0] = e[1] = e[2] = 1;
  c.cells = c.interior_cells = 1;
  for (int a = 0; a < rank; ++a) {
    e[a] = layout_left ? c.domain[rank - 1 - a] : c.domain[a];  // LayoutLeft: index 0 = x (contiguous)
    c.view_extents.push_back(e[a]);
    c.cells *= e[a];
    c.interior_cells *= std::max(0L, e[a] - 2 * radius);
  }
  return c;
}

inline std::string domain_text(const std::vector<long>& domain) {
  std::string dims;
  for (size_t a = 0; a < domain.size(); ++a) dims += (a ? "x" : "") + std::to_string(domain[a]);
  return dims;
}

template <class Scalar, class Stencil>
CaseResult run_one_case(const std::string& name, const Stencil& stencil, const Options& o, const RunInfo& info) {
  constexpr int rank = Stencil::rank;
  constexpr int radius = Stencil::radius;
  using Space = Kokkos::DefaultExecutionSpace;
  using View = DomainView<Scalar, rank>;
  constexpr bool left = std::is_same_v<typename View::array_layout, Kokkos::LayoutLeft>;
  const double tol = std::is_same_v<Scalar, double> ? 1e-10 : 1e-4;
  const int steps = info.steps;

  long e[3];
  CaseResult c = describe_case(name, rank, radius, Stencil::num_points, Stencil::flops_per_cell,
                               domain_of(name, rank, o), left, o, info, e);
  std::printf("== %s (%s, %d points, r=%d) domain %s (%s), T=%d, reps=%d\n", name.c_str(), o.precision.c_str(),
              c.points, radius, domain_text(c.domain).c_str(), rank == 3 ? "z,y,x" : rank == 2 ? "y,x" : "x", steps,
              o.reps);
  std::fflush(stdout);
  for (int a = 0; a < rank; ++a) {
    if (e[a] < 2 * radius + 1) {
      VariantResult r;
      r.name = "all";
      r.status = "FAILED";
      r.note = "domain too small for radius " + std::to_string(radius);
      c.variants.push_back(r);
      return c;
    }
  }

  View input = make_view<View>("ebisu_bench::input", e);
  View u = make_view<View>("ebisu_bench::u", e);
  View scratch = make_view<View>("ebisu_bench::scratch", e);
  View ref0 = make_view<View>("ebisu_bench::ref_first_plain", e);
  View ref = make_view<View>("ebisu_bench::ref_best_plain", e);
  {
    // Random, non-zero, bounded input; every stencil's weights are a convex combination.
    Kokkos::Random_XorShift64_Pool<Space> pool(20261122u + static_cast<unsigned>(name.size()));
    Kokkos::fill_random(input, pool, Scalar(0.5), Scalar(1.5));
    Kokkos::fence();
  }
  const long n = static_cast<long>(c.cells);

  // 1. Plain Kokkos.
  auto plain = make_plain_variants<Scalar>(stencil, input, u, scratch, steps, o);
  if (plain.empty()) {
    VariantResult r;
    r.name = "plain-kokkos";
    r.family = "plain-kokkos";
    r.status = "FAILED";
    r.note = "--plain-variants selects no plain variant of this rank: nothing to check against";
    print_variant_line(c, r);
    c.variants.push_back(r);
  }
  std::vector<VariantResult> plain_results;
  for (size_t i = 0; i < plain.size(); ++i) {
    Variant& v = plain[i];
    VariantResult r = result_of(v, tol);
    try {
      v.reset();
      time_fenced(v.run);
      if (i == 0) {
        copy_flat<Scalar>(ref0.data(), v.output(), n);
        r.max_rel_diff_first = 0;
      } else {
        r.max_rel_diff_first = max_rel_diff<Scalar>(v.output(), ref0.data(), n);
      }
      if (!(r.max_rel_diff_first <= tol)) fail(r, "differs from " + plain[0].name);
      time_variant(r, o.reps, v);
      fill_stats<Scalar>(r, c, info);
    } catch (const std::exception& ex) {
      fail(r, ex.what());
    }
    print_variant_line(c, r);
    plain_results.push_back(r);
  }

  // 2. The reference: the fastest correct plain variant.
  int best = -1;
  for (size_t i = 0; i < plain_results.size(); ++i) {
    if (plain_results[i].status == "ok" &&
        (best < 0 || plain_results[i].median_s < plain_results[static_cast<size_t>(best)].median_s)) {
      best = static_cast<int>(i);
    }
  }
  if (best >= 0) {
    c.best_plain = plain_results[static_cast<size_t>(best)].name;
    if (best == 0) {
      copy_flat<Scalar>(ref.data(), ref0.data(), n);
    } else {
      plain[static_cast<size_t>(best)].reset();
      time_fenced(plain[static_cast<size_t>(best)].run);
      copy_flat<Scalar>(ref.data(), plain[static_cast<size_t>(best)].output(), n);
    }
    for (size_t i = 0; i < plain.size(); ++i) {
      VariantResult& r = plain_results[i];
      r.checked_against = c.best_plain;
      if (static_cast<int>(i) == best) {
        r.max_rel_diff = 0;
      } else if (i == 0) {
        r.max_rel_diff = max_rel_diff<Scalar>(ref0.data(), ref.data(), n);
      } else {
        plain[i].reset();
        time_fenced(plain[i].run);
        r.max_rel_diff = max_rel_diff<Scalar>(plain[i].output(), ref.data(), n);
      }
      if (r.status == "ok" && !(r.max_rel_diff <= tol)) fail(r, "differs from " + c.best_plain);
    }
    if (static_cast<double>(c.interior_cells) * steps <= static_cast<double>(o.oracle_limit)) {
      c.oracle_max_rel_diff = host_oracle_max_rel_diff<Scalar>(stencil, input, ref.data(), steps);
      std::printf("  %-10s serial host check of %s: max rel diff %.2e\n", name.c_str(), c.best_plain.c_str(),
                  c.oracle_max_rel_diff);
      if (!(c.oracle_max_rel_diff <= tol)) {
        fail(plain_results[static_cast<size_t>(best)], "differs from the serial host computation");
      }
    }
  }
  plain.clear();
  for (auto& r : plain_results) c.variants.push_back(r);

  // 3. SpMV and parallel_stencil, checked against the reference before timing.
  // against: the reference's output (the best plain variant's unless given).
  auto check_and_time_against = [&](Variant& v, Scalar* against = nullptr, const std::string& against_name = "") {
    const VariantResult r = check_and_time<Scalar>(
        v, against ? against : ref.data(), false, against ? against_name : c.best_plain, n, tol, o.reps, info, c,
        best < 0 ? "no correct plain-Kokkos variant to check against" : "");
    print_variant_line(c, r);
    c.variants.push_back(r);
  };

  if (o.spmv) {
    const double buffers = 5.0 * static_cast<double>(c.cells) * sizeof(Scalar);
    const std::string why = spmv_skip_reason<Scalar, Stencil>(c.cells, c.interior_cells, buffers,
                                                               info.device_memory_bytes, o.spmv_memory_fraction);
    if (!why.empty()) {
      VariantResult r;
      r.name = "kokkoskernels-spmv";
      r.family = "kokkoskernels-spmv";
      r.status = "skipped";
      r.note = why;
      print_variant_line(c, r);
      c.variants.push_back(r);
    } else {
#ifdef EBISU_BENCH_HAVE_KOKKOSKERNELS
      if constexpr (std::is_same_v<Scalar, double>) {
        double assembly_s = 0;
        Variant v = make_spmv_variant(stencil, input, steps, assembly_s);
        check_and_time_against(v);
      }  // the matrix is freed here
#endif
    }
  }
  for (auto& v : make_ebisu_variants(stencil, input, u, scratch, steps, o)) check_and_time_against(v);

  // 4. Periodic / mirror sides: the generic path with the rule is the reference of the others.
  for (const std::string& rule : o.boundaries) {
    auto variants = make_boundary_variants(stencil, input, u, scratch, steps, o, rule);
    VariantResult& first = c.variants.emplace_back(result_of(variants[0], tol));
    try {
      variants[0].reset();
      time_fenced(variants[0].run);
      copy_flat<Scalar>(ref0.data(), variants[0].output(), n);
      if (variants[0].after_run) {
        for (const auto& p : variants[0].after_run()) first.params.push_back(p);
      }
      first.max_rel_diff = 0;
      first.checked_against = "itself (the reference of the " + rule + " rows)";
      time_variant(first, o.reps, variants[0]);
      fill_stats<Scalar>(first, c, info);
    } catch (const std::exception& ex) {
      fail(first, ex.what());
    }
    print_variant_line(c, first);
    if (first.status != "ok") continue;
    for (size_t i = 1; i < variants.size(); ++i) check_and_time_against(variants[i], ref0.data(), variants[0].name);
  }

  // Speedups over the best plain variant (median times).
  if (best >= 0) {
    const double base = c.variants[static_cast<size_t>(best)].median_s;
    for (auto& r : c.variants) r.speedup = r.median_s > 0 ? base / r.median_s : 0;
  }
  return c;
}

// CI's CUDA compile check (EbisuKokkos_ENABLE_COMPILE_CHECK_ONLY) cannot run the benchmark. Its
// float cases are that build's only float instantiation of the CUDA kernels, so the first stencil
// of each rank keeps them; the rank's other stencils would compile the same kernel templates again
// (about 80 s of the stage's wall time on 2 cores).
template <class Scalar, class Stencil>
inline constexpr bool case_compiled =
#if defined(EBISU_KOKKOS_COMPILE_CHECK_ONLY)
    !std::is_same_v<Scalar, float> || std::is_same_v<Stencil, decltype(EbisuKokkos::presets::j1d3pt())> ||
    std::is_same_v<Stencil, decltype(EbisuKokkos::presets::j2d5pt())> ||
    std::is_same_v<Stencil, decltype(EbisuKokkos::presets::j3d7pt())>;
#else
    true;
#endif

template <int Rank, class Scalar>
void run_cases(const Options& options, const RunInfo& info, std::vector<CaseResult>& results) {
  EbisuKokkos::presets::for_each_preset(Rank, [&](const std::string& name, const auto& stencil) {
    using Stencil = std::decay_t<decltype(stencil)>;
    // for_each_preset filters by rank at run time: without this, every rank's
    // translation unit would compile the cases of all ranks.
    if constexpr (Stencil::rank == Rank && case_compiled<Scalar, Stencil>) {
      if (!options.stencils.empty() &&
          std::find(options.stencils.begin(), options.stencils.end(), name) == options.stencils.end()) {
        return;
      }
      results.push_back(run_one_case<Scalar>(name, stencil, options, info));
    }
  });
}

}  // namespace ebisu_bench

#endif
