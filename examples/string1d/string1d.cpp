// A plucked guitar string: the 1-D wave equation u_tt = c^2 u_xx on a 0.65 m
// A string (110 Hz, so c = 2 L f = 143 m/s) with fixed ends, plucked 2 mm at
// a fifth of its length and released at rest. Leapfrog in time, 3-point
// second difference in space:
//
//   u^{n+1} = 2 u^n - u^{n-1} + s (u^n(x+h) - 2 u^n + u^n(x-h)),   s = (c dt / h)^2 = 1.
//
// At s = 1 (the "magic" time step) the scheme is d'Alembert's solution on the
// grid: the two half-height triangles run apart, reflect inverted at the ends
// and meet again, and after one period 2 L / c the string is back in its
// initial shape to rounding. The program checks that (exit code 1 if not), so
// it tests the kernels as well as showing them. The state is one field with
// two time levels, EbisuKokkos::TimeLevels<View, 2>; on CUDA it runs on the
// 1-D segment-tiling kernel.
//
//   string1d [--size N] [--rows K] [--output string1d.png] [--backend auto|generic|ebisu]
//
// The figure is the space-time diagram: displacement along the string (x)
// against time (upwards), one row per 1/K of the period (1.5 K points along
// the string), with a colour bar.

#include "command_line.hpp"
#include "figure.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Options {
  int size = 16385;  // grid points, both fixed ends included
  int rows = 400;
  std::string output = "string1d.png";
  EbisuKokkos::Backend backend = EbisuKokkos::Backend::automatic;
};

Options parse(int argc, char** argv) {
  Options o;
  const char* usage = "string1d [--size N] [--rows K] [--output file.png] [--backend auto|generic|ebisu]";
  ebisu_examples::parse_command_line(argc, argv, usage, [&](const std::string& a, const ebisu_examples::OptionValue& value) {
    if (a == "--size") o.size = std::stoi(value());
    else if (a == "--rows") o.rows = std::stoi(value());
    else if (a == "--output") o.output = value();
    else if (a == "--backend") o.backend = ebisu_examples::parse_backend(value());
    else return false;
    return true;
  });
  if (o.size < 11 || o.rows < 2) throw std::invalid_argument("need --size >= 11 and --rows >= 2");
  return o;
}

