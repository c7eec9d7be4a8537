// Scaling of the distributed parallel_stencil (issue 14, item 4): one
// configuration per invocation, run under mpirun with one GPU (or CPU socket)
// per rank; rank 0 prints a table row and appends a JSON line.
//
//   mpirun -np 2 ebisu_mpi_bench --stencil j2d5pt|j3d7pt --size 16384 | --extents 2560x288x384 [--weak]
//          [--steps 512] [--reps 5] [--check]
//          [--backend auto|generic|ebisu] [--steps-per-exchange K] [--overlap auto|on|off]
//          [--json file.jsonl]
//
// --size (every axis) or --extents give the global domain (strong scaling), or
// with --weak each rank's block: index 0 then grows with the ranks, which are
// all placed along it (weak scaling). Each rank picks its GPU itself where CUDA_VISIBLE_DEVICES
// is set per rank by the launcher (perf_tests/run_mpi_scaling.sh).
// Time: median over reps of one call of T steps, fenced and barriered on both
// sides; GCells/s counts the global interior cells once. --check compares the owned
// cells afterwards with one rank's run of the whole domain (needs the global field
// to fit on each rank's device).

#include "device_info.hpp"

#include <ebisu_kokkos/mpi.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Options {
  std::string stencil = "j2d5pt";
  long long size = 4096;
  std::vector<long long> extents;  // --extents AxB[xC]: instead of --size
  bool weak = false;
  bool check = false;
  int steps = 256;
  int reps = 5;
  int steps_per_exchange = 0;
  EbisuKokkos::Mpi::ExchangeOverlap overlap = EbisuKokkos::Mpi::ExchangeOverlap::automatic;
  EbisuKokkos::Backend backend = EbisuKokkos::Backend::automatic;
  std::string json;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    if (a == "--stencil") o.stencil = next();
    else if (a == "--size") o.size = std::stoll(next());
    else if (a == "--extents") {
      const std::string e = next();
      std::size_t start = 0;
      while (start <= e.size()) {
        const std::size_t x = e.find('x', start);
        o.extents.push_back(std::stoll(e.substr(start, x - start)));
        if (x == std::string::npos) break;
        start = x + 1;
      }
    }
    else if (a == "--weak") o.weak = true;
    else if (a == "--check") o.check = true;
    else if (a == "--steps") o.steps = std::stoi(next());
    else if (a == "--reps") o.reps = std::stoi(next());
    else if (a == "--steps-per-exchange") o.steps_per_exchange = std::stoi(next());
    else if (a == "--json") o.json = next();
    else if (a == "--overlap") {
      const std::string v = next();
      o.overlap = v == "on" ? EbisuKokkos::Mpi::ExchangeOverlap::on
                  : v == "off" ? EbisuKokkos::Mpi::ExchangeOverlap::off
                               : EbisuKokkos::Mpi::ExchangeOverlap::automatic;
    } else if (a == "--backend") {
      const std::string b = next();
      o.backend = b == "generic" ? EbisuKokkos::Backend::generic
                  : b == "ebisu" ? EbisuKokkos::Backend::ebisu
                                 : EbisuKokkos::Backend::automatic;
    } else if (a.rfind("--kokkos", 0) == 0) {
      continue;
    } else {
      throw std::invalid_argument("unknown argument " + a);
    }
  }
  return o;
}

// Cell (i, j, k) of a View whose first cell is global cell `at`: a pattern of the global index, in [1, 2).
template <class View>
void init_field(const View& u, const std::array<long long, 3>& at) {
  const long long a0 = at[0], a1 = at[1], a2 = at[2];
  if constexpr (View::rank == 2) {
    Kokkos::parallel_for(
        "init", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {static_cast<long long>(u.extent(0)),
                                                               static_cast<long long>(u.extent(1))}),
        KOKKOS_LAMBDA(long long i, long long j) { u(i, j) = 1.0 + (((a0 + i) * 7 + (a1 + j) * 13) % 101) / 101.0; });
  } else {
    Kokkos::parallel_for(
        "init",
        Kokkos::MDRangePolicy<Kokkos::Rank<3>>({0, 0, 0}, {static_cast<long long>(u.extent(0)),
                                                          static_cast<long long>(u.extent(1)),
                                                          static_cast<long long>(u.extent(2))}),
        KOKKOS_LAMBDA(long long i, long long j, long long k) {
          u(i, j, k) = 1.0 + (((a0 + i) * 7 + (a1 + j) * 13 + (a2 + k) * 3) % 101) / 101.0;
        });
  }
}

