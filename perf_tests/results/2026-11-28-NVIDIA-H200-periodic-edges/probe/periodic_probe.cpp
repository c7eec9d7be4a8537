// Per-block timing of the 2-D SM-tiling kernel: fixed frame against periodic / mirror sides.
#include <cstdio>
#include <cuda_runtime.h>
struct ProbeRec { unsigned long long t; int strip, seg0, seg1, sm; };
__device__ ProbeRec g_probe[2048][8];
__device__ __forceinline__ unsigned long long probe_now() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__device__ __forceinline__ int probe_sm() { int s; asm volatile("mov.u32 %0, %%smid;" : "=r"(s)); return s; }
#define EBISU_KOKKOS_PROBE_HOOK(tag) PROBE_##tag
#define PROBE_begin if (threadIdx.x == 0 && blockIdx.x < 2048) { g_probe[blockIdx.x][0] = ProbeRec{probe_now(), -1, 0, 0, probe_sm()}; g_probe[blockIdx.x][7].strip = 1; }
#define PROBE_end if (threadIdx.x == 0 && blockIdx.x < 2048) { g_probe[blockIdx.x][6] = ProbeRec{probe_now(), -1, 0, 0, probe_sm()}; }
#define PROBE_piece3 if (threadIdx.x == 0 && blockIdx.x < 2048) { int k_ = g_probe[blockIdx.x][7].strip; if (k_ < 6) { g_probe[blockIdx.x][k_] = ProbeRec{probe_now(), tile, seg0, seg1, probe_sm()}; g_probe[blockIdx.x][7].strip = k_ + 1; } }
#define PROBE_piece if (threadIdx.x == 0 && blockIdx.x < 2048) { int k_ = g_probe[blockIdx.x][7].strip; if (k_ < 6) { g_probe[blockIdx.x][k_] = ProbeRec{probe_now(), strip, seg0, seg1, probe_sm()}; g_probe[blockIdx.x][7].strip = k_ + 1; } }
#include <ebisu_kokkos/ebisu_kokkos.hpp>
#include <algorithm>
#include <vector>
#include <string>
#include <cstdlib>

using View = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::CudaSpace>;

