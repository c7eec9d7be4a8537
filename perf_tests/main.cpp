// ebisu_bench: fair timings of the stencil suite on the default execution
// space: plain Kokkos (best of several variants), KokkosKernels SpMV and
// EbisuKokkos::parallel_stencil, each checked against the best plain variant.
// See perf_tests/README.md.

#include "cases.hpp"
#include "cli.hpp"
#include "device_info.hpp"
#include "field_cases.hpp"
#include "gpu_telemetry.hpp"
#include "state_cases.hpp"
#include "output.hpp"
#include "results.hpp"
#include "timing.hpp"

#include <ebisu_kokkos/version.hpp>

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <ctime>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string utc_now() {
  char buf[32];
  const std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::string kokkos_version_string() {
#ifdef KOKKOS_VERSION
  const int v = KOKKOS_VERSION;
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
#else
  return "unknown";
#endif
}

template <class Scalar>
void run_all(const ebisu_bench::Options& o, const ebisu_bench::RunInfo& info,
             std::vector<ebisu_bench::CaseResult>& cases) {
  ebisu_bench::run_cases<1, Scalar>(o, info, cases);
  ebisu_bench::run_cases<2, Scalar>(o, info, cases);
  ebisu_bench::run_cases<3, Scalar>(o, info, cases);
  ebisu_bench::run_field_cases<Scalar>(o, info, cases);
  ebisu_bench::run_state_cases<Scalar>(o, info, cases);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace ebisu_bench;
  const Options options = parse_options(argc, argv);
  Kokkos::initialize(argc, argv);
  int exit_code = 0;
  {
    using Space = Kokkos::DefaultExecutionSpace;
    constexpr bool on_host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Space::memory_space>::accessible;
    const DeviceInfo device = query_device_info();

    RunInfo info;
    info.date_utc = utc_now();
    info.host = device.host;
    info.device_name = device.name;
    info.device_kind = device.kind + (device.details.empty() ? "" : " (" + device.details + ")");
    info.device_memory_bytes = device.memory_bytes;
    info.execution_space = Space::name();
    info.memory_space = Space::memory_space::name();
    info.concurrency = Space().concurrency();
    info.kokkos_version = kokkos_version_string();
    info.ebisu_version = EbisuKokkos::version();
    {
      std::ostringstream cfg;
      EbisuKokkos::print_configuration(cfg);
      info.ebisu_configuration = cfg.str();
    }
    info.command_line = options.command_line;
    info.layout = std::is_same_v<Space::array_layout, Kokkos::LayoutLeft> ? "LayoutLeft" : "LayoutRight";
    info.precision = options.precision;
    info.scalar_bytes = options.precision == "double" ? 8 : 4;
#ifdef EBISU_BENCH_HAVE_KOKKOSKERNELS
    info.kokkoskernels = true;
#endif
    info.steps = options.steps > 0 ? options.steps : (on_host ? 10 : 100);
    info.reps = options.reps;
    const GpuTelemetry& telemetry = gpu_telemetry();
    info.gpu_telemetry = telemetry.enabled() ? "nvml" : "none";
    info.gpu_telemetry_note = telemetry.status();

    std::printf("ebisu_bench: %s on %s [%s], Kokkos %s, EbisuKokkos %s, KokkosKernels %s\n",
                info.execution_space.c_str(), info.device_name.c_str(), info.device_kind.c_str(),
                info.kokkos_version.c_str(), info.ebisu_version.c_str(), info.kokkoskernels ? "yes" : "no");
    std::printf("GPU telemetry: %s (%s)\n", info.gpu_telemetry.c_str(), info.gpu_telemetry_note.c_str());
    const CopyBandwidth bw = measure_copy_bandwidth(options.bw_mb > 0 ? options.bw_mb : (on_host ? 256 : 1024));
    info.copy_bytes = bw.bytes_per_buffer;
    info.copy_bw_best_gbs = bw.best_gbs;
    info.copy_bw_median_gbs = bw.median_gbs;
    info.bound_gcells = bw.best_gbs / (2.0 * info.scalar_bytes);
    std::printf("copy bandwidth (deep_copy of %.0f MiB, read+write): best %.1f GB/s, median %.1f GB/s -> "
                "per-step bound %.2f GCells/s (%s)\n",
                bw.bytes_per_buffer / 1048576.0, bw.best_gbs, bw.median_gbs, info.bound_gcells,
                info.precision.c_str());
    std::fflush(stdout);

    std::vector<CaseResult> cases;
    if (options.precision == "double") {
      run_all<double>(options, info, cases);
    } else {
      run_all<float>(options, info, cases);
    }

    int failed = 0;
    for (const auto& c : cases) {
      for (const auto& r : c.variants) failed += r.status == "FAILED" ? 1 : 0;
    }
    info.all_checks_passed = failed == 0;
    print_table(info, cases);
    if (!write_json(options.json, info, cases)) {
      std::fprintf(stderr, "ebisu_bench: cannot write %s\n", options.json.c_str());
      exit_code = 1;
    } else {
      std::printf("wrote %s\n", options.json.c_str());
    }
    if (failed > 0) {
      std::printf("ebisu_bench: %d variant(s) FAILED (see the table)\n", failed);
      exit_code = 1;
    }
  }
  Kokkos::finalize();
  return exit_code;
}