// The largest relative difference between the owned cells of `local` and the same cells of `global`.
template <int Rank, class View>
double max_relative_difference(const EbisuKokkos::Mpi::CartesianDomain<Rank>& domain, const View& local,
                               const View& global) {
  long long lo[3] = {0, 0, 0}, n[3] = {1, 1, 1}, at[3] = {0, 0, 0};
  for (int a = 0; a < Rank; ++a) {
    lo[a] = domain.ghost(a, EbisuKokkos::Side::low);
    n[a] = domain.owned_extent(a);
    at[a] = domain.owned_begin(a);
  }
  double worst = 0;
  if constexpr (Rank == 2) {
    Kokkos::parallel_reduce(
        "check", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {n[0], n[1]}),
        KOKKOS_LAMBDA(long long i, long long j, double& m) {
          const double x = local(lo[0] + i, lo[1] + j), y = global(at[0] + i, at[1] + j);
          const double d = (x > y ? x - y : y - x) / (y > 1 ? y : 1);
          m = d > m ? d : m;
        },
        Kokkos::Max<double>(worst));
  } else {
    Kokkos::parallel_reduce(
        "check", Kokkos::MDRangePolicy<Kokkos::Rank<3>>({0, 0, 0}, {n[0], n[1], n[2]}),
        KOKKOS_LAMBDA(long long i, long long j, long long k, double& m) {
          const double x = local(lo[0] + i, lo[1] + j, lo[2] + k), y = global(at[0] + i, at[1] + j, at[2] + k);
          const double d = (x > y ? x - y : y - x) / (y > 1 ? y : 1);
          m = d > m ? d : m;
        },
        Kokkos::Max<double>(worst));
  }
  double all = 0;
  MPI_Allreduce(&worst, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return all;
}

