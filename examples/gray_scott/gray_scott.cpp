// Spots from noise: the Gray-Scott reaction-diffusion system
//
//   u_t = Du lap u - u v^2 + F (1 - u),   v_t = Dv lap v + u v^2 - (F + k) v,
//
// on a periodic square (grid units, Du = 0.16, Dv = 0.08, F = 0.035, k = 0.065,
// explicit Euler with dt = 1), started from u = 1, v = 0 with small random
// seeds of v. Two coupled fields, one stencil that returns both new values:
// EbisuKokkos::CoupledFields<View, 2>, two buffers per field.
//
//   gray_scott [--size N] [--steps T] [--reports K] [--output gray_scott.png] [--backend auto|generic|ebisu]
//
// The figure shows v with a colour bar, the axes in grid units and the
// simulated (dimensionless) time.

#include "command_line.hpp"
#include "figure.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Options {
  int size = 256;
  int steps = 8000;
  int reports = 4;
  std::string output = "gray_scott.png";
  EbisuKokkos::Backend backend = EbisuKokkos::Backend::automatic;
};

Options parse(int argc, char** argv) {
  Options o;
  const char* usage =
      "gray_scott [--size N] [--steps T] [--reports K] [--output file.png] [--backend auto|generic|ebisu]";
  ebisu_examples::parse_command_line(argc, argv, usage, [&](const std::string& a, const ebisu_examples::OptionValue& value) {
    if (a == "--size") o.size = std::stoi(value());
    else if (a == "--steps") o.steps = std::stoi(value());
    else if (a == "--reports") o.reports = std::stoi(value());
    else if (a == "--output") o.output = value();
    else if (a == "--backend") o.backend = ebisu_examples::parse_backend(value());
    else return false;
    return true;
  });
  if (o.size < 16 || o.steps < 0 || o.reports < 1) throw std::invalid_argument("need --size >= 16, --steps >= 0, --reports >= 1");
  return o;
}

struct GrayScott {
  double du, dv, feed, kill, dt;
  KOKKOS_INLINE_FUNCTION Kokkos::Array<double, 2> operator()(const EbisuKokkos::Neighbors<double, 2, 1>& u,
                                                             const EbisuKokkos::Neighbors<double, 2, 1>& v) const {
    const double lu = u(-1, 0) + u(1, 0) + u(0, -1) + u(0, 1) - 4 * u(0, 0);
    const double lv = v(-1, 0) + v(1, 0) + v(0, -1) + v(0, 1) - 4 * v(0, 0);
    const double uvv = u(0, 0) * v(0, 0) * v(0, 0);
    return {u(0, 0) + dt * (du * lu - uvv + feed * (1 - u(0, 0))), v(0, 0) + dt * (dv * lv + uvv - (feed + kill) * v(0, 0))};
  }
};

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    const Options opt = parse(argc, argv);
    const int n = opt.size;
    const GrayScott model{0.16, 0.08, 0.035, 0.065, 1.0};
    EbisuKokkos::print_configuration(std::cout);
    std::printf("Gray-Scott, %d x %d periodic, Du = %.2f, Dv = %.2f, F = %.3f, k = %.3f, dt = %.1f, %d steps\n", n, n,
                model.du, model.dv, model.feed, model.kill, model.dt, opt.steps);

    // The initial state, made on the host: u = 1, v = 0, and a few seeds
    // (u = 1/2, v = 1/4 squares) with 1% noise, from a fixed seed.
    using View = Kokkos::View<double**>;
    View u("u", n, n), u_next("u_next", n, n), v("v", n, n), v_next("v_next", n, n);
    {
      auto hu = Kokkos::create_mirror_view(u);
      auto hv = Kokkos::create_mirror_view(v);
      std::mt19937 gen(2026);
      std::uniform_real_distribution<double> noise(-0.01, 0.01);
      std::uniform_int_distribution<int> where(0, n - 1);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          hu(i, j) = 1.0;
          hv(i, j) = 0.0;
        }
      const int seeds = std::max(3, n * n / 8192), half = std::max(5, n / 25);
      for (int k = 0; k < seeds; ++k) {
        const int ci = where(gen), cj = where(gen);
        for (int di = -half; di <= half; ++di)
          for (int dj = -half; dj <= half; ++dj) {
            const int i = (ci + di + n) % n, j = (cj + dj + n) % n;
            hu(i, j) = 0.5 + noise(gen);
            hv(i, j) = 0.25 + noise(gen);
          }
      }
      Kokkos::deep_copy(u, hu);
      Kokkos::deep_copy(v, hv);
    }

    EbisuKokkos::CoupledFields<View, 2> state(u, u_next, v, v_next);
    const auto reaction_diffusion = EbisuKokkos::make_stencil<2, 1>(model);

    const auto start = std::chrono::steady_clock::now();
    int done = 0;
    for (int r = 1; r <= opt.reports; ++r) {
      const int target = static_cast<int>(static_cast<long long>(opt.steps) * r / opt.reports);
      if (target == done) continue;
      EbisuKokkos::StencilPolicy<> policy(target - done);
      policy.set_backend(opt.backend).set_print_plan(r == 1);
      for (int axis = 0; axis < 2; ++axis) policy.set_boundary(axis, EbisuKokkos::Boundary::periodic);
      const auto report = EbisuKokkos::parallel_stencil("gray_scott", policy, reaction_diffusion, state);
      done = target;
      double v_sum = 0;  // also waits for the steps
      const View vv = state.current(1);
      Kokkos::parallel_reduce(
          "gray_scott::sum", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {n, n}),
          KOKKOS_LAMBDA(int i, int j, double& sum) { sum += vv(i, j); }, v_sum);
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::printf("step %7d  mean v %.5f  %7.2f s  %8.2f GCells/s  [%s]\n", done, v_sum / (double(n) * n), secs,
                  double(n) * n * done / secs * 1e-9, EbisuKokkos::to_string(report.backend));
      std::fflush(stdout);
    }

    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), state.current(1));
    std::vector<double> field(static_cast<size_t>(n) * n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) field[static_cast<size_t>(i) * n + j] = host(i, j);
    ebisu_examples::Figure fig;
    char time[64];
    std::snprintf(time, sizeof time, "%.0f", done * model.dt);
    fig.title = std::string("Gray-Scott spots, t = ") + time + " (dimensionless, " + std::to_string(done) + " steps)";
    fig.x = {"x (cells)", 0.0, double(n)};
    fig.y = {"y (cells)", 0.0, double(n)};
    fig.colour_label = "v (concentration)";
    fig.lo = 0.0;
    fig.hi = 0.4;
    ebisu_examples::write_png(opt.output, field, n, n, fig);
    std::printf("image %s\n", opt.output.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gray_scott: %s\n", e.what());
    return 1;
  }
  return 0;
}
