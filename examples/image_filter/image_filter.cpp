// Edge-preserving denoising by Perona-Malik anisotropic diffusion. A test
// image (a few geometric shapes of different intensities, generated, with
// seeded Gaussian-like noise) diffuses under
//
//   du/dt = div(g(|grad u|) grad u),   g(s) = 1 / (1 + (s / K)^2),
//
// discretised per face: u' = u + dt * sum over the four faces of
// g(|d|) * d, d = u_neighbour - u (pixel spacing 1). Small differences (noise)
// diffuse away; differences well above K (the shapes' edges) barely conduct,
// so the edges stay sharp. The image edges are zero-flux (Boundary::mirror on
// all four sides). The update is non-linear, so the stencil is a functor.
//
//   image_filter [--size N] [--steps T] [--reports K] [--kappa K] [--noise S] [--seed S]
//                [--output prefix] [--backend auto|generic|ebisu]
//
// Writes prefix_noisy.png and prefix_filtered.png and prints the peak
// signal-to-noise ratio against the clean image before and after; the exit
// code is nonzero when filtering did not raise it.

#include "command_line.hpp"
#include "figure.hpp"

#include <ebisu_kokkos/ebisu_kokkos.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Options {
  int size = 512;
  int steps = 40;
  int reports = 4;
  double kappa = 0.05;  // edge threshold K, in intensity units
  double noise = 0.1;  // standard deviation of the added noise
  std::uint64_t seed = 2024;
  std::string output = "image_filter";
  EbisuKokkos::Backend backend = EbisuKokkos::Backend::automatic;
};

const char* const usage =
    "image_filter [--size N] [--steps T] [--reports K] [--kappa K] [--noise S] [--seed S] [--output prefix] "
    "[--backend auto|generic|ebisu] [--kokkos-...]";

Options parse(int argc, char** argv) {
  Options o;
  ebisu_examples::parse_command_line(argc, argv, usage, [&](const std::string& a, const ebisu_examples::OptionValue& value) {
    if (a == "--size") o.size = std::stoi(value());
    else if (a == "--steps") o.steps = std::stoi(value());
    else if (a == "--reports") o.reports = std::stoi(value());
    else if (a == "--kappa") o.kappa = std::stod(value());
    else if (a == "--noise") o.noise = std::stod(value());
    else if (a == "--seed") o.seed = std::stoull(value());
    else if (a == "--output") o.output = value();
    else if (a == "--backend") o.backend = ebisu_examples::parse_backend(value());
    else return false;
    return true;
  });
  if (o.size < 16 || o.steps < 0 || o.reports < 1 || !(o.kappa > 0) || !(o.noise >= 0))
    throw std::invalid_argument("need --size >= 16, --steps >= 0, --reports >= 1, --kappa > 0, --noise >= 0");
  return o;
}

// One Perona-Malik step: the flux through a face is g(|d|) d = d / (1 + d^2 / K^2),
// d the difference across it (the gradient at the face, pixel spacing 1). The
// two cells of a face see the same flux, so the mean intensity is conserved;
// the flux's slope lies in [-1/8, 1], so dt <= 1/4 keeps the update monotone
// (no new extremes).
struct PeronaMalik {
  double dt;
  double inv_kappa2;

  KOKKOS_INLINE_FUNCTION double flux(double d) const { return d / (1.0 + d * d * inv_kappa2); }

  // Offsets (d0, d1): d0 along View index 0 (rows, y), d1 along index 1 (columns, x).
  KOKKOS_INLINE_FUNCTION double operator()(const EbisuKokkos::Neighbors<double, 2, 1>& u) const {
    const double c = u(0, 0);
    return c + dt * (flux(u(-1, 0) - c) + flux(u(1, 0) - c) + flux(u(0, -1) - c) + flux(u(0, 1) - c));
  }
};

// ---- The test image (host side, deterministic on every platform).

// splitmix64: a small, well-mixed 64-bit generator.
struct Random {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return (next() >> 11) * (1.0 / 9007199254740992.0); }  // [0, 1)
  // Sum of 12 uniforms minus 6: mean 0, variance 1, close to a Gaussian (tails cut at 6).
  double gaussian() {
    double s = -6.0;
    for (int k = 0; k < 12; ++k) s += uniform();
    return s;
  }
};

// Intensity in [0, 1] at (x, y), in units of the image side, y downwards.
double scene(double x, double y) {
  double v = 0.2;                                                     // background
  if (x > 0.55 && x < 0.9 && y > 0.12 && y < 0.45) v = 0.55;          // rectangle
  const double dx1 = x - 0.3, dy1 = y - 0.3;
  if (dx1 * dx1 + dy1 * dy1 < 0.18 * 0.18) v = 0.85;                  // disc
  auto side = [](double ax, double ay, double bx, double by, double px, double py) {
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
  };
  const double tri[3][2] = {{0.1, 0.9}, {0.32, 0.52}, {0.5, 0.9}};   // triangle
  const double s0 = side(tri[0][0], tri[0][1], tri[1][0], tri[1][1], x, y);
  const double s1 = side(tri[1][0], tri[1][1], tri[2][0], tri[2][1], x, y);
  const double s2 = side(tri[2][0], tri[2][1], tri[0][0], tri[0][1], x, y);
  if ((s0 > 0 && s1 > 0 && s2 > 0) || (s0 < 0 && s1 < 0 && s2 < 0)) v = 0.45;
  const double dx2 = x - 0.74, dy2 = y - 0.72, r2 = dx2 * dx2 + dy2 * dy2;
  if (r2 < 0.17 * 0.17 && r2 > 0.09 * 0.09) v = 0.7;                  // ring
  if (r2 < 0.04 * 0.04) v = 1.0;                                      // and a dot inside it
  return v;
}