template <int Rank, class Stencil>
int run(const Options& opt, const Stencil& stencil) {
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::array<std::int64_t, Rank> extents;
  extents.fill(opt.size);
  if (!opt.extents.empty()) {
    if (static_cast<int>(opt.extents.size()) != Rank) throw std::invalid_argument("--extents has the wrong rank");
    for (int a = 0; a < Rank; ++a) extents[a] = opt.extents[a];
  }
  if (opt.weak) extents[0] *= ranks;
  EbisuKokkos::Mpi::DomainOptions options;
  options.steps_per_exchange = opt.steps_per_exchange;
  options.overlap = opt.overlap;
  if (opt.weak) options.ranks_per_axis = {{ranks, 1, 1}};
  const EbisuKokkos::Mpi::CartesianDomain<Rank> domain(MPI_COMM_WORLD, extents, Stencil::radius, options);
  using View = Kokkos::View<typename std::conditional_t<Rank == 2, double**, double***>>;
  auto field = domain.template create_buffers<View>("u");
  Kokkos::deep_copy(field.current(), 1.0);
  Kokkos::deep_copy(field.alternate(), 1.0);
  std::array<long long, 3> first{{0, 0, 0}};  // the global index of local cell 0
  for (int a = 0; a < Rank; ++a) first[a] = domain.owned_begin(a) - domain.ghost(a, EbisuKokkos::Side::low);
  init_field(field.current(), first);
  EbisuKokkos::StencilPolicy<> policy(opt.steps);
  policy.set_backend(opt.backend);
  // warm-up (plans, measured choices, allocations), until the overlap choice is made (it may take
  // the rounds of several calls)
  int warm_ups = 0;
  for (int w = 0; w < 12; ++w) {
    ++warm_ups;
    const auto warm = EbisuKokkos::Mpi::parallel_stencil("warm-up", domain, policy, stencil, field);
    Kokkos::fence();
    if (warm.plan.find("being measured") == std::string::npos) break;
  }
  std::vector<double> seconds;
  EbisuKokkos::StencilReport report;
  for (int r = 0; r < opt.reps; ++r) {
    Kokkos::fence();
    MPI_Barrier(MPI_COMM_WORLD);
    const auto t0 = std::chrono::steady_clock::now();
    report = EbisuKokkos::Mpi::parallel_stencil("bench", domain, policy, stencil, field);
    Kokkos::fence();
    MPI_Barrier(MPI_COMM_WORLD);
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  // Against one rank's run of the whole domain on this rank's device (--check): within 1e-12
  // relative (the plans may differ, e.g. in temporal depth, and with them the contraction into FMAs).
  double difference = -1;
  if (opt.check) {
    View global = EbisuKokkos::Mpi::Impl::allocate_box<View>("global", [&] {
      EbisuKokkos::Mpi::Impl::Box b;
      for (int a = 0; a < Rank; ++a) b.extent[a] = extents[a];
      return b;
    }());
    View scratch = EbisuKokkos::Mpi::Impl::allocate_box<View>("global_scratch", [&] {
      EbisuKokkos::Mpi::Impl::Box b;
      for (int a = 0; a < Rank; ++a) b.extent[a] = extents[a];
      return b;
    }());
    init_field(global, {{0, 0, 0}});
    EbisuKokkos::parallel_stencil("one rank", policy.with_steps(opt.steps * (opt.reps + warm_ups)), stencil, global, scratch);
    Kokkos::fence();
    difference = max_relative_difference(domain, field.current(), global);
  }
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[seconds.size() / 2];
  double interior = 1;
  for (int a = 0; a < Rank; ++a) interior *= static_cast<double>(extents[a] - 2 * Stencil::radius);
  const double gcells = interior * opt.steps / median * 1e-9;
  if (domain.rank() == 0) {
    const ebisu_bench::DeviceInfo device = ebisu_bench::query_device_info();
    std::string global;
    for (int a = 0; a < Rank; ++a) global += (a ? "x" : "") + std::to_string(extents[a]);
    std::printf("%-8s %-16s ranks %d  steps %d  %9.3f ms  %8.2f GCells/s  check %s  MPI %s  (%s; %s)\n",
                opt.stencil.c_str(), global.c_str(), ranks, opt.steps, median * 1e3, gcells,
                difference < 0 ? "off" : (difference <= 1e-12 ? "ok" : "FAILED"),
                EbisuKokkos::Mpi::Impl::mpi_is_device_aware() ? "device-aware" : "host-staged", device.name.c_str(),
                report.plan.c_str());
    if (!opt.json.empty()) {
      std::ofstream out(opt.json, std::ios::app);
      char date[32];
      const std::time_t now = std::time(nullptr);
      std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
      std::string plan = report.plan;
      for (auto& c : plan)
        if (c == '"' || c == '\\') c = '\'';
      out << "{\"date\": \"" << date << "\", \"device\": \"" << device.name << "\", \"stencil\": \"" << opt.stencil
          << "\", \"scaling\": \"" << (opt.weak ? "weak" : "strong") << "\", \"ranks\": " << ranks
          << ", \"global\": \"" << global << "\", \"steps\": " << opt.steps << ", \"reps\": " << opt.reps
          << ", \"backend\": \"" << EbisuKokkos::to_string(opt.backend) << "\", \"steps_per_exchange\": "
          << domain.steps_per_exchange() << ", \"overlap\": \"" << EbisuKokkos::Mpi::to_string(opt.overlap)
          << "\", \"mpi_device_aware\": "
          << (EbisuKokkos::Mpi::Impl::mpi_is_device_aware() ? "true" : "false") << ", \"seconds_median\": " << median << ", \"gcells_per_s\": " << gcells
          << ", \"max_relative_difference_to_one_rank\": " << difference << ", \"plan\": \"" << plan << "\"}\n";
    }
  }
  return difference > 1e-12 ? 2 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    try {
      const Options opt = parse(argc, argv);
      if (opt.stencil == "j2d5pt") status = run<2>(opt, EbisuKokkos::presets::j2d5pt());
      else if (opt.stencil == "j3d7pt") status = run<3>(opt, EbisuKokkos::presets::j3d7pt());
      else throw std::invalid_argument("unknown stencil " + opt.stencil + " (j2d5pt, j3d7pt)");
    } catch (const std::exception& e) {
      std::fprintf(stderr, "ebisu_mpi_bench: %s\n", e.what());
      status = 1;
    }
  }
  if (status != 0) MPI_Abort(MPI_COMM_WORLD, status);
  MPI_Finalize();
  return status;
}
