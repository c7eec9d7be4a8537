// Transient heat conduction in a composite plate: vertical layers of copper
// and stainless steel side by side, 10 mm x 10 mm, repeating along x
// (periodic), the bottom edge held hot (100 C) and the top edge cold (20 C),
// the plate starting at the cold temperature. Heat runs up the copper layers
// far ahead of the steel ones and leaks sideways into the steel; in the
// steady state every column carries a linear profile, and the heat flowing in
// at the bottom equals the heat flowing out at the top.
//
//   composite_plate [--size N] [--steps T] [--reports K] [--layers L] [--output composite_plate.png]
//                   [--backend auto|generic|ebisu]
//
// The model: dT/dt = div(alpha grad T) with the diffusivity alpha(x, y) of the
// material in each cell (one read-only field), the diffusivity of a face the
// harmonic mean of its two cells (conduction in series), explicit Euler steps
// of dt = safety * dx^2 / (4 alpha_max). The diffusivity form takes the
// volumetric heat capacity rho * cp as even across a face; copper and steel
// differ in it by 14%, while their diffusivities differ 29-fold.
//
// View index 0 is y (row 0 the hot edge, row N-1 the cold one: fixed
// temperatures, the default boundary); index 1 is x (Boundary::periodic).

#include "command_line.hpp"
#include "figure.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Material {
  const char* name;
  double k;    // thermal conductivity, W/(m K)
  double rho;  // density, kg/m^3
  double cp;   // specific heat capacity, J/(kg K)
  double alpha() const { return k / (rho * cp); }  // thermal diffusivity, m^2/s
};

// Room-temperature handbook values.
const Material copper{"copper", 401.0, 8960.0, 385.0};
const Material steel{"stainless steel 304", 16.2, 8000.0, 500.0};

struct Options {
  int size = 256;
  int steps = 40000;
  int reports = 8;
  int layers = 2;  // copper/steel pairs across the width
  std::string output = "composite_plate.png";
  EbisuKokkos::Backend backend = EbisuKokkos::Backend::automatic;
};

const char* const usage =
    "composite_plate [--size N] [--steps T] [--reports K] [--layers L] [--output file.png] "
    "[--backend auto|generic|ebisu] [--kokkos-...]";

Options parse(int argc, char** argv) {
  Options o;
  ebisu_examples::parse_command_line(argc, argv, usage, [&](const std::string& a, const ebisu_examples::OptionValue& value) {
    if (a == "--size") o.size = std::stoi(value());
    else if (a == "--steps") o.steps = std::stoi(value());
    else if (a == "--reports") o.reports = std::stoi(value());
    else if (a == "--layers") o.layers = std::stoi(value());
    else if (a == "--output") o.output = value();
    else if (a == "--backend") o.backend = ebisu_examples::parse_backend(value());
    else return false;
    return true;
  });
  if (o.size < 8 || o.steps < 0 || o.reports < 1 || o.layers < 1 || 2 * o.layers > o.size)
    throw std::invalid_argument("need --size >= 8, --steps >= 0, --reports >= 1, 1 <= --layers <= size / 2");
  return o;
}

// One explicit step of dT/dt = div(alpha grad T) on the 5-point star:
// T' = T + dt/dx^2 * sum over the four faces of alpha_face * (T_neighbour - T),
// alpha_face the harmonic mean of the two cells' diffusivities.
struct CompositeHeat {
  double dt_over_dx2;

  KOKKOS_INLINE_FUNCTION static double face(double a, double b) { return 2.0 * a * b / (a + b); }

  KOKKOS_INLINE_FUNCTION double operator()(const EbisuKokkos::Neighbors<double, 2, 1>& u,
                                           const EbisuKokkos::Neighbors<double, 2, 1>& a) const {
    const double t = u(0, 0), ac = a(0, 0);
    const double flux = face(ac, a(-1, 0)) * (u(-1, 0) - t) + face(ac, a(1, 0)) * (u(1, 0) - t) +
                        face(ac, a(0, -1)) * (u(0, -1) - t) + face(ac, a(0, 1)) * (u(0, 1) - t);
    return t + dt_over_dx2 * flux;
  }
};

struct Summary {
  double mean_copper = 0, mean_steel = 0, centre = 0;
  double heat_in = 0, heat_out = 0;  // W per metre of plate depth
  double lo = 0, hi = 0;             // extremes over the whole plate
};

