#ifndef EBISU_KOKKOS_IMPL_CUDA_EBISU_3D_HPP
#define EBISU_KOKKOS_IMPL_CUDA_EBISU_3D_HPP

// The 3-D EBISU backend: device tiling with temporal blocking (EBISU paper,
// sections 4.1-4.3), for rank-3 Views on Kokkos::Cuda.
//
// One block per SM, launched cooperatively (all blocks co-resident). The x-y
// plane is split into grid_x * grid_y SM tiles; every block streams its tile's
// column of planes along z (the slowest index). A launch fuses `depth` steps:
// at plane step k, level s (1..depth) computes plane k - s*(r+1) from the
// circular queue (2r+1 planes, tile + r-wide halo) of level s-1 in shared
// memory; the lag of r+1 planes per level (lazy streaming) makes every
// cross-block dependency one plane step old, so one synchronisation per plane
// step serves all levels. Halo strips of intermediate levels go through global
// memory (L2, bypassing L1) to the neighbouring SM tiles; level 0 (the input)
// and its halo are copied asynchronously (cp.async) from the input View one
// plane step ahead. Synchronisation: release/acquire flags between adjacent SM
// tiles (default; Pershin et al.) or a cooperative-groups grid barrier.
// Level `depth` writes straight to the output View. Cells within r of any edge
// keep their values (Dirichlet). Every launch checks co-residency first and
// falls back to the generic backend if the grid cannot be co-resident.

#include <ebisu_kokkos/impl/cuda/cuda_check.hpp>
#include <ebisu_kokkos/impl/cuda/device_properties.hpp>
#include <ebisu_kokkos/impl/generic_backend.hpp>
#include <ebisu_kokkos/impl/performance_model_3d.hpp>
#include <ebisu_kokkos/policy.hpp>

#include <cooperative_groups.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