static void probe(const char* name, int n, int steps, int depth, EbisuKokkos::Boundary b0, EbisuKokkos::Boundary b1) {
  View u("u", n, n), v("v", n, n);
  Kokkos::parallel_for("init", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {n, n}), KOKKOS_LAMBDA(int i, int j) {
    u(i, j) = 0.001 * ((i * 7 + j * 13) % 101); v(i, j) = u(i, j); });
  auto stencil = EbisuKokkos::presets::j2d5pt();
  auto run = [&](int t) {
    EbisuKokkos::StencilPolicy<Kokkos::Cuda> policy(Kokkos::Cuda(), t);
    policy.set_backend(EbisuKokkos::Backend::ebisu).set_strategy(EbisuKokkos::Strategy::sm_tiling).set_temporal_depth(depth);
    policy.set_boundary(0, b0).set_boundary(1, b1);
    EbisuKokkos::DoubleBuffer<View> buf(u, v);
    auto r = EbisuKokkos::parallel_stencil("probe", policy, stencil, buf);
    Kokkos::fence();
    return r;
  };
  run(steps);
  Kokkos::Timer timer;
  const int reps = 5;
  for (int i = 0; i < reps; ++i) run(steps);
  const double sec = timer.seconds() / reps;
  auto r = run(steps);  // its last launch's stamps stay in g_probe
  static ProbeRec h[2048][8];
  cudaMemcpyFromSymbol(h, g_probe, sizeof(h));
  std::vector<int> blocks;
  unsigned long long t0 = ~0ull, t1 = 0;
  for (int bi = 0; bi < 2048; ++bi) if (h[bi][0].t && h[bi][6].t && h[bi][6].t >= h[bi][0].t) { blocks.push_back(bi); t0 = std::min(t0, h[bi][0].t); t1 = std::max(t1, h[bi][6].t); }
  std::vector<double> dur;
  for (int bi : blocks) dur.push_back((h[bi][6].t - h[bi][0].t) * 1e-3);
  std::vector<double> sorted = dur; std::sort(sorted.begin(), sorted.end());
  std::printf("\n== %s n=%d steps=%d depth=%d: %.3f ms per call, %.1f GCells/s\n   plan: %s\n", name, n, steps, depth, sec * 1e3,
              double(n) * n * steps / sec * 1e-9, r.plan.c_str());
  std::printf("   one launch: span %.1f us, blocks %zu, block us min %.1f median %.1f p90 %.1f max %.1f\n", (t1 - t0) * 1e-3, blocks.size(),
              sorted.front(), sorted[sorted.size() / 2], sorted[sorted.size() * 9 / 10], sorted.back());
  {
    std::string fn = std::string(std::getenv("OUT") ? std::getenv("OUT") : ".") + "/blocks-" + std::to_string(depth) + "-" + name + ".csv";
    for (auto& c : fn) if (c == ' ' || c == '(' || c == ')') c = '_';
    FILE* f = std::fopen(fn.c_str(), "w");
    std::fprintf(f, "block,sm,start_us,end_us,pieces,strip0,seg0,seg1,t0_us,strip1,seg0b,seg1b,t1_us\n");
    for (int bi : blocks) {
      std::fprintf(f, "%d,%d,%.2f,%.2f,%d", bi, h[bi][0].sm, (h[bi][0].t - t0) * 1e-3, (h[bi][6].t - t0) * 1e-3, h[bi][7].strip - 1);
      for (int k = 1; k <= 2; ++k) {
        if (k < h[bi][7].strip) std::fprintf(f, ",%d,%d,%d,%.2f", h[bi][k].strip, h[bi][k].seg0, h[bi][k].seg1, (h[bi][k].t - t0) * 1e-3);
        else std::fprintf(f, ",,,,");
      }
      std::fprintf(f, "\n");
    }
    std::fclose(f);
  }
  std::vector<int> order(blocks.size()); for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](int a, int b) { return dur[a] > dur[b]; });
  for (int i = 0; i < 12 && i < (int)order.size(); ++i) {
    int bi = blocks[order[i]];
    std::printf("   block %4d sm %3d start +%.1f dur %.1f us pieces:", bi, h[bi][0].sm, (h[bi][0].t - t0) * 1e-3, dur[order[i]]);
    unsigned long long prev = h[bi][0].t;
    for (int k = 1; k < h[bi][7].strip && k < 6; ++k) { std::printf(" [strip %d rows %d-%d %.1f us]", h[bi][k].strip, h[bi][k].seg0, h[bi][k].seg1, (h[bi][k].t - prev) * 1e-3); prev = h[bi][k].t; }
    std::printf("\n");
  }
  // fastest 3 for comparison
  for (int i = (int)order.size() - 3; i < (int)order.size(); ++i) {
    int bi = blocks[order[i]];
    std::printf("   fast  %4d sm %3d start +%.1f dur %.1f us pieces:", bi, h[bi][0].sm, (h[bi][0].t - t0) * 1e-3, dur[order[i]]);
    unsigned long long prev = h[bi][0].t;
    for (int k = 1; k < h[bi][7].strip && k < 6; ++k) { std::printf(" [strip %d rows %d-%d %.1f us]", h[bi][k].strip, h[bi][k].seg0, h[bi][k].seg1, (h[bi][k].t - prev) * 1e-3); prev = h[bi][k].t; }
    std::printf("\n");
  }
  cudaMemset(g_probe, 0, 0);
  std::vector<char> zero(sizeof(h), 0);
  cudaMemcpyToSymbol(g_probe, zero.data(), sizeof(h));
}

