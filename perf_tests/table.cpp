// The stdout table: one row per stencil and variant.

#include "output.hpp"

#include <cstdio>

namespace ebisu_bench {

void print_table(const RunInfo& info, const std::vector<CaseResult>& cases) {
  std::printf("\nEbisuKokkos benchmark: %s on %s (%s), Kokkos %s, %s, %s\n", info.execution_space.c_str(),
              info.device_name.c_str(), info.host.c_str(), info.kokkos_version.c_str(), info.precision.c_str(),
              info.date_utc.c_str());
  std::printf("T = %d steps, %d reps; copy bandwidth %.1f GB/s (best, read+write) -> per-step bound %.2f GCells/s\n",
              info.steps, info.reps, info.copy_bw_best_gbs, info.bound_gcells);
  std::printf("GCells/s = interior cells x T / median time; %%bound = of the per-step device-memory bound; "
              "speedup = best plain-Kokkos median / median\n");
  // Only with telemetry: without it the table stays as it was for whatever reads it.
  const bool clocks = info.gpu_telemetry == "nvml";
  if (clocks) std::printf("SM MHz = median over the reps of the mean SM clock during each rep (NVML)\n");
  std::printf("\n");
  std::printf("%-11s %-33s %-7s %10s %10s %9s %7s %8s %10s%s  %s\n", "stencil", "variant", "status", "median ms",
              "best ms", "GCells/s", "%bound", "speedup", "maxreldiff", clocks ? "  SM MHz" : "", "notes");
  for (const auto& c : cases) {
    for (const auto& r : c.variants) {
      char clock[16] = "";
      if (clocks) {
        if (r.sm_clock_mhz_median > 0) {
          std::snprintf(clock, sizeof(clock), "  %6.0f", r.sm_clock_mhz_median);
        } else {
          std::snprintf(clock, sizeof(clock), "  %6s", "-");
        }
      }
      std::string notes = r.note;
      if (r.name == c.best_plain) notes = "best plain (reference)" + (notes.empty() ? "" : "; " + notes);
      for (const auto& p : r.params) {
        const bool shown = p.key == "backend" || p.key == "temporal_depth" || p.key == "graph_steps" ||
                           (p.key == "strategy" && p.value != "automatic");
        if (shown) notes += (notes.empty() ? "" : " ") + p.key + "=" + p.value;
      }
      if (r.times_s.empty()) {
        std::printf("%-11s %-33s %-7s %10s %10s %9s %7s %8s %10s%s  %s\n", c.stencil.c_str(), r.name.c_str(),
                    r.status.c_str(), "-", "-", "-", "-", "-",
                    r.max_rel_diff >= 0 ? std::to_string(r.max_rel_diff).c_str() : "-", clock, notes.c_str());
      } else {
        char diff[32];
        std::snprintf(diff, sizeof(diff), "%.1e", r.max_rel_diff);
        std::printf("%-11s %-33s %-7s %10.3f %10.3f %9.2f %6.1f%% %7.2fx %10s%s  %s\n", c.stencil.c_str(),
                    r.name.c_str(), r.status.c_str(), r.median_s * 1e3, r.best_s * 1e3, r.gcells_median,
                    100 * r.fraction_of_bound, r.speedup, r.max_rel_diff >= 0 ? diff : "-", clock, notes.c_str());
      }
    }
  }
  std::printf("\n");
}

}  // namespace ebisu_bench