namespace EbisuKokkos {
namespace Impl {
namespace Cuda {

/// Global workspace of the 3-D kernels (halo exchange planes, neighbour
/// flags) for one stream: allocated at first use, grown when needed, kept.
void* ebisu3d_workspace(int device, cudaStream_t stream, std::size_t bytes);

template <class Scalar>
struct Ebisu3DParams {
  const Scalar* src;
  Scalar* dst;
  long ssx, ssy, ssz;  // element strides of x, y, z in src
  long dsx, dsy, dsz;  // and in dst
  int nx, ny, nz;
  int gx, gy;          // SM tiles along x, y
  int px;              // shared plane pitch (largest tile_x + 2r)
  int plane;           // shared plane size in elements
  int depth;
  int planes;          // planes per level per step
  int use_flags;
  Scalar* xchg;        // [2][(depth-1)*planes][ny][nx]
  int* flags;          // [gx*gy]
};

// The dynamic shared memory of the 3-D kernels, declared at namespace scope so
// that the accessor addresses it directly: the compiler then emits shared-
// space loads (LDS) instead of generic ones.
extern __shared__ __align__(16) unsigned char ebisu3d_smem[];

// get<D0, D1, D2>() of a cell held in shared memory; D0..D2 are offsets along
// View indices 0..2, mapped to (z, y, x) by the layout at compile time.
template <bool Right, class Scalar, int R>
struct Smem3DAccessor {
  int base[2 * R + 1];  // element offsets of level s-1 planes z-R..z+R, plus the cell's index
  int px;
  template <int D0, int D1, int D2>
  __device__ __forceinline__ Scalar get() const {
    constexpr int dz = Right ? D0 : D2;
    constexpr int dy = D1;
    constexpr int dx = Right ? D2 : D0;
    return reinterpret_cast<const Scalar*>(ebisu3d_smem)[base[dz + R] + dy * px + dx];
  }
};

__device__ __forceinline__ int ebisu_ld_acquire(const int* p) {
  int v;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void ebisu_st_release(int* p, int v) {
  asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

template <bool Right, class Scalar, int R, class Eval>
__global__ void __launch_bounds__(512, 1) ebisu3d_kernel(const Eval eval, const Ebisu3DParams<Scalar> p) {
  Scalar* const smem = reinterpret_cast<Scalar*>(ebisu3d_smem);
  constexpr int kRows = 4;  // rows (cells) per thread in flight at once

  const int tid = threadIdx.x;
  const int lane = tid & 31;
  const int warp = tid >> 5;
  const int nwarps = blockDim.x >> 5;
  const int b = blockIdx.x;
  const int bx = b % p.gx, by = b / p.gx;
  const int x0 = static_cast<int>(static_cast<long>(bx) * p.nx / p.gx);
  const int x1 = static_cast<int>(static_cast<long>(bx + 1) * p.nx / p.gx);
  const int y0 = static_cast<int>(static_cast<long>(by) * p.ny / p.gy);
  const int y1 = static_cast<int>(static_cast<long>(by + 1) * p.ny / p.gy);
  const int tx = x1 - x0, ty = y1 - y0;
  const int hx = tx + 2 * R, hy = ty + 2 * R;  // tile + halo
  const int px = p.px;
  const int plane = p.plane;
  const int depth = p.depth;
  const int P = p.planes;             // planes per level per step
  const int Q = P + 2 * R;            // queue slots per level
  const int L = P + R;                // lag between levels (planes)
  const long level_stride = static_cast<long>(Q) * plane;
  const long xplane = static_cast<long>(p.nx) * p.ny;
  const int nl = (depth - 1) * P;     // exchanged planes per step
  const int steps = (p.nz + depth * L + P - 1) / P;
  const int ring = hx * hy - tx * ty;

  for (int k = 0; k < steps; ++k) {
    if (k > 0) {
      // Wait until the neighbours' halo strips of step k-1 are visible.
      if (p.use_flags) {
        if (tid < 9 && tid != 4) {
          const int nbx = bx + tid % 3 - 1, nby = by + tid / 3 - 1;
          if (nbx >= 0 && nbx < p.gx && nby >= 0 && nby < p.gy) {
            const int* f = p.flags + nby * p.gx + nbx;
            while (ebisu_ld_acquire(f) < k) {
            }
          }
        }
        __syncthreads();
      } else {
        cooperative_groups::this_grid().sync();
      }
      // Halo strips of levels 1..depth-1 produced at step k-1 (L2 -> shared).
      if (nl > 0) {
        const Scalar* xin = p.xchg + static_cast<long>((k - 1) & 1) * nl * xplane;
        for (int e = tid; e < ring; e += blockDim.x) {
          int i, j, f = e;
          if (f < 2 * R * hx) {
            j = f / hx;
            i = f - j * hx;
            if (j >= R) j += ty;  // bottom strip
          } else {
            f -= 2 * R * hx;
            j = R + f / (2 * R);
            i = f - (j - R) * (2 * R);
            if (i >= R) i += tx;  // right strip
          }
          const int gxi = x0 - R + i, gyi = y0 - R + j;
          if (gxi < 0 || gxi >= p.nx || gyi < 0 || gyi >= p.ny) continue;
          const long gidx = static_cast<long>(gyi) * p.nx + gxi;
          const int sidx = j * px + i;
          for (int q0 = 0; q0 < nl; q0 += 8) {
            Scalar v[8];
            int dst_off[8];
#pragma unroll
            for (int u = 0; u < 8; ++u) {
              const int q = q0 + u;
              dst_off[u] = -1;
              if (q < nl) {
                const int s = 1 + q / P, pp = q - (s - 1) * P;
                const int z = (k - 1) * P - s * L + pp;
                if (z >= 0 && z < p.nz) {
                  v[u] = __ldcg(xin + q * xplane + gidx);
                  dst_off[u] = static_cast<int>(s * level_stride + (z % Q) * plane + sidx);
                }
              }
            }
#pragma unroll
            for (int u = 0; u < 8; ++u)
              if (dst_off[u] >= 0) smem[dst_off[u]] = v[u];
          }
        }
      }
    }
    __pipeline_wait_prior(0);
    __syncthreads();

    // Levels from the deepest down: level s reads the queue of level s-1
    // before level s-1 overwrites its oldest planes. Only shared-memory
    // traffic here, plus the output of the deepest level.
    for (int s = depth; s >= 1; --s) {
      for (int pp = 0; pp < P; ++pp) {
        const int z = k * P - s * L + pp;
        if (z < 0 || z >= p.nz) continue;  // uniform over the block
        int in_base[2 * R + 1];
#pragma unroll
        for (int d = 0; d < 2 * R + 1; ++d) {
          const int zz = z + d - R;
          in_base[d] = static_cast<int>((s - 1) * level_stride) + ((zz >= 0 && zz < p.nz) ? zz % Q : z % Q) * plane;
        }
        const bool zint = z >= R && z < p.nz - R;
        Scalar* const out = smem + s * level_stride + (z % Q) * plane;
        for (int i = lane; i < tx; i += 32) {
          const int gxi = x0 + i;
          const bool xint = zint && gxi >= R && gxi < p.nx - R;
          for (int j0 = warp; j0 < ty; j0 += kRows * nwarps) {
            Scalar v[kRows];
#pragma unroll
            for (int r = 0; r < kRows; ++r) {
              const int j = j0 + r * nwarps;
              if (j < ty) {
                const int gyi = y0 + j;
                const int sidx = (j + R) * px + (i + R);
                if (xint && gyi >= R && gyi < p.ny - R) {
                  Smem3DAccessor<Right, Scalar, R> a;
#pragma unroll
                  for (int d = 0; d < 2 * R + 1; ++d) a.base[d] = in_base[d] + sidx;
                  a.px = px;
                  v[r] = eval(a);
                } else {
                  v[r] = smem[in_base[R] + sidx];
                }
              }
            }
#pragma unroll
            for (int r = 0; r < kRows; ++r) {
              const int j = j0 + r * nwarps;
              if (j < ty) {
                if (s == depth) {
                  p.dst[z * p.dsz + (y0 + j) * p.dsy + gxi * p.dsx] = v[r];
                } else {
                  out[(j + R) * px + (i + R)] = v[r];
                }
              }
            }
          }
        }
      }
      __syncthreads();
    }

    // Publish the r-wide edge strips of this step's intermediate planes
    // (levels 1..depth-1) for the neighbouring SM tiles: shared -> L2.
    if (nl > 0) {
      Scalar* const xout = p.xchg + static_cast<long>(k & 1) * nl * xplane;
      const bool thin = tx <= 2 * R || ty <= 2 * R;
      const int inner = thin ? tx * ty : tx * ty - (tx - 2 * R) * (ty - 2 * R);
      for (int e = tid; e < inner; e += blockDim.x) {
        int i, j;
        if (thin) {
          j = e / tx;
          i = e - j * tx;
        } else if (e < 2 * R * tx) {
          j = e / tx;
          i = e - j * tx;
          if (j >= R) j += ty - 2 * R;  // bottom strip
        } else {
          const int f = e - 2 * R * tx;
          j = R + f / (2 * R);
          i = f - (j - R) * (2 * R);
          if (i >= R) i += tx - 2 * R;  // right strip
        }
        const long gidx = static_cast<long>(y0 + j) * p.nx + (x0 + i);
        const int sidx = (j + R) * px + (i + R);
        for (int q0 = 0; q0 < nl; q0 += 8) {
          Scalar v[8];
          bool ok[8];
#pragma unroll
          for (int u = 0; u < 8; ++u) {
            const int q = q0 + u;
            ok[u] = false;
            if (q < nl) {
              const int s = 1 + q / P, pp = q - (s - 1) * P;
              const int z = k * P - s * L + pp;
              if (z >= 0 && z < p.nz) {
                v[u] = smem[s * level_stride + (z % Q) * plane + sidx];
                ok[u] = true;
              }
            }
          }
#pragma unroll
          for (int u = 0; u < 8; ++u)
            if (ok[u]) __stcg(xout + (q0 + u) * xplane + gidx, v[u]);
        }
      }
    }

    // Level 0: planes kP..kP+P-1 (tile + halo) into their slots (async copy).
    for (int pp = 0; pp < P; ++pp) {
      const int z = k * P + pp;
      if (z >= p.nz) break;
      Scalar* const l0 = smem + (z % Q) * plane;
      const Scalar* const g = p.src + z * p.ssz;
      for (int j = warp; j < hy; j += nwarps) {
        const int gyi = y0 - R + j;
        if (gyi < 0 || gyi >= p.ny) continue;
        for (int i = lane; i < hx; i += 32) {
          const int gxi = x0 - R + i;
          if (gxi < 0 || gxi >= p.nx) continue;
          __pipeline_memcpy_async(l0 + j * px + i, g + gyi * p.ssy + gxi * p.ssx, sizeof(Scalar));
        }
      }
    }
    __pipeline_commit();

    // Publish this step's halo strips (the grid barrier orders them itself).
    if (p.use_flags) {
      __syncthreads();
      if (tid == 0) {
        __threadfence();
        ebisu_st_release(p.flags + b, k + 1);
      }
    }
  }
  __pipeline_wait_prior(0);
}

template <class Stencil, class ViewType>
StencilReport run_ebisu_3d(const std::string& label, const StencilPolicy<Kokkos::Cuda>& policy,
                           const Stencil& stencil, const ViewType& u, const ViewType& scratch) {
  using Scalar = typename ViewType::non_const_value_type;
  using Layout = typename ViewType::array_layout;
  constexpr bool right = std::is_same_v<Layout, Kokkos::LayoutRight>;
  constexpr int R = Stencil::radius;
  const int steps = policy.steps();
  const Kokkos::Cuda& space = policy.space();
  const TuningKnobs& knobs = policy.knobs();

  StencilReport report;
  report.backend = Backend::ebisu;
  report.launches = 0;
  if (steps == 0) {
    report.temporal_depth = 0;
    report.plan = "ebisu-3d: no steps";
    return report;
  }

  const int ix = right ? 2 : 0, iz = right ? 0 : 2;
  const long nx = static_cast<long>(u.extent(ix)), ny = static_cast<long>(u.extent(1)),
             nz = static_cast<long>(u.extent(iz));

  int device = 0;
  EBISU_CUDA_CHECK(cudaGetDevice(&device), "ebisu3d");
  DeviceModel dm = device_model(device);
  if (dm.grid_sync_us <= 0) dm.grid_sync_us = 2.0;
  const StencilModel sm = stencil_model<Stencil>(static_cast<int>(sizeof(Scalar)));
  SyncKind sync = SyncKind::neighbor_flags;
  if (const char* e = std::getenv("EBISU_KOKKOS_3D_SYNC")) {
    if (std::strcmp(e, "grid") == 0) sync = SyncKind::grid_barrier;
  }
  int planes = 0;  // plane group: the model's, or EBISU_KOKKOS_3D_PLANES (tuning experiments)
  if (const char* e = std::getenv("EBISU_KOKKOS_3D_PLANES")) planes = std::atoi(e);
  const Plan3D plan = choose_plan_3d(dm, sm, nz, ny, nx, steps, knobs, sync, planes);

  auto fallback = [&](const std::string& why) {
    StencilReport r = run_generic(label, policy, stencil, u, scratch);
    r.plan = "generic (ebisu-3d fallback: " + why + ")";
    return r;
  };
  if (!plan.valid) return fallback("no device tiling fits");
  // Backend::automatic takes the faster of the two by the model (measured on
  // an H200, the current 3-D kernel is slower than plain Kokkos: see
  // docs/perf-notes-3d.md); Backend::ebisu always runs the kernel.
  if (policy.backend() == Backend::automatic) {
    const double generic = predict_generic_gcells_3d(dm, sm);
    if (plan.predicted_gcells_per_s < generic) {
      char why[160];
      std::snprintf(why, sizeof why, "automatic: model predicts %.1f GCells/s for ebisu-3d, %.1f for generic",
                    plan.predicted_gcells_per_s, generic);
      return fallback(why);
    }
  }

  auto kernel = &ebisu3d_kernel<right, Scalar, R, decltype(stencil.template bind<Scalar>())>;
  const auto eval = stencil.template bind<Scalar>();
  const char* kname = "ebisu3d_kernel";
  EBISU_CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel),
                                        cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(plan.smem_bytes)),
                   kname);
  int per_sm = 0;
  EBISU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reinterpret_cast<const void*>(kernel),
                                                                 plan.threads, static_cast<std::size_t>(plan.smem_bytes)),
                   kname);
  if (per_sm * dm.sm_count < plan.blocks()) return fallback("grid cannot be co-resident");

