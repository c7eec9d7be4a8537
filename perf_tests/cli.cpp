// Command-line parsing of ebisu_bench (no dependency beyond the standard library).

#include "cli.hpp"

#include "field_cases.hpp"
#include "state_cases.hpp"

#include <ebisu_kokkos/presets.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <sstream>

namespace ebisu_bench {

namespace {

const char* usage_text =
    "Usage: ebisu_bench [options]\n"
    "Times T Jacobi steps of each stencil: plain Kokkos variants (MDRange tile sweep, flattened\n"
    "RangePolicy), KokkosKernels SpMV (if built with it) and EbisuKokkos::parallel_stencil\n"
    "(Backend::automatic and Backend::generic), each checked against the best plain variant.\n"
    "\n"
    "  --stencils a,b,...   subset of: j1d3pt j1d5pt j2d5pt j2d9pt j2d9pt-gol j2d25pt\n"
    "                       j3d7pt j3d13pt j3d17pt j3d27pt poisson (default: all; none: no preset)\n"
    "  --field-cases a,b    also time stencils with read-only fields against plain Kokkos of the\n"
    "                       same physics: heat2d-var heat3d-var (conductivity field), j2d5pt-source\n"
    "                       j3d7pt-source (the preset plus a source field)\n"
    "  --state-cases a,b    also time stencils over several state fields / time levels against plain\n"
    "                       Kokkos of the same physics: wave1d wave2d wave3d (leapfrog, two time\n"
    "                       levels), gray-scott1d gray-scott2d gray-scott3d (two coupled fields)\n"
    "  --size N             every dimension of every domain = N\n"
    "  --size1d N           1-D domain (default 2^26 = 67108864)\n"
    "  --size2d N | Y,X     2-D domain (default: the paper size of each stencil)\n"
    "  --size3d Z,Y,X | N   3-D domain, x contiguous (default 2560,288,384)\n"
    "  --steps T            time steps per run (default 100 on a device, 10 on the host)\n"
    "  --reps N             timed repetitions per variant, >= 5 (default 5)\n"
    "  --precision P        double | float (default double)\n"
    "  --json PATH          JSON output (default ebisu_bench.json)\n"
    "  --bw-mb M            MiB per buffer of the copy-bandwidth test (default 1024 device, 256 host)\n"
    "  --no-spmv            skip the KokkosKernels SpMV variant\n"
    "  --spmv-mem-fraction F  skip SpMV above this fraction of device memory (default 0.6)\n"
    "  --oracle-limit N     serial host check of the reference when cells x T <= N (default 2e7)\n"
    "  --ebisu-depths a,b   also time Backend::ebisu at these forced depths (DoubleBuffer form;\n"
    "                       state cases: on their state)\n"
    "  --ebisu-threads a,b  threads per block of those runs (default: the model's)\n"
    "  --response-intervals a,b  source field cases: also SM tiling with the source's response added\n"
    "                       once every N launches (ebisu-sm-response-every-N)\n"
    "  --ebisu-strategies a,b  also time Backend::ebisu with the Strategy forced (DoubleBuffer form):\n"
    "                       sm_tiling -> ebisu-sm, device_tiling -> ebisu-device,\n"
    "                       in_place_tiling -> ebisu-in-place, automatic -> ebisu-auto\n"
    "  --ebisu-variants a,b parallel_stencil variants to run, of: automatic generic double-buffer\n"
    "                       other-layout (default: all), and automatic-model (Selection::model:\n"
    "                       the model's choice without timing runs; only when listed)\n"
    "  --plain-variants a,b plain-Kokkos variants to run, by name (mdrange-tile-32x4,\n"
    "                       graph-mdrange-coarse4-tile-32x4x1, ...); 'fast' = the size sweep's set:\n"
    "                       mdrange-[coarse4-]tile-32x4[x1] and their graph- forms (default: all)\n"
    "  --boundaries a,b     also time parallel_stencil with every side periodic and/or mirror\n"
    "                       (automatic, generic, and the --ebisu-strategies), each checked against\n"
    "                       the generic path with the same rule; mirror runs use the preset's shape\n"
    "                       with mirror-symmetric weights (the Dirichlet rows stay as they are);\n"
    "                       with sm_tiling, also at each --ebisu-depths depth (ebisu-sm-dD-RULE)\n"
    "  --graph-steps G      steps per Kokkos::Experimental::Graph of the graph-* variants, even\n"
    "                       (default: the largest even divisor of T up to 64)\n"
    "  --help\n"
    "Kokkos options (--kokkos-threads=..., --kokkos-device-id=...) are passed to Kokkos.\n";

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "ebisu_bench: %s\n\n%s", message.c_str(), usage_text);
  std::exit(2);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, sep)) {
    if (!item.empty()) parts.push_back(item);
  }
  return parts;
}