std::vector<double> clean_image(int n) {
  std::vector<double> img(static_cast<size_t>(n) * n);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) img[static_cast<size_t>(y) * n + x] = scene((x + 0.5) / n, (y + 0.5) / n);
  return img;
}

std::vector<double> add_noise(const std::vector<double>& img, double sigma, std::uint64_t seed) {
  Random rng{seed};
  std::vector<double> out(img);
  for (double& v : out) v += sigma * rng.gaussian();
  return out;
}

// Peak signal-to-noise ratio (peak 1) in dB.
double psnr(const std::vector<double>& a, const std::vector<double>& reference) {
  double se = 0;
  for (size_t k = 0; k < a.size(); ++k) se += (a[k] - reference[k]) * (a[k] - reference[k]);
  const double mse = se / a.size();
  return mse > 0 ? 10.0 * std::log10(1.0 / mse) : INFINITY;
}

void write_figure(const std::string& path, const std::vector<double>& img, int n, const std::string& title) {
  ebisu_examples::Figure fig;
  fig.title = title;
  fig.x = {"x (pixels)", 0.0, double(n)};
  fig.y = {"y (pixels)", 0.0, double(n)};
  fig.colour_label = "intensity";
  fig.lo = 0.0;
  fig.hi = 1.0;
  fig.map = ebisu_examples::ColourMap::grey;
  fig.y_up = false;  // an image: row 0 at the top
  ebisu_examples::write_png(path, img, n, n, fig);
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    const Options opt = parse(argc, argv);
    const int n = opt.size;
    const double dt = 0.2;  // <= 1/4: monotone

    EbisuKokkos::print_configuration(std::cout);
    std::printf("Perona-Malik diffusion: %d x %d image, noise sigma %.3g (seed %llu), K = %.3g, dt = %.2f, "
                "%d steps (diffusion time %.4g)\n",
                n, n, opt.noise, static_cast<unsigned long long>(opt.seed), opt.kappa, dt, opt.steps,
                opt.steps * dt);

    const std::vector<double> clean = clean_image(n);
    const std::vector<double> noisy = add_noise(clean, opt.noise, opt.seed);
    const double psnr_noisy = psnr(noisy, clean);

    // View index 0 is the image row (y), index 1 the column (x).
    using View = Kokkos::View<double**>;
    View u("image", n, n), scratch("image_next", n, n);
    auto u_host = Kokkos::create_mirror_view(u);
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) u_host(y, x) = noisy[static_cast<size_t>(y) * n + x];
    Kokkos::deep_copy(u, u_host);

    std::vector<double> filtered(noisy);
    auto fetch = [&]() {
      Kokkos::deep_copy(u_host, u);
      for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) filtered[static_cast<size_t>(y) * n + x] = u_host(y, x);
    };

    // The update treats the two neighbours of each axis alike, so mirroring the neighbourhood leaves it
    // unchanged: declared, so that the EBISU CUDA kernels take the mirror sides too.
    const auto stencil =
        EbisuKokkos::make_stencil<2, 1>(PeronaMalik{dt, 1.0 / (opt.kappa * opt.kappa)}).declare_mirror_symmetric();
    EbisuKokkos::StencilPolicy<> base(0);
    base.set_backend(opt.backend)
        .set_boundary(0, EbisuKokkos::Boundary::mirror)  // zero flux through all four image edges
        .set_boundary(1, EbisuKokkos::Boundary::mirror);

    std::printf("diffusion time t = %7.3f  step %6d  PSNR %6.2f dB (noisy input)\n", 0.0, 0, psnr_noisy);
    const auto start = std::chrono::steady_clock::now();
    int done = 0;
    for (int r = 1; r <= opt.reports; ++r) {
      const int target = static_cast<int>(static_cast<long long>(opt.steps) * r / opt.reports);
      if (target == done) continue;
      auto policy = base.with_steps(target - done);
      policy.set_print_plan(r == 1);
      const auto rep = EbisuKokkos::parallel_stencil("perona_malik", policy, stencil, u, scratch);
      done = target;
      fetch();
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::printf("diffusion time t = %7.3f  step %6d  PSNR %6.2f dB  %6.2f s  [%s]\n", done * dt, done,
                  psnr(filtered, clean), secs, EbisuKokkos::to_string(rep.backend));
      std::fflush(stdout);
    }
    const double psnr_filtered = psnr(filtered, clean);

    const std::string noisy_path = opt.output + "_noisy.png", filtered_path = opt.output + "_filtered.png";
    char title[128];
    std::snprintf(title, sizeof title, "noisy input, diffusion time t = 0, PSNR %.1f dB", psnr_noisy);
    write_figure(noisy_path, noisy, n, title);
    std::snprintf(title, sizeof title, "Perona-Malik, diffusion time t = %.4g, PSNR %.1f dB", done * dt,
                  psnr_filtered);
    write_figure(filtered_path, filtered, n, title);

    std::printf("PSNR against the clean image: noisy %.2f dB, filtered %.2f dB; images %s, %s\n", psnr_noisy,
                psnr_filtered, noisy_path.c_str(), filtered_path.c_str());
    if (!(psnr_filtered > psnr_noisy)) {
      std::printf("PSNR did not improve\n");
      return 3;
    }
    std::printf("PSNR improved by %.2f dB\n", psnr_filtered - psnr_noisy);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "image_filter: %s\n", e.what());
    return 1;
  }
  return 0;
}