  const int depth = plan.depth;
  const std::size_t xbytes = static_cast<std::size_t>(2) * (depth > 1 ? depth - 1 : 0) * plan.planes * nx * ny * sizeof(Scalar);
  const std::size_t fbytes = static_cast<std::size_t>(plan.blocks()) * sizeof(int);
  cudaStream_t stream = space.cuda_stream();
  char* ws = static_cast<char*>(ebisu3d_workspace(device, stream, xbytes + fbytes + 256));
  int* flags = reinterpret_cast<int*>(ws);
  Scalar* xchg = reinterpret_cast<Scalar*>(ws + ((fbytes + 255) / 256) * 256);

  report.temporal_depth = depth;
  report.predicted_gcells_per_s = plan.predicted_gcells_per_s;
  report.plan = plan.describe();

  const std::string region = "EbisuKokkos::ebisu3d::" + label;
  Kokkos::Profiling::pushRegion(region);
  ViewType src = u, dst = scratch;
  int done = 0;
  while (done < steps) {
    const int d = std::min(depth, steps - done);
    Ebisu3DParams<Scalar> prm;
    prm.src = src.data();
    prm.dst = dst.data();
    prm.ssx = static_cast<long>(src.stride(ix));
    prm.ssy = static_cast<long>(src.stride(1));
    prm.ssz = static_cast<long>(src.stride(iz));
    prm.dsx = static_cast<long>(dst.stride(ix));
    prm.dsy = static_cast<long>(dst.stride(1));
    prm.dsz = static_cast<long>(dst.stride(iz));
    prm.nx = static_cast<int>(nx);
    prm.ny = static_cast<int>(ny);
    prm.nz = static_cast<int>(nz);
    prm.gx = plan.grid_x;
    prm.gy = plan.grid_y;
    prm.px = plan.tile_x + 2 * R;
    prm.plane = (plan.tile_x + 2 * R) * (plan.tile_y + 2 * R);
    prm.depth = d;
    prm.planes = plan.planes;
    prm.use_flags = plan.sync == SyncKind::neighbor_flags ? 1 : 0;
    prm.xchg = xchg;
    prm.flags = flags;
    const std::size_t smem = static_cast<std::size_t>(smem_bytes_3d(d, R, plan.tile_x, plan.tile_y, sizeof(Scalar), plan.planes));
    if (prm.use_flags) EBISU_CUDA_CHECK(cudaMemsetAsync(flags, 0, fbytes, stream), kname);
    void* args[] = {const_cast<void*>(static_cast<const void*>(&eval)), static_cast<void*>(&prm)};
    const cudaError_t err = cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), dim3(plan.blocks()),
                                                        dim3(plan.threads), args, smem, stream);
    if (err != cudaSuccess) {
      (void)cudaGetLastError();  // clear the refusal
      Kokkos::Profiling::popRegion();
      if (done == 0 && (err == cudaErrorCooperativeLaunchTooLarge || err == cudaErrorNotSupported ||
                        err == cudaErrorLaunchOutOfResources)) {
        return fallback(std::string("cooperative launch refused: ") + cudaGetErrorName(err));
      }
      EBISU_CUDA_CHECK(err, kname);
    }
    EBISU_CUDA_CHECK(cudaGetLastError(), kname);
    ++report.launches;
    done += d;
    std::swap(src, dst);
  }
  if (src.data() != u.data()) Kokkos::deep_copy(space, u, src);
  Kokkos::Profiling::popRegion();
  return report;
}

}  // namespace Cuda
}  // namespace Impl
}  // namespace EbisuKokkos

#endif