long to_long(const std::string& option, const std::string& s, long min_value) {
  char* end = nullptr;
  const long v = std::strtol(s.c_str(), &end, 10);
  if (end == s.c_str() || *end != '\0' || v < min_value) {
    fail(option + " expects an integer >= " + std::to_string(min_value) + ", got '" + s + "'");
  }
  return v;
}

double to_double(const std::string& option, const std::string& s) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0' || !(v > 0)) fail(option + " expects a positive number, got '" + s + "'");
  return v;
}

// "N" -> every entry N; "a,b[,c]" -> exactly `count` entries.
void parse_dims(const std::string& option, const std::string& s, int* dims, int count) {
  const auto parts = split(s, ',');
  if (parts.size() == 1) {
    const int v = static_cast<int>(to_long(option, parts[0], 1));
    for (int i = 0; i < count; ++i) dims[i] = v;
  } else if (static_cast<int>(parts.size()) == count) {
    for (int i = 0; i < count; ++i) dims[i] = static_cast<int>(to_long(option, parts[i], 1));
  } else {
    fail(option + " expects N or " + std::to_string(count) + " comma-separated extents, got '" + s + "'");
  }
}

}  // namespace

const std::vector<std::string>& fast_plain_variants() {
  static const std::vector<std::string> names = {
      "mdrange-coarse4-tile-32x4",       "mdrange-coarse4-tile-32x4x1",       "mdrange-tile-32x4",
      "mdrange-tile-32x4x1",             "graph-mdrange-coarse4-tile-32x4",   "graph-mdrange-coarse4-tile-32x4x1",
      "graph-mdrange-tile-32x4",         "graph-mdrange-tile-32x4x1"};
  return names;
}

bool plain_variant_selected(const Options& o, const std::string& name) {
  if (o.plain_variants.empty()) return true;
  for (const auto& s : o.plain_variants) {
    if (s == name) return true;
    if (s == "fast") {
      const auto& f = fast_plain_variants();
      if (std::find(f.begin(), f.end(), name) != f.end()) return true;
    }
  }
  return false;
}

bool ebisu_variant_listed(const Options& o, const std::string& name) {
  return std::find(o.ebisu_variants.begin(), o.ebisu_variants.end(), name) != o.ebisu_variants.end();
}

bool ebisu_variant_selected(const Options& o, const std::string& name) {
  return o.ebisu_variants.empty() ||
         std::find(o.ebisu_variants.begin(), o.ebisu_variants.end(), name) != o.ebisu_variants.end();
}