template <int D>
static void regs() {
  using K = EbisuKokkos::Impl::Cuda::ebisu2d::Kernel<decltype(EbisuKokkos::presets::j2d5pt()), double, true, D, 1, 1>;
  cudaFuncAttributes a{}, b{};
  cudaFuncGetAttributes(&a, K::template function<false>());
  cudaFuncGetAttributes(&b, K::template function<true>());
  std::printf("depth %d: fixed regs %d local %zu, mapped regs %d local %zu\n", D, a.numRegs, a.localSizeBytes, b.numRegs, b.localSizeBytes);
}
template <class Stencil>
static void probe3d(const char* name, const Stencil& stencil, int nz, int ny, int nx, int steps, EbisuKokkos::Boundary b) {
  using V3 = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::CudaSpace>;
  V3 u("u", nz, ny, nx), v("v", nz, ny, nx);
  Kokkos::parallel_for("init3", Kokkos::MDRangePolicy<Kokkos::Rank<3>>({0, 0, 0}, {nz, ny, nx}), KOKKOS_LAMBDA(int k, int i, int j) {
    u(k, i, j) = 0.001 * ((k * 3 + i * 7 + j * 13) % 101); v(k, i, j) = u(k, i, j); });
  auto run = [&](int t) {
    EbisuKokkos::StencilPolicy<Kokkos::Cuda> policy(Kokkos::Cuda(), t);
    for (int a = 0; a < 3; ++a) policy.set_boundary(a, b);
    EbisuKokkos::DoubleBuffer<V3> buf(u, v);
    auto r = EbisuKokkos::parallel_stencil("probe3", policy, stencil, buf);
    Kokkos::fence();
    return r;
  };
  auto r = run(steps);
  Kokkos::Timer timer;
  for (int i = 0; i < 5; ++i) run(steps);
  const double sec = timer.seconds() / 5;
  static ProbeRec h[2048][8];
  cudaMemcpyFromSymbol(h, g_probe, sizeof(h));
  {
    std::string fn = std::string(std::getenv("OUT") ? std::getenv("OUT") : ".") + "/blocks3d-" + name + "-" + (b == EbisuKokkos::Boundary::fixed ? "fixed" : "periodic") + ".csv";
    FILE* f = std::fopen(fn.c_str(), "w");
    unsigned long long t0 = ~0ull;
    for (int bi = 0; bi < 2048; ++bi) if (h[bi][0].t) t0 = std::min(t0, h[bi][0].t);
    std::fprintf(f, "block,sm,start_us,end_us,pieces,tile0,seg0,seg1,t0_us,tile1,seg0b,seg1b,t1_us\n");
    for (int bi = 0; bi < 2048; ++bi) {
      if (!h[bi][0].t || !h[bi][6].t) continue;
      std::fprintf(f, "%d,%d,%.2f,%.2f,%d", bi, h[bi][0].sm, (h[bi][0].t - t0) * 1e-3, (h[bi][6].t - t0) * 1e-3, h[bi][7].strip - 1);
      for (int k = 1; k <= 2; ++k) {
        if (k < h[bi][7].strip) std::fprintf(f, ",%d,%d,%d,%.2f", h[bi][k].strip, h[bi][k].seg0, h[bi][k].seg1, (h[bi][k].t - t0) * 1e-3);
        else std::fprintf(f, ",,,,");
      }
      std::fprintf(f, "\n");
    }
    std::fclose(f);
    std::vector<char> zero(sizeof(h), 0);
    cudaMemcpyToSymbol(g_probe, zero.data(), sizeof(h));
  }
  std::printf("\n== 3-D %s %dx%dx%d %s steps=%d: %.3f ms, %.1f GCells/s\n   plan: %s\n", name, nz, ny, nx,
              b == EbisuKokkos::Boundary::fixed ? "fixed" : "periodic", steps, sec * 1e3, double(nz) * ny * nx * steps / sec * 1e-9, r.plan.c_str());
}
int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    using B = EbisuKokkos::Boundary;
    const int n = argc > 1 ? std::atoi(argv[1]) : 8352;
    regs<4>(); regs<6>(); regs<8>(); regs<10>();
    const std::string only = argc > 2 ? argv[2] : "all";
    for (auto b : {B::fixed, B::periodic}) {
      const std::string bn = b == B::fixed ? "fixed" : "periodic";
      if (only == "all" || only == "poisson-" + bn) probe3d("poisson", EbisuKokkos::presets::poisson(), 2560, 288, 384, 100, b);
      if (only == "all" || only == "j3d7pt-" + bn) probe3d("j3d7pt", EbisuKokkos::presets::j3d7pt(), 2560, 288, 384, 100, b);
    }
    if (only != "all" && only != "2d") { Kokkos::finalize(); return 0; }
    for (int depth : {8, 4}) {
      probe("fixed", n, 96, depth, B::fixed, B::fixed);
      probe("periodic both", n, 96, depth, B::periodic, B::periodic);
      probe("periodic axis0 (slow)", n, 96, depth, B::periodic, B::fixed);
      probe("periodic axis1 (fast)", n, 96, depth, B::fixed, B::periodic);
    }
  }
  Kokkos::finalize();
}
