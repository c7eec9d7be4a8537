// Sound through a double slit: the 2-D acoustic wave equation p_tt = c^2 lap p
// in a 2 m x 2 m room with rigid outer walls (zero flux: mirror sides), a thin
// acoustically soft barrier (p = 0) with two slits, and a Gaussian pressure
// pulse released at rest in front of it. Leapfrog in time, 5-point Laplacian:
//
//   p^{n+1} = 2 p^n - p^{n-1} + s (p^n(x+h) + p^n(x-h) + p^n(y+h) + p^n(y-h) - 4 p^n),
//
// s = (c dt / h)^2 = 0.4 in air and 0 in the barrier, a read-only field. The
// state is one field with two time levels, EbisuKokkos::TimeLevels<View, 2>:
// three buffers turned as a ring, as a hand-written leapfrog loop keeps them.
//
//   wave2d [--size N] [--steps T] [--reports K] [--output wave2d.png] [--backend auto|generic|ebisu]
//
// The figure shows the pressure with a colour bar, the room's axes in m and
// the simulated time.

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
  int size = 1024;
  int steps = -1;  // default: until the diffraction pattern has crossed the room
  int reports = 5;
  std::string output = "wave2d.png";
  EbisuKokkos::Backend backend = EbisuKokkos::Backend::automatic;
};

Options parse(int argc, char** argv) {
  Options o;
  const char* usage = "wave2d [--size N] [--steps T] [--reports K] [--output file.png] [--backend auto|generic|ebisu]";
  ebisu_examples::parse_command_line(argc, argv, usage, [&](const std::string& a, const ebisu_examples::OptionValue& value) {
    if (a == "--size") o.size = std::stoi(value());
    else if (a == "--steps") o.steps = std::stoi(value());
    else if (a == "--reports") o.reports = std::stoi(value());
    else if (a == "--output") o.output = value();
    else if (a == "--backend") o.backend = ebisu_examples::parse_backend(value());
    else return false;
    return true;
  });
  if (o.size < 64 || o.reports < 1) throw std::invalid_argument("need --size >= 64 and --reports >= 1");
  if (o.steps < 0) o.steps = static_cast<int>(1.35 * o.size);
  return o;
}

// The leapfrog update; the older level p_prev and the Courant field s are read at the cell only
// (taken as doubles, so the GPU kernels keep no neighbourhood of them).
struct Leapfrog {
  KOKKOS_INLINE_FUNCTION double operator()(const EbisuKokkos::Neighbors<double, 2, 1>& p, double p_prev,
                                           double s) const {
    return 2 * p(0, 0) - p_prev + s * (p(-1, 0) + p(1, 0) + p(0, -1) + p(0, 1) - 4 * p(0, 0));
  }
};

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    const Options opt = parse(argc, argv);
    const int n = opt.size;
    const double side = 2.0, c = 343.0;  // m, speed of sound in air (m/s)
    const double h = side / n, courant2 = 0.4, dt = std::sqrt(courant2) * h / c;
    const double barrier_x = 0.8, slit_half_width = 0.05, slit_offset = 0.2;  // m
    const double source_x = 0.4, source_y = 1.0, sigma = 0.03;                // m
    const int barrier_cells = std::max(2, n / 256);

    EbisuKokkos::print_configuration(std::cout);
    std::printf("room %.0f m x %.0f m, %d x %d cells, h = %.3g m, dt = %.3g s, (c dt/h)^2 = %.2f, %d steps (%.3g ms)\n",
                side, side, n, n, h, dt, courant2, opt.steps, opt.steps * dt * 1e3);

    // View index 0 along y, index 1 along x.
    using View = Kokkos::View<double**>;
    View p("p", n, n), p_prev("p_prev", n, n), spare("p_spare", n, n), s("courant2", n, n);
    Kokkos::parallel_for(
        "wave2d::init", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {n, n}), KOKKOS_LAMBDA(int i, int j) {
          const double y = (i + 0.5) * h, x = (j + 0.5) * h;
          const double dx = x - source_x, dy = y - source_y;
          p(i, j) = p_prev(i, j) = exp(-(dx * dx + dy * dy) / (2 * sigma * sigma));  // at rest
          const int barrier_j = static_cast<int>(barrier_x / h);
          const bool in_barrier = j >= barrier_j && j < barrier_j + barrier_cells;
          const bool in_slit = fabs(fabs(y - source_y) - slit_offset) < slit_half_width;
          s(i, j) = in_barrier && !in_slit ? 0.0 : courant2;
        });

    EbisuKokkos::TimeLevels<View, 2> pressure(p, p_prev, spare);
    // The update is unchanged by a reflection (a Laplacian, the Courant number read at the cell):
    // declared, so that on a GPU the EBISU kernels take the rigid walls too.
    const auto leapfrog = EbisuKokkos::make_stencil<2, 1>(Leapfrog{}).declare_mirror_symmetric();
    const auto courant_field = EbisuKokkos::fields(EbisuKokkos::centre_only(s));

    const auto start = std::chrono::steady_clock::now();
    int done = 0;
    for (int r = 1; r <= opt.reports; ++r) {
      const int target = static_cast<int>(static_cast<long long>(opt.steps) * r / opt.reports);
      if (target == done) continue;
      EbisuKokkos::StencilPolicy<> policy(target - done);
      policy.set_backend(opt.backend).set_print_plan(r == 1);
      for (int axis = 0; axis < 2; ++axis) policy.set_boundary(axis, EbisuKokkos::Boundary::mirror);  // rigid walls
      const auto report = EbisuKokkos::parallel_stencil("wave2d", policy, leapfrog, pressure, courant_field);
      done = target;
      double peak = 0;  // also waits for the steps
      const View now = pressure.current();
      Kokkos::parallel_reduce(
          "wave2d::peak", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {n, n}),
          KOKKOS_LAMBDA(int i, int j, double& m) { m = fmax(m, fabs(now(i, j))); }, Kokkos::Max<double>(peak));
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::printf("step %7d  t = %8.4f ms  max |p| %.4f  %7.2f s  %8.2f GCells/s  [%s]\n", done, done * dt * 1e3, peak,
                  secs, double(n) * n * done / secs * 1e-9, EbisuKokkos::to_string(report.backend));
      std::fflush(stdout);
    }

    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pressure.current());
    std::vector<double> field(static_cast<size_t>(n) * n);
    double beyond = 0;  // the loudest point behind the barrier sets the colour range
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        field[static_cast<size_t>(i) * n + j] = host(i, j);
        if ((j + 0.5) * h > barrier_x + 0.1) beyond = std::max(beyond, std::fabs(host(i, j)));
      }
    if (beyond == 0) beyond = 1;
    ebisu_examples::Figure fig;
    fig.title = "double slit, t = " + ebisu_examples::format_seconds(done * dt) + " (" + std::to_string(done) + " steps)";
    fig.x = {"x (m)", 0.0, side};
    fig.y = {"y (m)", 0.0, side};
    fig.colour_label = "pressure (pulse amplitude 1)";
    fig.lo = -beyond;
    fig.hi = beyond;
    fig.map = ebisu_examples::ColourMap::diverging;
    ebisu_examples::write_png(opt.output, field, n, n, fig);
    std::printf("t = %.4g ms, max |p| behind the barrier %.4f; image %s\n", done * dt * 1e3, beyond, opt.output.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "wave2d: %s\n", e.what());
    return 1;
  }
  return 0;
}
