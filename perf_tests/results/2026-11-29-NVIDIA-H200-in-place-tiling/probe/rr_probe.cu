// Probe (not library code): a register-resident persistent 3-D stencil kernel.
// Each thread keeps P cells of one slow-axis column in registers for the whole
// launch; one copy of the block's tile (owned cells + halo R) lives in shared
// memory and is refreshed from the registers every step; the halo comes from
// the neighbours through L2 with one grid barrier per step (alternating buffers).
// Question it answers: GCells/s at 64^3 / 128^3 fp64 for j3d7pt, j3d13pt,
// poisson, j3d27pt, against a per-step kernel in the same process.
#include <cooperative_groups.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace cg = cooperative_groups;
#define CK(x)                                                                                \
  do {                                                                                       \
    cudaError_t e_ = (x);                                                                    \
    if (e_ != cudaSuccess) {                                                                 \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

template <int N, class F, int... I>
__device__ __forceinline__ void static_for_impl(F&& f, std::integer_sequence<int, I...>) {
  (f(std::integral_constant<int, I>{}), ...);
}
template <int N, class F>
__device__ __forceinline__ void static_for(F&& f) {
  static_for_impl<N>(f, std::make_integer_sequence<int, N>{});
}

// ---- stencils: apply(a) with a.get<dz, dy, dx>() ----
struct J3d7pt {
  static constexpr int R = 1;
  static constexpr int halo_kind = 0;  // 0 star (faces only), 1 edges, 2 full box
  static constexpr const char* name = "j3d7pt";
  template <class A>
  __device__ __forceinline__ static double apply(const A& a) {
    return 0.4 * a.template get<0, 0, 0>() + 0.1 * (a.template get<-1, 0, 0>() + a.template get<1, 0, 0>()) +
           0.1 * (a.template get<0, -1, 0>() + a.template get<0, 1, 0>()) +
           0.1 * (a.template get<0, 0, -1>() + a.template get<0, 0, 1>());
  }
  static double host(const double* u, long i, long s0, long s1) {
    return 0.4 * u[i] + 0.1 * (u[i - s0] + u[i + s0]) + 0.1 * (u[i - s1] + u[i + s1]) + 0.1 * (u[i - 1] + u[i + 1]);
  }
};
struct J3d13pt {
  static constexpr int R = 2;
  static constexpr int halo_kind = 0;
  static constexpr const char* name = "j3d13pt";
  template <class A>
  __device__ __forceinline__ static double apply(const A& a) {
    return 0.28 * a.template get<0, 0, 0>() +
           0.08 * (a.template get<-1, 0, 0>() + a.template get<1, 0, 0>() + a.template get<0, -1, 0>() +
                   a.template get<0, 1, 0>() + a.template get<0, 0, -1>() + a.template get<0, 0, 1>()) +
           0.04 * (a.template get<-2, 0, 0>() + a.template get<2, 0, 0>() + a.template get<0, -2, 0>() +
                   a.template get<0, 2, 0>() + a.template get<0, 0, -2>() + a.template get<0, 0, 2>());
  }
  static double host(const double* u, long i, long s0, long s1) {
    return 0.28 * u[i] + 0.08 * (u[i - s0] + u[i + s0] + u[i - s1] + u[i + s1] + u[i - 1] + u[i + 1]) +
           0.04 * (u[i - 2 * s0] + u[i + 2 * s0] + u[i - 2 * s1] + u[i + 2 * s1] + u[i - 2] + u[i + 2]);
  }
};
struct Poisson {
  static constexpr int R = 1;
  static constexpr int halo_kind = 1;
  static constexpr const char* name = "poisson";
  template <class A>
  __device__ __forceinline__ static double apply(const A& a) {
    double f = a.template get<-1, 0, 0>() + a.template get<1, 0, 0>() + a.template get<0, -1, 0>() +
               a.template get<0, 1, 0>() + a.template get<0, 0, -1>() + a.template get<0, 0, 1>();
    double e = a.template get<-1, -1, 0>() + a.template get<-1, 1, 0>() + a.template get<1, -1, 0>() +
               a.template get<1, 1, 0>() + a.template get<-1, 0, -1>() + a.template get<-1, 0, 1>() +
               a.template get<1, 0, -1>() + a.template get<1, 0, 1>() + a.template get<0, -1, -1>() +
               a.template get<0, -1, 1>() + a.template get<0, 1, -1>() + a.template get<0, 1, 1>();
    return 0.25 * a.template get<0, 0, 0>() + 0.075 * f + 0.025 * e;
  }
  static double host(const double* u, long i, long s0, long s1) {
    double f = u[i - s0] + u[i + s0] + u[i - s1] + u[i + s1] + u[i - 1] + u[i + 1];
    double e = u[i - s0 - s1] + u[i - s0 + s1] + u[i + s0 - s1] + u[i + s0 + s1] + u[i - s0 - 1] + u[i - s0 + 1] +
               u[i + s0 - 1] + u[i + s0 + 1] + u[i - s1 - 1] + u[i - s1 + 1] + u[i + s1 - 1] + u[i + s1 + 1];
    return 0.25 * u[i] + 0.075 * f + 0.025 * e;
  }
};
struct J3d27pt {
  static constexpr int R = 1;
  static constexpr int halo_kind = 2;
  static constexpr const char* name = "j3d27pt";
  template <class A>
  __device__ __forceinline__ static double apply(const A& a) {
    double s = 0;
    static_for<27>([&](auto K) {
      constexpr int k = decltype(K)::value;
      constexpr int dz = k / 9 - 1, dy = (k / 3) % 3 - 1, dx = k % 3 - 1;
      if constexpr (k != 13) s += a.template get<dz, dy, dx>();
    });
    return 0.2 * a.template get<0, 0, 0>() + (0.8 / 26) * s;
  }
  static double host(const double* u, long i, long s0, long s1) {
    double s = 0;
    for (int k = 0; k < 27; ++k)
      if (k != 13) s += u[i + (k / 9 - 1) * s0 + ((k / 3) % 3 - 1) * s1 + (k % 3 - 1)];
    return 0.2 * u[i] + (0.8 / 26) * s;
  }
};

// ---- the register-resident kernel ----
template <int R, int P, int PITCH0, int PITCH1, int I>
struct ColumnAccessor {
  const double* regs;  // the thread's old column values, regs[0 .. P-1]
  const double* sh;    // shared tile at this cell
  template <int DZ, int DY, int DX>
  __device__ __forceinline__ double get() const {
    if constexpr (DY == 0 && DX == 0 && I + DZ >= 0 && I + DZ < P) {
      return regs[I + DZ];
    } else {
      return sh[DZ * PITCH0 + DY * PITCH1 + DX];
    }
  }
};

__device__ __forceinline__ double ld_cg(const double* p) { return __ldcg(p); }
__device__ __forceinline__ void st_cg(double* p, double v) { __stcg(p, v); }

template <class S, int P, int O0_, int O1_, int O2_>
struct Config {
  static constexpr int R = S::R;
  static constexpr int O0 = O0_, O1 = O1_, O2 = O2_;
  static constexpr int NT = (O0 / P) * O1 * O2;
  static constexpr int L0 = O0_ + 2 * R, L1 = O1_ + 2 * R, L2 = O2_ + 2 * R;
  static constexpr int PITCH1 = L2, PITCH0 = L1 * L2;
  static constexpr int tile_cells = L0 * L1 * L2;
  // halo slabs: z-low/high (R planes), y-low/high within the owned z range, x-low/high within owned z,y
  static constexpr int full = S::halo_kind > 0;
  static constexpr int zA = full ? L1 : O1, zB = full ? L2 : O2;  // z-slab plane extents
  static constexpr int yB = full ? L2 : O2;                      // y-slab fast extent
  static constexpr int nz = R * zA * zB, ny = O0 * R * yB, nx = O0 * O1 * R;
  static constexpr int halo_cells = 2 * (nz + ny + nx);
};

// Halo cell k -> tile coordinates (compile-time dims: the divisions are multiplies).
template <class C>
__device__ __forceinline__ void halo_cell(int k, int& z, int& y, int& x) {
  constexpr int R = C::R;
  constexpr int off_y = C::full ? 0 : R, off_x = C::full ? 0 : R;
  if (k < 2 * C::nz) {
    const int hi = k >= C::nz;
    k -= hi * C::nz;
    const int zz = k / (C::zA * C::zB), r = k - zz * (C::zA * C::zB);
    z = hi ? C::O0 + R + zz : zz;
    y = r / C::zB + off_y;
    x = r % C::zB + off_x;
    return;
  }
  k -= 2 * C::nz;
  if (k < 2 * C::ny) {
    const int hi = k >= C::ny;
    k -= hi * C::ny;
    const int zz = k / (R * C::yB), r = k - zz * (R * C::yB);
    z = zz + R;
    const int yy = r / C::yB;
    y = hi ? C::O1 + R + yy : yy;
    x = r % C::yB + off_x;
    return;
  }
  k -= 2 * C::ny;
  const int hi = k >= C::nx;
  k -= hi * C::nx;
  const int zz = k / (C::O1 * R), r = k - zz * (C::O1 * R);
  z = zz + R;
  y = r / R + R;
  const int xx = r % R;
  x = hi ? C::O2 + R + xx : xx;
}

template <class S, int P, int O0, int O1, int O2>
__global__ void __launch_bounds__(Config<S, P, O0, O1, O2>::NT, 1)
    rr_kernel2(double* __restrict__ u, double* __restrict__ scratch, int N0, int N1, int N2, int T1n, int T2n,
               int steps) {
  using C = Config<S, P, O0, O1, O2>;
  constexpr int R = C::R;
  extern __shared__ __align__(16) double tile[];
  cg::grid_group grid = cg::this_grid();
  const long s0 = long(N1) * N2, s1 = N2;
  const int b = blockIdx.x;
  const int bz = b / (T1n * T2n), by = (b / T2n) % T1n, bx = b % T2n;
  const int g0 = bz * O0, g1 = by * O1, g2 = bx * O2;
  const int tid = threadIdx.x;
  const int x = tid % O2, y = (tid / O2) % O1, seg = tid / (O2 * O1);
  const int gz0 = g0 + seg * P, gy = g1 + y, gx = g2 + x;
  const bool col_interior = gy >= R && gy < N1 - R && gx >= R && gx < N2 - R;
  const long gbase = gz0 * s0 + gy * s1 + gx;
  double* const my = tile + (seg * P + R) * C::PITCH0 + (y + R) * C::PITCH1 + (x + R);
  const bool side_face = y < R || y >= O1 - R || x < R || x >= O2 - R;
  const bool low_face = seg == 0, high_face = seg == O0 / P - 1;

  double reg[P];
  static_for<P>([&](auto I) { reg[I] = u[gbase + I * s0]; });

  auto load_halo = [&](const double* src) {
    constexpr int per = (C::halo_cells + C::NT - 1) / C::NT;
    int tid_o, n0, n1, n2;  // opaque: no per-thread halo offsets kept live across steps
    asm volatile("mov.b32 %0, %1;" : "=r"(tid_o) : "r"(tid));
    asm volatile("mov.b32 %0, %1;" : "=r"(n0) : "r"(N0));
    asm volatile("mov.b32 %0, %1;" : "=r"(n1) : "r"(N1));
    asm volatile("mov.b32 %0, %1;" : "=r"(n2) : "r"(N2));
    double v[per];
    int at[per];
#pragma unroll
    for (int j = 0; j < per; ++j) {
      const int k = tid_o + j * C::NT;
      at[j] = -1;
      if (k < C::halo_cells) {
        int z, yy, xx;
        halo_cell<C>(k, z, yy, xx);
        const int Z = g0 + z - R, Y = g1 + yy - R, X = g2 + xx - R;
        if (Z >= 0 && Z < n0 && Y >= 0 && Y < n1 && X >= 0 && X < n2) {
          at[j] = z * C::PITCH0 + yy * C::PITCH1 + xx;
          v[j] = ld_cg(src + (long(Z) * n1 + Y) * n2 + X);
        }
      }
    }
#pragma unroll
    for (int j = 0; j < per; ++j)
      if (at[j] >= 0) tile[at[j]] = v[j];
  };

  static_for<P>([&](auto I) { my[I * C::PITCH0] = reg[I]; });
  load_halo(u);
  unsigned frame_mask = 0;  // bit i: cell i of the column is updated
  static_for<P>([&](auto I) {
    const int gz = gz0 + I;
    if (col_interior && gz >= R && gz < N0 - R) frame_mask |= 1u << I;
  });
  for (int t = 0; t < steps; ++t) {
    __syncthreads();
    // Opaque copies: keep the compiler from hoisting P addresses / predicates out of the step loop.
    unsigned upd;
    long st0, gb;
    asm volatile("mov.b32 %0, %1;" : "=r"(upd) : "r"(frame_mask));
    asm volatile("mov.b64 %0, %1;" : "=l"(st0) : "l"(s0));
    asm volatile("mov.b64 %0, %1;" : "=l"(gb) : "l"(gbase));
    double nw[P];
    static_for<P>([&](auto I) {
      constexpr int i = decltype(I)::value;
      const ColumnAccessor<R, P, C::PITCH0, C::PITCH1, i> a{reg, my + i * C::PITCH0};
      const double v = S::apply(a);
      nw[i] = (upd >> i) & 1u ? v : reg[i];
#ifdef RR_FENCE
      if constexpr (i % RR_FENCE == RR_FENCE - 1) asm volatile("" ::: "memory");
#endif
    });
    double* const out = (t & 1) == 0 ? scratch : u;
    if (t == steps - 1) {
      static_for<P>([&](auto I) { st_cg(out + gb + I * st0, nw[I]); });
      break;
    }
    if (side_face) {
      static_for<P>([&](auto I) { st_cg(out + gb + I * st0, nw[I]); });
    } else {
      if (low_face) static_for<R>([&](auto I) { st_cg(out + gb + I * st0, nw[I]); });
      if (high_face) static_for<R>([&](auto I) { st_cg(out + gb + (P - R + I) * st0, nw[P - R + I]); });
    }
    __syncthreads();
    static_for<P>([&](auto I) {
      my[I * C::PITCH0] = nw[I];
      reg[I] = nw[I];
    });
    grid.sync();
    load_halo(out);
  }
}

struct GlobalAccessor {
  const double* p;
  long s0, s1;
  template <int DZ, int DY, int DX>
  __device__ double get() const {
    return p[DZ * s0 + DY * s1 + DX];
  }
};
// ---- a per-step reference kernel (global memory, one cell per thread) ----
template <class S>
__global__ void step_kernel(const double* __restrict__ in, double* __restrict__ out, int N0, int N1, int N2) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y, z = blockIdx.z;
  if (x >= N2 || y >= N1 || z >= N0) return;
  const long s0 = long(N1) * N2, s1 = N2, i = z * s0 + y * s1 + x;
  constexpr int R = S::R;
  if (z < R || z >= N0 - R || y < R || y >= N1 - R || x < R || x >= N2 - R) {
    out[i] = in[i];
    return;
  }
  const GlobalAccessor a{in + i, s0, s1};
  out[i] = S::apply(a);
}

template <class S, int P, int O0, int O1, int O2>
void run_case(int N, int steps_check, double target_ms) {
  using C = Config<S, P, O0, O1, O2>;
  const int N0 = N, N1 = N, N2 = N;
  if (N0 % O0 || N1 % O1 || N2 % O2) {
    std::printf("skip %s %d^3: tile %dx%dx%d does not divide\n", S::name, N, O0, O1, O2);
    return;
  }
  const int T0n = N0 / O0, T1n = N1 / O1, T2n = N2 / O2, blocks = T0n * T1n * T2n;
  const long cells = long(N0) * N1 * N2;
  const size_t smem = size_t(C::tile_cells) * sizeof(double);
  auto kern = rr_kernel2<S, P, O0, O1, O2>;
  CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  int dev = 0, sms = 0, per_sm = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kern, C::NT, smem));
  cudaFuncAttributes fa;
  CK(cudaFuncGetAttributes(&fa, kern));
  std::printf("%s %d^3 P=%d tile %dx%dx%d threads %d blocks %d smem %zu KB regs %d local %zu B fits %d/SM\n",
              S::name, N, P, O0, O1, O2, C::NT, blocks, smem / 1024, fa.numRegs, fa.localSizeBytes, per_sm);
  if (per_sm * sms < blocks) {
    std::printf("  does not fit\n");
    return;
  }
  std::vector<double> h(cells);
  srand(7);
  for (auto& v : h) v = double(rand()) / RAND_MAX;
  double *u, *sc, *r0, *r1;
  CK(cudaMalloc(&u, cells * 8));
  CK(cudaMalloc(&sc, cells * 8));
  CK(cudaMalloc(&r0, cells * 8));
  CK(cudaMalloc(&r1, cells * 8));
  auto launch = [&](int steps) {
    int a0 = N0, a1 = N1, a2 = N2, t1 = T1n, t2 = T2n, st = steps;
    void* args[] = {&u, &sc, &a0, &a1, &a2, &t1, &t2, &st};
    CK(cudaLaunchCooperativeKernel((void*)kern, dim3(blocks), dim3(C::NT), args, smem, 0));
  };
  dim3 tb(32, 4, 1), gb((N2 + 31) / 32, (N1 + 3) / 4, N0);
  // correctness
  for (int steps : {1, 2, 3, steps_check}) {
    CK(cudaMemcpy(u, h.data(), cells * 8, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(r0, h.data(), cells * 8, cudaMemcpyHostToDevice));
    launch(steps);
    for (int t = 0; t < steps; ++t) {
      step_kernel<S><<<gb, tb>>>(r0, r1, N0, N1, N2);
      std::swap(r0, r1);
    }
    CK(cudaDeviceSynchronize());
    std::vector<double> a(cells), ref(cells);
    CK(cudaMemcpy(a.data(), (steps % 2) ? sc : u, cells * 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ref.data(), r0, cells * 8, cudaMemcpyDeviceToHost));
    double err = 0;
    for (long i = 0; i < cells; ++i) err = std::max(err, std::fabs(a[i] - ref[i]));
    std::printf("  T=%d max |rr - ref| = %.3g %s\n", steps, err, err < 1e-12 ? "ok" : "WRONG");
  }
  // timing
  auto time_rr = [&](int steps) {
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventRecord(e0));
    launch(steps);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    return double(ms);
  };
  int steps = 200;
  double ms = time_rr(steps);
  steps = std::max(200, int(steps * target_ms / ms));
  std::vector<double> v;
  for (int r = 0; r < 5; ++r) v.push_back(time_rr(steps));
  std::sort(v.begin(), v.end());
  const double rr_g = cells * double(steps) / (v[2] * 1e-3) / 1e9;
  // per-step plain kernel
  auto time_plain = [&](int st) {
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventRecord(e0));
    for (int t = 0; t < st; ++t) {
      step_kernel<S><<<gb, tb>>>(r0, r1, N0, N1, N2);
      std::swap(r0, r1);
    }
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float m;
    CK(cudaEventElapsedTime(&m, e0, e1));
    return double(m);
  };
  std::vector<double> p;
  for (int r = 0; r < 3; ++r) p.push_back(time_plain(steps));
  std::sort(p.begin(), p.end());
  const double pl_g = cells * double(steps) / (p[1] * 1e-3) / 1e9;
  std::printf("RESULT %s %d^3 P=%d tile %dx%dx%d threads %d: rr %.1f GCells/s (%.2f us/step, T=%d), plain per-step %.1f\n",
              S::name, N, P, O0, O1, O2, C::NT, rr_g, v[2] * 1e3 / steps, steps, pl_g);
  CK(cudaFree(u));
  CK(cudaFree(sc));
  CK(cudaFree(r0));
  CK(cudaFree(r1));
}