std::vector<std::string> all_stencil_names() {
  std::vector<std::string> names;
  EbisuKokkos::presets::for_each_preset(0, [&](const std::string& name, const auto&) { names.push_back(name); });
  return names;
}

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 0; i < argc; ++i) o.command_line += (i ? " " : "") + std::string(argv[i]);
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--kokkos-", 0) == 0) continue;  // left for Kokkos::initialize
    std::string value;
    const auto eq = arg.find('=');
    bool inline_value = false;
    if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      inline_value = true;
    }
    auto next = [&]() -> std::string {
      if (inline_value) return value;
      if (i + 1 >= argc) fail(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      std::printf("%s", usage_text);
      std::exit(0);
    } else if (arg == "--stencils") {
      o.stencils = split(next(), ',');
    } else if (arg == "--size") {
      const int n = static_cast<int>(to_long(arg, next(), 1));
      o.size1d = n;
      o.size2d[0] = o.size2d[1] = n;
      o.size3d[0] = o.size3d[1] = o.size3d[2] = n;
    } else if (arg == "--size1d") {
      o.size1d = to_long(arg, next(), 1);
    } else if (arg == "--size2d") {
      parse_dims(arg, next(), o.size2d, 2);
    } else if (arg == "--size3d") {
      parse_dims(arg, next(), o.size3d, 3);
    } else if (arg == "--steps") {
      o.steps = static_cast<int>(to_long(arg, next(), 1));
    } else if (arg == "--reps") {
      o.reps = static_cast<int>(to_long(arg, next(), 5));
    } else if (arg == "--precision") {
      o.precision = next();
      if (o.precision != "double" && o.precision != "float") fail("--precision must be double or float");
    } else if (arg == "--json") {
      o.json = next();
    } else if (arg == "--bw-mb") {
      o.bw_mb = to_double(arg, next());
    } else if (arg == "--no-spmv") {
      o.spmv = false;
    } else if (arg == "--spmv-mem-fraction") {
      o.spmv_memory_fraction = to_double(arg, next());
    } else if (arg == "--oracle-limit") {
      o.oracle_limit = to_long(arg, next(), 0);
    } else if (arg == "--ebisu-depths" || arg == "--ebisu-threads" || arg == "--response-intervals") {
      auto& list = arg == "--ebisu-depths" ? o.ebisu_depths : arg == "--ebisu-threads" ? o.ebisu_threads
                                                                                       : o.response_intervals;
      for (const auto& item : split(next(), ',')) list.push_back(static_cast<int>(to_long(arg, item, 1)));
    } else if (arg == "--plain-variants") {
      // Names the harness can offer (graph- only for the two step loops that have one).
      static const std::regex plain_name(
          "fast|mdrange-default|mdrange-tile-row|range-interior|range-branch|openmp-simd-loop|"
          "mdrange-(coarse4-)?tile-[0-9]+x[0-9]+(x[0-9]+)?|graph-mdrange-(coarse4-)?tile-32x4(x1)?");
      o.plain_variants = split(next(), ',');
      for (const auto& n : o.plain_variants) {
        if (!std::regex_match(n, plain_name)) fail("--plain-variants: unknown plain variant '" + n + "'");
      }
    } else if (arg == "--ebisu-variants") {
      o.ebisu_variants = split(next(), ',');
      for (const auto& n : o.ebisu_variants) {
        if (n != "automatic" && n != "automatic-model" && n != "generic" && n != "double-buffer" &&
            n != "other-layout") {
          fail("--ebisu-variants: unknown variant '" + n +
               "' (automatic automatic-model generic double-buffer other-layout)");
        }
      }
    } else if (arg == "--ebisu-strategies") {
      for (auto n : split(next(), ',')) {
        std::replace(n.begin(), n.end(), '-', '_');
        if (n != "automatic" && n != "sm_tiling" && n != "device_tiling" && n != "in_place_tiling") {
          fail("--ebisu-strategies: unknown strategy '" + n +
               "' (automatic sm_tiling device_tiling in_place_tiling)");
        }
        if (std::find(o.ebisu_strategies.begin(), o.ebisu_strategies.end(), n) == o.ebisu_strategies.end()) {
          o.ebisu_strategies.push_back(n);
        }
      }
    } else if (arg == "--field-cases") {
      o.field_cases = split(next(), ',');
      const auto& names = field_case_names();
      for (const auto& n : o.field_cases) {
        if (std::find(names.begin(), names.end(), n) == names.end()) fail("--field-cases: unknown case '" + n + "'");
      }
    } else if (arg == "--state-cases") {
      o.state_cases = split(next(), ',');
      const auto& names = state_case_names();
      for (const auto& n : o.state_cases) {
        if (std::find(names.begin(), names.end(), n) == names.end()) fail("--state-cases: unknown case '" + n + "'");
      }
    } else if (arg == "--boundaries") {
      o.boundaries = split(next(), ',');
      for (const auto& n : o.boundaries) {
        if (n != "periodic" && n != "mirror") fail("--boundaries: unknown rule '" + n + "' (periodic mirror)");
      }
    } else if (arg == "--graph-steps") {
      o.graph_steps = static_cast<int>(to_long(arg, next(), 2));
      if (o.graph_steps % 2 != 0) fail("--graph-steps must be even (the graph must end in the buffer it starts from)");
    } else {
      fail("unknown option '" + arg + "'");
    }
  }
  const auto known = all_stencil_names();
  for (const auto& s : o.stencils) {
    if (s != "none" && std::find(known.begin(), known.end(), s) == known.end()) fail("unknown stencil '" + s + "'");
  }
  return o;
}

}  // namespace ebisu_bench