// The leapfrog update (at s = 1 it is u^{n+1} = u^n(x+h) + u^n(x-h) - u^{n-1}).
struct Leapfrog {
  double s;
  KOKKOS_INLINE_FUNCTION double operator()(const EbisuKokkos::Neighbors<double, 1, 1>& u,
                                           const EbisuKokkos::Neighbors<double, 1, 1>& u_prev) const {
    return 2 * u(0) - u_prev(0) + s * (u(1) - 2 * u(0) + u(-1));
  }
};

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    const Options opt = parse(argc, argv);
    const int n = opt.size;
    const double length = 0.65, frequency = 110.0, c = 2 * length * frequency;  // m, Hz, m/s
    const double pluck_x = length / 5, amplitude = 2e-3;                        // m
    const double h = length / (n - 1), s = 1.0, dt = std::sqrt(s) * h / c;
    const int period_steps = 2 * (n - 1);  // 2 L / c

    EbisuKokkos::print_configuration(std::cout);
    std::printf("string %.2f m, c = %.0f m/s, %d points, h = %.3g m, dt = %.3g s, (c dt/h)^2 = %.0f, "
                "one period = %d steps (%.4g ms)\n",
                length, c, n, h, dt, s, period_steps, period_steps * dt * 1e3);

    // The pluck: a triangle, at rest. "At rest" for the leapfrog means u^{-1} = u^1,
    // i.e. u^{-1} = u^0 + (s / 2) (second difference of u^0), exact for this scheme.
    std::vector<double> shape(static_cast<size_t>(n)), before(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      const double x = i * h;
      shape[i] = x <= pluck_x ? amplitude * x / pluck_x : amplitude * (length - x) / (length - pluck_x);
    }
    shape[0] = shape[n - 1] = 0;
    for (int i = 0; i < n; ++i) {
      const bool end = i == 0 || i == n - 1;
      before[i] = end ? 0.0 : shape[i] + 0.5 * s * (shape[i + 1] - 2 * shape[i] + shape[i - 1]);
    }
    using View = Kokkos::View<double*>;
    View u("u", n), u_prev("u_prev", n), spare("u_spare", n);
    Kokkos::deep_copy(u, Kokkos::View<const double*, Kokkos::HostSpace>(shape.data(), n));
    Kokkos::deep_copy(u_prev, Kokkos::View<const double*, Kokkos::HostSpace>(before.data(), n));

    EbisuKokkos::TimeLevels<View, 2> string(u, u_prev, spare);
    const auto leapfrog = EbisuKokkos::make_stencil<1, 1>(Leapfrog{s});

    // The space-time diagram: row r is the string after r / rows of the period,
    // sampled at `columns` points (a readable aspect ratio for any size).
    const int columns = std::min(n, 3 * opt.rows / 2);
    std::vector<double> diagram;
    diagram.reserve(static_cast<size_t>(columns) * (opt.rows + 1));
    auto add_row = [&](const double* string_now) {
      for (int j = 0; j < columns; ++j)
        diagram.push_back(string_now[static_cast<long>(j) * (n - 1) / (columns - 1)]);
    };
    add_row(shape.data());
    std::vector<double> last(static_cast<size_t>(n));
    const auto start = std::chrono::steady_clock::now();
    int done = 0;
    for (int r = 1; r <= opt.rows; ++r) {
      const int target = static_cast<int>(static_cast<long long>(period_steps) * r / opt.rows);
      EbisuKokkos::StencilPolicy<> policy(target - done);
      policy.set_backend(opt.backend).set_print_plan(r == 1);
      const auto report = EbisuKokkos::parallel_stencil("string1d", policy, leapfrog, string);  // fixed ends: the frame
      done = target;
      auto now = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), string.current());
      add_row(now.data());
      if (r == opt.rows) std::copy(now.data(), now.data() + n, last.begin());
      if (r % std::max(1, opt.rows / 5) == 0 || r == opt.rows) {
        double peak = 0;
        for (int i = 0; i < n; ++i) peak = std::max(peak, std::fabs(now(i)));
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("step %8d  t = %7.4f ms  max |u| %.4f mm  %7.2f s  %8.2f GCells/s  [%s]\n", done, done * dt * 1e3,
                    peak * 1e3, secs, double(n) * done / secs * 1e-9, EbisuKokkos::to_string(report.backend));
        std::fflush(stdout);
      }
    }

    // One period on: the initial shape again (d'Alembert, exact at s = 1).
    double deviation = 0;
    for (int i = 0; i < n; ++i) deviation = std::max(deviation, std::fabs(last[i] - shape[i]));

    ebisu_examples::Figure fig;
    fig.title = "plucked A string, one period " + ebisu_examples::format_seconds(done * dt) + " (" +
                std::to_string(done) + " steps)";
    fig.x = {"x (m)", 0.0, length};
    fig.y = {"t (ms)", 0.0, done * dt * 1e3};
    fig.colour_label = "displacement (mm)";
    for (double& v : diagram) v *= 1e3;
    fig.lo = -amplitude * 1e3;
    fig.hi = amplitude * 1e3;
    fig.map = ebisu_examples::ColourMap::diverging;
    ebisu_examples::write_png(opt.output, diagram, columns, opt.rows + 1, fig);
    std::printf("after one period (t = %.4g ms) the largest deviation from the pluck is %.3g of its height; image %s\n",
                done * dt * 1e3, deviation / amplitude, opt.output.c_str());
    if (!(deviation <= 1e-9 * amplitude)) {
      std::fprintf(stderr, "string1d: the string did not return to its initial shape\n");
      return 1;
    }
    std::printf("the string returned to its initial shape\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "string1d: %s\n", e.what());
    return 1;
  }
  return 0;
}