int main(int argc, char** argv) {
  const std::string only = argc > 1 ? argv[1] : "";
  auto want = [&](const char* n) { return only.empty() || only.find(n) != std::string::npos; };
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("GPU %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  if (want("j3d7pt")) {
    run_case<J3d7pt, 16, 16, 32, 32>(128, 7, 20);
    run_case<J3d7pt, 32, 32, 16, 32>(128, 7, 20);
    run_case<J3d7pt, 8, 8, 16, 16>(64, 7, 10);
    run_case<J3d7pt, 4, 8, 16, 16>(64, 7, 10);
  }
  if (want("poisson")) {
    run_case<Poisson, 16, 16, 32, 32>(128, 7, 20);
    run_case<Poisson, 32, 32, 16, 32>(128, 7, 20);
    run_case<Poisson, 8, 8, 16, 16>(64, 7, 10);
  }
  if (want("j3d13pt")) {
    run_case<J3d13pt, 16, 16, 32, 32>(128, 7, 20);
    run_case<J3d13pt, 32, 32, 16, 32>(128, 7, 20);
    run_case<J3d13pt, 8, 8, 16, 16>(64, 7, 10);
  }
  if (want("j3d27pt")) {
    run_case<J3d27pt, 16, 16, 32, 32>(128, 7, 20);
    run_case<J3d27pt, 32, 32, 16, 32>(128, 7, 20);
    run_case<J3d27pt, 8, 8, 16, 16>(64, 7, 10);
  }
  return 0;
}
