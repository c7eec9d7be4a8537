// Heat spreading from a hot core inside a copper cube: 10 mm on a side, 128^3
// cells (the size a single GPU keeps on chip), explicit 7-point heat update at
// mu = alpha dt / dx^2 = 0.15, a Gaussian hot spot of 100 C in the centre over
// a 20 C cube whose faces are held at 20 C.
//
//   heat3d [--size N] [--steps T] [--reports K] [--output heat3d.png] [--backend auto|generic|ebisu]
//
// Until the heat reaches the faces the centre follows the free-space solution
// of a Gaussian, T(0, t) = 20 + 80 (s^2 / (s^2 + 2 alpha t))^(3/2): printed
// beside the computed one as a check. The figure is the mid-plane z = L / 2
// with a colour bar, the cube's axes in mm and the simulated time.

#include "command_line.hpp"
#include "figure.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    const ebisu_examples::RunOptions opt = ebisu_examples::parse_run_options(argc, argv, "heat3d", {128, 600, 3, "heat3d.png"});
    const int n = opt.size;
    const double side_m = 10e-3, alpha = 1.11e-4;  // copper thermal diffusivity, m^2/s
    const double dx = side_m / n, mu = 0.15, dt = mu * dx * dx / alpha;
    const double ambient = 20.0, peak = 100.0, sigma = side_m / 16;

    EbisuKokkos::print_configuration(std::cout);
    std::printf("copper cube %.0f mm, %d^3 cells, dx = %.3g m, dt = %.3g s, mu = %.2f, %d steps (%.3g s simulated)\n",
                side_m * 1e3, n, dx, dt, mu, opt.steps, opt.steps * dt);

    using View = Kokkos::View<double***>;
    View u("temperature", n, n, n);
    // The hot spot is centred on the middle cell (odd n) or the middle corner (even n).
    const double centre_m = side_m / 2;
    Kokkos::parallel_for(
        "heat3d::init", Kokkos::MDRangePolicy<Kokkos::Rank<3>>({0, 0, 0}, {n, n, n}),
        KOKKOS_LAMBDA(int i, int j, int k) {
          const double z = (i + 0.5) * dx - centre_m, y = (j + 0.5) * dx - centre_m, x = (k + 0.5) * dx - centre_m;
          u(i, j, k) = ambient + (peak - ambient) * exp(-(x * x + y * y + z * z) / (2 * sigma * sigma));
        });

    // u_new = (1 - 6 mu) u + mu (the six face neighbours), in the preset's offset order.
    const auto heat = EbisuKokkos::star_stencil<3, 1>({mu, mu, mu, 1 - 6 * mu, mu, mu, mu});
    EbisuKokkos::DoubleBuffer<View> field(u, View("temperature_next", n, n, n));

    const int c = n / 2;
    // The mean of the (up to) eight cells nearest the centre: the hot spot's peak.
    // (Through small device Views: Kokkos copies a strided subview to the host only via a contiguous one.)
    Kokkos::View<double***> middle("centre", 2, 2, 2);
    auto centre = [&]() {
      Kokkos::deep_copy(middle, Kokkos::subview(field.current(), Kokkos::make_pair(c - 1, c + 1),
                                                Kokkos::make_pair(c - 1, c + 1), Kokkos::make_pair(c - 1, c + 1)));
      auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), middle);
      if (n % 2 == 1) return h(1, 1, 1);
      double s = 0;
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
          for (int k = 0; k < 2; ++k) s += h(i, j, k);
      return s / 8;
    };
    auto free_space = [&](int steps) {
      const double s2 = sigma * sigma, t = steps * dt, h = 0.5 * dx * (n % 2 == 0 ? std::sqrt(3.0) : 0.0);
      const double w = s2 + 2 * alpha * t;
      return ambient + (peak - ambient) * std::pow(s2 / w, 1.5) * std::exp(-h * h / (2 * w));
    };
    std::printf("step %7d  centre %8.4f C  (free-space analytic %8.4f C)\n", 0, centre(), free_space(0));

    const auto start = std::chrono::steady_clock::now();
    int done = 0;
    for (int r = 1; r <= opt.reports; ++r) {
      const int target = static_cast<int>(static_cast<long long>(opt.steps) * r / opt.reports);
      if (target == done) continue;
      EbisuKokkos::StencilPolicy<> policy(target - done);
      policy.set_backend(opt.backend).set_print_plan(r == 1);
      const auto report = EbisuKokkos::parallel_stencil("heat3d", policy, heat, field);
      done = target;
      const double t_c = centre();  // also waits for the steps
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::printf("step %7d  centre %8.4f C  (free-space analytic %8.4f C)  %7.2f s  %8.2f GCells/s  [%s %s]\n",
                  done, t_c, free_space(done), secs, double(n - 2) * (n - 2) * (n - 2) * done / secs * 1e-9,
                  EbisuKokkos::to_string(report.backend), EbisuKokkos::to_string(report.strategy));
      std::fflush(stdout);
    }

    // The figure: the mid-plane (View index 0 = c), index 1 along y (rows, drawn upwards), index 2 along x.
    Kokkos::View<double**> mid_plane("mid_plane", n, n);
    Kokkos::deep_copy(mid_plane, Kokkos::subview(field.current(), c, Kokkos::ALL, Kokkos::ALL));
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), mid_plane);
    std::vector<double> plane(static_cast<size_t>(n) * n);
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) plane[static_cast<size_t>(j) * n + k] = host(j, k);
    ebisu_examples::Figure fig;
    fig.title = "copper cube, mid-plane, t = " + ebisu_examples::format_seconds(done * dt) + " (" +
                std::to_string(done) + " steps)";
    fig.x = {"x (mm)", 0.0, side_m * 1e3};
    fig.y = {"y (mm)", 0.0, side_m * 1e3};
    fig.colour_label = std::string("temperature (") + ebisu_examples::degrees_celsius + ")";
    fig.lo = ambient;
    fig.hi = peak;
    ebisu_examples::write_png(opt.output, plane, n, n, fig);
    std::printf("final centre temperature %.4f C (free-space analytic %.4f C) at t = %.4g s; image %s\n", centre(),
                free_space(done), done * dt, opt.output.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "heat3d: %s\n", e.what());
    return 1;
  }
  return 0;
}