Summary summarise(const std::vector<double>& t, const std::vector<char>& is_copper, int n) {
  Summary s;
  s.lo = s.hi = t[0];
  for (double v : t) {
    s.lo = std::min(s.lo, v);
    s.hi = std::max(s.hi, v);
  }
  double sum_cu = 0, sum_st = 0;
  long count_cu = 0, count_st = 0;
  for (int i = 1; i < n - 1; ++i)  // the plate between the held edges
    for (int j = 0; j < n; ++j) {
      if (is_copper[j]) {
        sum_cu += t[static_cast<size_t>(i) * n + j];
        ++count_cu;
      } else {
        sum_st += t[static_cast<size_t>(i) * n + j];
        ++count_st;
      }
    }
  s.mean_copper = count_cu ? sum_cu / count_cu : 0;
  s.mean_steel = count_st ? sum_st / count_st : 0;
  s.centre = t[static_cast<size_t>(n / 2) * n + n / 2];
  // Fourier's law across the first and last row of faces: q = k (T_a - T_b) / dx
  // over a face dx long, so k (T_a - T_b) per face (the layers are vertical: one material per column).
  for (int j = 0; j < n; ++j) {
    const double k = is_copper[j] ? copper.k : steel.k;
    s.heat_in += k * (t[j] - t[static_cast<size_t>(n) + j]);
    s.heat_out += k * (t[static_cast<size_t>(n - 2) * n + j] - t[static_cast<size_t>(n - 1) * n + j]);
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    const Options opt = parse(argc, argv);
    const int n = opt.size;
    const double width = 10e-3, dx = width / n, height = n * dx;  // square cells, square plate
    const double hot = 100.0, cold = 20.0;
    const double alpha_max = std::max(copper.alpha(), steel.alpha());
    const double safety = 0.9, dt = safety * dx * dx / (4 * alpha_max);

    EbisuKokkos::print_configuration(std::cout);
    for (const Material& m : {copper, steel})
      std::printf("%-20s k = %6.1f W/(m K)  rho = %5.0f kg/m^3  cp = %4.0f J/(kg K)  alpha = %.3e m^2/s\n", m.name,
                  m.k, m.rho, m.cp, m.alpha());
    std::printf("plate %.0f x %.0f mm, %d copper/steel layer pairs, %d x %d cells, dx = %.3g m, dt = %.3g s "
                "(%.0f%% of the stability limit), %d steps (%.4g s simulated)\n",
                width * 1e3, height * 1e3, opt.layers, n, n, dx, dt, safety * 100, opt.steps, opt.steps * dt);

    // Material of each column: 2 * layers vertical layers of equal width, copper first.
    std::vector<char> is_copper(n);
    for (int j = 0; j < n; ++j) is_copper[j] = (static_cast<long>(j) * 2 * opt.layers / n) % 2 == 0;

    using View = Kokkos::View<double**>;
    View u("temperature", n, n), scratch("temperature_next", n, n), alpha("diffusivity", n, n);
    {
      auto u_host = Kokkos::create_mirror_view(u);
      auto alpha_host = Kokkos::create_mirror_view(alpha);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          u_host(i, j) = i == 0 ? hot : cold;
          alpha_host(i, j) = is_copper[j] ? copper.alpha() : steel.alpha();
        }
      Kokkos::deep_copy(u, u_host);
      Kokkos::deep_copy(alpha, alpha_host);
    }

    double steady = 0;  // heat flow of the steady state (linear profile in every column), W/m
    for (int j = 0; j < n; ++j) steady += (is_copper[j] ? copper.k : steel.k) * (hot - cold) / (n - 1);
    std::printf("steady state: %.4g kW per metre of plate depth flows from the hot edge to the cold one\n",
                steady * 1e-3);

    const auto stencil = EbisuKokkos::make_stencil<2, 1>(CompositeHeat{dt / (dx * dx)});
    EbisuKokkos::StencilPolicy<> base(0);
    base.set_backend(opt.backend).set_boundary(1, EbisuKokkos::Boundary::periodic);  // x wraps; y keeps fixed edges

    auto u_host = Kokkos::create_mirror_view(u);
    std::vector<double> t_host(static_cast<size_t>(n) * n);
    auto fetch = [&]() {
      Kokkos::deep_copy(u_host, u);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) t_host[static_cast<size_t>(i) * n + j] = u_host(i, j);
    };
    double lowest = cold, highest = hot;
    auto report = [&](int step, double secs, const char* backend) {
      fetch();
      const Summary s = summarise(t_host, is_copper, n);
      lowest = std::min(lowest, s.lo);
      highest = std::max(highest, s.hi);
      std::printf("t = %9.4g s  step %8d  mean temperature copper %7.3f C  steel %7.3f C  centre %7.3f C  "
                  "heat flow in %9.4g W/m  out %9.4g W/m  range [%.3f, %.3f] C  %6.2f s%s%s\n",
                  step * dt, step, s.mean_copper, s.mean_steel, s.centre, s.heat_in, s.heat_out, s.lo, s.hi, secs,
                  backend[0] ? "  " : "", backend);
      std::fflush(stdout);
    };
    report(0, 0.0, "");

    const auto start = std::chrono::steady_clock::now();
    int done = 0;
    for (int r = 1; r <= opt.reports; ++r) {
      const int target = static_cast<int>(static_cast<long long>(opt.steps) * r / opt.reports);
      if (target == done) continue;
      auto policy = base.with_steps(target - done);
      policy.set_print_plan(r == 1);
      const auto rep =
          EbisuKokkos::parallel_stencil("composite_plate", policy, stencil, u, scratch, EbisuKokkos::fields(alpha));
      done = target;
      Kokkos::fence();
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      report(done, secs, EbisuKokkos::to_string(rep.backend));
    }

    ebisu_examples::Figure fig;
    fig.title = "copper / steel plate, t = " + ebisu_examples::format_seconds(done * dt);
    fig.x = {"x (mm)", 0.0, width * 1e3};
    fig.y = {"y (mm)", 0.0, height * 1e3};
    fig.colour_label = std::string("temperature (") + ebisu_examples::degrees_celsius + ")";
    fig.lo = cold;
    fig.hi = hot;
    ebisu_examples::write_png(opt.output, t_host, n, n, fig);

    // An explicit step with positive weights is a weighted average: no new extremes.
    const double tolerance = 1e-9 * (hot - cold);
    const bool bounded = lowest >= cold - tolerance && highest <= hot + tolerance;
    std::printf("temperature range over the run [%.6f, %.6f] C, bounds [%.1f, %.1f] C: %s; image %s\n", lowest,
                highest, cold, hot, bounded ? "ok" : "VIOLATED", opt.output.c_str());
    if (!bounded) return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "composite_plate: %s\n", e.what());
    return 1;
  }
  return 0;
}
