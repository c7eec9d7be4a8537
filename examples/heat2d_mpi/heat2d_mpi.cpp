// heat2d on several MPI ranks: the copper plate of examples/heat2d (15 mm,
// Gaussian hot spot of 100 C over 20 C, edges held, mu = 0.23) split over the
// ranks of MPI_COMM_WORLD by EbisuKokkos::Mpi::CartesianDomain. Each rank owns
// a block plus ghost zones several steps deep; parallel_stencil exchanges them
// once per that many steps and runs the single-rank backends (EBISU kernels on
// a GPU, the blocked host path on CPUs) on each block in between.
//
//   mpirun -np 4 heat2d_mpi [--size N] [--steps T] [--reports K] [--output heat2d_mpi.png]
//                           [--backend auto|generic|ebisu] [--steps-per-exchange K]
//
// Rank 0 gathers the final field and writes the figure (colour bar, axes in mm,
// simulated time, the decomposition in the title).

#include "command_line.hpp"
#include "figure.hpp"

#include <ebisu_kokkos/mpi.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Options {
  int size = 4096;
  int steps = 4000;
  int reports = 4;
  int steps_per_exchange = 0;
  std::string output = "heat2d_mpi.png";
  EbisuKokkos::Backend backend = EbisuKokkos::Backend::automatic;
};

Options parse(int argc, char** argv) {
  Options o;
  const char* usage =
      "heat2d_mpi [--size N] [--steps T] [--reports K] [--output file.png] [--backend auto|generic|ebisu] "
      "[--steps-per-exchange K]";
  ebisu_examples::parse_command_line(argc, argv, usage, [&](const std::string& a, const ebisu_examples::OptionValue& value) {
    if (a == "--size") o.size = std::stoi(value());
    else if (a == "--steps") o.steps = std::stoi(value());
    else if (a == "--reports") o.reports = std::stoi(value());
    else if (a == "--output") o.output = value();
    else if (a == "--backend") o.backend = ebisu_examples::parse_backend(value());
    else if (a == "--steps-per-exchange") o.steps_per_exchange = std::stoi(value());
    else return false;
    return true;
  });
  if (o.size < 3 || o.steps < 0 || o.reports < 1 || o.steps_per_exchange < 0) {
    throw std::invalid_argument("need --size >= 3, --steps >= 0, --reports >= 1, --steps-per-exchange >= 0");
  }
  return o;
}

int run(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  const int n = opt.size;
  const double side_m = 15e-3, alpha = 1.11e-4;
  const double dx = side_m / n, mu = 0.23, dt = mu * dx * dx / alpha;
  const double ambient = 20.0, peak = 100.0, sigma = side_m / 10;

  EbisuKokkos::Mpi::DomainOptions options;
  options.steps_per_exchange = opt.steps_per_exchange;
  const EbisuKokkos::Mpi::CartesianDomain<2> domain(MPI_COMM_WORLD, {n, n}, /*radius=*/1, options);
  const bool root = domain.rank() == 0;
  if (root) {
    EbisuKokkos::print_configuration(std::cout);
    std::printf("copper plate %.0f mm, %d x %d cells on %d ranks (%d x %d), ghost zones %lld cells deep, "
                "dt = %.3g s, %d steps (%.3g s simulated)\n",
                side_m * 1e3, n, n, domain.size(), domain.ranks_per_axis(0), domain.ranks_per_axis(1),
                static_cast<long long>(domain.ghost_width()), dt, opt.steps, opt.steps * dt);
  }

  using View = Kokkos::View<double**>;
  auto field = domain.create_buffers<View>("temperature");
  {
    // local index (i, j) is global cell (i - ghost_low + owned_begin, ...); ghosts are filled by the call
    const View u = field.current();
    const long long gi = domain.owned_begin(0) - domain.ghost(0, EbisuKokkos::Side::low);
    const long long gj = domain.owned_begin(1) - domain.ghost(1, EbisuKokkos::Side::low);
    Kokkos::parallel_for(
        "heat2d_mpi::init",
        Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {static_cast<long long>(u.extent(0)), static_cast<long long>(u.extent(1))}),
        KOKKOS_LAMBDA(long long i, long long j) {
          const double y = (gi + i + 0.5) * dx - side_m / 2, x = (gj + j + 0.5) * dx - side_m / 2;
          u(i, j) = ambient + (peak - ambient) * exp(-(x * x + y * y) / (2 * sigma * sigma));
        });
  }
  const auto heat = EbisuKokkos::star_stencil<2, 1>({mu, mu, 1 - 4 * mu, mu, mu});

  MPI_Barrier(MPI_COMM_WORLD);
  const auto start = std::chrono::steady_clock::now();
  int done = 0;
  for (int r = 1; r <= opt.reports; ++r) {
    const int target = static_cast<int>(static_cast<long long>(opt.steps) * r / opt.reports);
    if (target == done) continue;
    EbisuKokkos::StencilPolicy<> policy(target - done);
    policy.set_backend(opt.backend).set_print_plan(r == 1);
    EbisuKokkos::Mpi::parallel_stencil("heat2d_mpi", domain, policy, heat, field);
    done = target;
    Kokkos::fence();
    MPI_Barrier(MPI_COMM_WORLD);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (root) {
      std::printf("step %8d  %7.2f s  %8.2f GCells/s (all ranks)\n", done, secs,
                  double(n - 2) * (n - 2) * done / secs * 1e-9);
      std::fflush(stdout);
    }
  }

  const auto global = EbisuKokkos::Mpi::gather(domain, field.current());
  if (root) {
    std::vector<double> final_field(static_cast<size_t>(n) * n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) final_field[static_cast<size_t>(i) * n + j] = global(i, j);
    ebisu_examples::Figure fig;
    fig.title = "copper plate on " + std::to_string(domain.size()) + " ranks, t = " +
                ebisu_examples::format_seconds(done * dt) + " (" + std::to_string(done) + " steps)";
    fig.x = {"x (mm)", 0.0, side_m * 1e3};
    fig.y = {"y (mm)", 0.0, side_m * 1e3};
    fig.colour_label = std::string("temperature (") + ebisu_examples::degrees_celsius + ")";
    fig.lo = ambient;
    fig.hi = peak;
    ebisu_examples::write_png(opt.output, final_field, n, n, fig);
    std::printf("final centre temperature %.4f C at t = %.4g s; image %s\n", global(n / 2, n / 2), done * dt,
                opt.output.c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    try {
      status = run(argc, argv);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "heat2d_mpi: %s\n", e.what());
      status = 1;
    }
  }
  if (status != 0) MPI_Abort(MPI_COMM_WORLD, status);
  MPI_Finalize();
  return status;
}
