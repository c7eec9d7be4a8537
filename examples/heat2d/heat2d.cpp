// Thermal diffusion on a square copper plate (the case study of the Tetris
// paper): 15 mm on a side, 9600 x 9600 cells, explicit 5-point heat update at
// CFL number mu = alpha dt / dx^2 = 0.23, a Gaussian hot spot of 100 C in the
// centre over a 20 C plate, edges held at their initial temperature.
//
//   heat2d [--size N] [--steps T] [--reports K] [--output heat2d.png] [--backend auto|generic|ebisu]
//
// What used to be "parallel_for one step, swap, repeat" is one parallel_stencil
// call per report interval. The figure shows the final temperature with a
// colour bar, the plate's axes in mm and the simulated time.

#include "command_line.hpp"
#include "figure.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    const ebisu_examples::RunOptions opt = ebisu_examples::parse_run_options(argc, argv, "heat2d", {9600, 20000, 10, "heat2d.png"});
    const int n = opt.size;
    const double side_m = 15e-3, alpha = 1.11e-4;  // copper thermal diffusivity, m^2/s
    const double dx = side_m / n, mu = 0.23, dt = mu * dx * dx / alpha;
    const double ambient = 20.0, peak = 100.0, sigma = side_m / 10;

    EbisuKokkos::print_configuration(std::cout);
    std::printf("copper plate %.0f mm, %d x %d cells, dx = %.3g m, dt = %.3g s, mu = %.2f, %d steps (%.3g s simulated)\n",
                side_m * 1e3, n, n, dx, dt, mu, opt.steps, opt.steps * dt);

    using View = Kokkos::View<double**>;
    View u("temperature", n, n);
    Kokkos::parallel_for(
        "heat2d::init", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {n, n}), KOKKOS_LAMBDA(int i, int j) {
          const double y = (i + 0.5) * dx - side_m / 2, x = (j + 0.5) * dx - side_m / 2;
          u(i, j) = ambient + (peak - ambient) * exp(-(x * x + y * y) / (2 * sigma * sigma));
        });

    // u_new = (1 - 4 mu) u + mu (north + south + east + west), in the preset's offset order:
    // (-1, 0), (0, -1), (0, 0), (0, 1), (1, 0).
    const auto heat = EbisuKokkos::star_stencil<2, 1>({mu, mu, 1 - 4 * mu, mu, mu});
    // The two time levels, as a hand-written loop keeps them; the field is
    // always field.current() (no copy when a run ends in the second buffer).
    EbisuKokkos::DoubleBuffer<View> field(u, View("temperature_next", n, n));

    auto centre = [&]() {
      double c = 0;
      Kokkos::deep_copy(c, Kokkos::subview(field.current(), n / 2, n / 2));
      return c;
    };
    std::printf("step %8d  centre temperature %8.4f C\n", 0, centre());

    const auto start = std::chrono::steady_clock::now();
    int done = 0;
    for (int r = 1; r <= opt.reports; ++r) {
      const int target = static_cast<int>(static_cast<long long>(opt.steps) * r / opt.reports);
      if (target == done) continue;
      EbisuKokkos::StencilPolicy<> policy(target - done);
      policy.set_backend(opt.backend).set_print_plan(r == 1);
      const auto report = EbisuKokkos::parallel_stencil("heat2d", policy, heat, field);
      done = target;
      const double c = centre();  // also waits for the steps
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::printf("step %8d  centre temperature %8.4f C  %7.2f s  %8.2f GCells/s  [%s]\n", done, c, secs,
                  double(n - 2) * (n - 2) * done / secs * 1e-9, EbisuKokkos::to_string(report.backend));
      std::fflush(stdout);
    }

    // The figure: View index 0 along y (rows, drawn upwards), index 1 along x.
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), field.current());
    std::vector<double> final_field(static_cast<size_t>(n) * n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) final_field[static_cast<size_t>(i) * n + j] = host(i, j);
    ebisu_examples::Figure fig;
    fig.title = "copper plate, t = " + ebisu_examples::format_seconds(done * dt) + " (" + std::to_string(done) + " steps)";
    fig.x = {"x (mm)", 0.0, side_m * 1e3};
    fig.y = {"y (mm)", 0.0, side_m * 1e3};
    fig.colour_label = std::string("temperature (") + ebisu_examples::degrees_celsius + ")";
    fig.lo = ambient;
    fig.hi = peak;
    ebisu_examples::write_png(opt.output, final_field, n, n, fig);
    std::printf("final centre temperature %.4f C at t = %.4g s; image %s\n", host(n / 2, n / 2), done * dt,
                opt.output.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "heat2d: %s\n", e.what());
    return 1;
  }
  return 0;
}
