#ifndef EBISU_BENCH_RESULTS_HPP
#define EBISU_BENCH_RESULTS_HPP

// What one run of ebisu_bench measured: plain data, filled by the cases,
// printed by table.cpp and written by json_output.cpp.

#include <string>
#include <vector>

namespace ebisu_bench {

/// One named parameter of a variant (tile shape, backend, depth, ...).
struct Param {
  std::string key;
  std::string value;
  bool is_number = false;
};

struct VariantResult {
  std::string name;    ///< e.g. "mdrange-tile-32x4"
  std::string family;  ///< "plain-kokkos" | "kokkoskernels-spmv" | "ebisu-kokkos"
  std::vector<Param> params;
  std::string status = "ok";  ///< "ok" | "FAILED" | "skipped"
  std::string note;           ///< why skipped / failed
  std::vector<double> times_s;
  /// Per timed rep, means over its GPU telemetry samples (empty without telemetry; NaN where NVML
  /// failed): a GPU at its power cap runs at a clock that varies from rep to rep.
  std::vector<double> sm_clock_mhz, power_w, power_capped_fraction;
  double sm_clock_mhz_median = 0;  ///< of sm_clock_mhz; 0 without telemetry
  double median_s = 0, best_s = 0;
  double gcells_median = 0, gcells_best = 0;  ///< interior cells x T / s / 1e9
  double fraction_of_bound = 0;               ///< gcells_median / per-step device-memory bound
  double speedup = 0;                         ///< best plain median time / this median time
  double max_rel_diff = -1;                   ///< vs the best plain variant's output; -1: not checked
  double max_rel_diff_first = -1;             ///< plain variants: vs the first plain variant (pre-selection check)
  double tolerance = 0;
  std::string checked_against;
};

struct CaseResult {
  std::string stencil;
  int rank = 0, radius = 0, points = 0, flops_per_cell = 0;
  std::vector<long> domain;       ///< logical (z,) (y,) x, x contiguous
  std::vector<long> view_extents; ///< in View index order
  std::string layout;
  long long cells = 0, interior_cells = 0;
  int steps = 0, reps = 0;
  std::string precision;
  std::string best_plain;  ///< name of the fastest correct plain-Kokkos variant
  double oracle_max_rel_diff = -1;  ///< best plain vs a serial host computation; -1: not run (too large)
  std::vector<VariantResult> variants;
};

struct RunInfo {
  std::string date_utc, host, device_name, device_kind, execution_space, memory_space, kokkos_version;
  std::string ebisu_version, ebisu_configuration, command_line, layout, precision;
  int concurrency = 0;
  double device_memory_bytes = 0;
  bool kokkoskernels = false;
  double copy_bytes = 0;               ///< bytes per buffer of the deep_copy test
  double copy_bw_best_gbs = 0, copy_bw_median_gbs = 0;  ///< (read + write) bytes / s / 1e9
  int scalar_bytes = 8;
  double bound_gcells = 0;             ///< per-step bound: copy_bw_best / (2 sizeof(Scalar))
  int steps = 0, reps = 0;
  bool all_checks_passed = true;
  std::string gpu_telemetry = "none";  ///< "nvml" | "none"
  std::string gpu_telemetry_note;      ///< the device sampled, or why there is no telemetry
};

}  // namespace ebisu_bench

#endif
