#ifndef EBISU_BENCH_CLI_HPP
#define EBISU_BENCH_CLI_HPP

// Command-line options of ebisu_bench.

#include <array>
#include <string>
#include <vector>

namespace ebisu_bench {

struct Options {
  std::vector<std::string> stencils;  ///< empty: every preset
  long size1d = 0;                    ///< 0: paper-style default (2^26)
  int size2d[2] = {0, 0};             ///< (y, x); 0: the paper size of each stencil
  int size3d[3] = {0, 0, 0};          ///< (z, y, x), x contiguous; 0: 2560 x 288 x 384
  int steps = 0;                      ///< 0: 100 on a device, 10 on the host
  int reps = 5;                       ///< timed repetitions per variant (>= 5)
  std::string precision = "double";   ///< double | float
  std::string json = "ebisu_bench.json";
  double bw_mb = 0;                   ///< MiB per buffer for the copy-bandwidth test; 0: 1024 device / 256 host
  bool spmv = true;                   ///< time KokkosKernels SpMV when available
  double spmv_memory_fraction = 0.6;  ///< skip SpMV when the run would need more of the device memory
  long oracle_limit = 20000000;       ///< serial host check of the reference when cells x T <= this
  std::vector<int> ebisu_depths;      ///< forced-depth EBISU variants (Backend::ebisu, DoubleBuffer)
  std::vector<int> ebisu_threads;     ///< threads per block of those variants (empty: the model's)
  std::vector<int> response_intervals;  ///< source cases: ebisu-sm-response-every-N rows at these intervals
  std::vector<std::string> plain_variants;    ///< plain variants to run (names; "fast" = the sweep set); empty: all
  std::vector<std::string> ebisu_variants;    ///< parallel_stencil:<name> variants to run; empty: all
  std::vector<std::string> ebisu_strategies;  ///< Backend::ebisu with a forced Strategy (ebisu-sm, ebisu-device, ...)
  int graph_steps = 0;                        ///< steps per graph of the graph-* variants (even); 0: automatic
  std::vector<std::string> field_cases;       ///< stencils with read-only fields (field_cases.hpp)
  std::vector<std::string> state_cases;       ///< several state fields / time levels (state_cases.hpp)
  std::vector<std::string> boundaries;        ///< periodic / mirror: also time parallel_stencil with every side so
  std::string command_line;
};

/// Parses argv; prints usage and exits on --help or on an error.
Options parse_options(int argc, char** argv);

/// Whether the plain variant `name` is selected by --plain-variants (always when the list is empty).
bool plain_variant_selected(const Options& o, const std::string& name);

/// Whether parallel_stencil:<name> is selected by --ebisu-variants (always when the list is empty).
bool ebisu_variant_selected(const Options& o, const std::string& name);
/// True when --ebisu-variants names `name` (variants that run only on request).
bool ebisu_variant_listed(const Options& o, const std::string& name);

/// The plain variants that "--plain-variants fast" stands for (both ranks): the size sweep's set.
const std::vector<std::string>& fast_plain_variants();

/// Every stencil name the harness knows, in suite order.
std::vector<std::string> all_stencil_names();

}  // namespace ebisu_bench

#endif
