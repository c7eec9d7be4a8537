// Grid barrier variants for the persistent kernels (device tiling, in-place tiling): cost per barrier on this
// GPU, one block of 512 threads per SM, with and without a small halo written before and read after each barrier.
#include <cooperative_groups.h>
#include <cstdio>
#include <vector>
namespace cg = cooperative_groups;

__device__ __forceinline__ unsigned ld_acquire(const unsigned* p) {
  unsigned v; asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v;
}
__device__ __forceinline__ unsigned ld_relaxed(const unsigned* p) {
  unsigned v; asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v;
}
__device__ __forceinline__ void red_release(unsigned* p, unsigned v) {
  asm volatile("red.release.gpu.global.add.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ unsigned atom_release(unsigned* p, unsigned v) {
  unsigned o; asm volatile("atom.add.release.gpu.global.u32 %0, [%1], %2;" : "=r"(o) : "l"(p), "r"(v) : "memory"); return o;
}
__device__ __forceinline__ unsigned atom_acq_rel(unsigned* p, unsigned v) {
  unsigned o; asm volatile("atom.add.acq_rel.gpu.global.u32 %0, [%1], %2;" : "=r"(o) : "l"(p), "r"(v) : "memory"); return o;
}
__device__ __forceinline__ void st_release(unsigned* p, unsigned v) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ void fence_acq_rel() { asm volatile("fence.acq_rel.gpu;" ::: "memory"); }
__device__ __forceinline__ bool reached(unsigned now, unsigned target) { return int(now - target) >= 0; }

// counters: [0] the arrival counter, [32] the generation word, [64 + b] block b's flag.
template <int V>
__device__ __forceinline__ void barrier(unsigned* c, unsigned epoch /* 1, 2, ... */, unsigned nb) {
  if constexpr (V == 0) {
    cg::this_grid().sync();
    return;
  }
  __syncthreads();
  if constexpr (V >= 1 && V <= 5) {
    if (threadIdx.x == 0) {
      const unsigned target = epoch * nb;
      if constexpr (V == 1) {
        atom_release(c, 1);
        while (!reached(ld_acquire(c), target)) {}
      } else if constexpr (V == 2 || V == 4) {
        red_release(c, 1);
        while (!reached(ld_relaxed(c), target)) { if constexpr (V == 4) __nanosleep(32); }
        fence_acq_rel();
      } else if constexpr (V == 3) {
        const unsigned old = atom_acq_rel(c, 1);
        if (old + 1 == target) st_release(c + 32, epoch);
        else { while (!reached(ld_relaxed(c + 32), epoch)) {} fence_acq_rel(); }
      } else if constexpr (V == 5) {
        red_release(c, 1);
        while (!reached(ld_acquire(c), target)) {}
      }
    }
  } else if constexpr (V == 6 || V == 7) {
    // every block publishes its own flag; warp 0 of every block polls all flags
    if (threadIdx.x == 0) st_release(c + 64 + blockIdx.x, epoch);
    if (threadIdx.x < 32) {
      for (unsigned b = threadIdx.x; b < nb; b += 32) {
        if constexpr (V == 6) { while (!reached(ld_relaxed(c + 64 + b), epoch)) {} }
        else { while (!reached(ld_acquire(c + 64 + b), epoch)) {} }
      }
      __syncwarp();
      if constexpr (V == 6) fence_acq_rel();
    }
  }
  __syncthreads();
}

template <int V>
__global__ void loop(int n, unsigned* c, double* halo, int use_halo, int* errors, unsigned long long* out) {
  const unsigned nb = gridDim.x;
  const int hw = 256;  // halo doubles per block
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    double* mine = halo + (size_t)((i & 1) * nb + blockIdx.x) * hw;
    double* theirs = halo + (size_t)((i & 1) * nb + (blockIdx.x + 1) % nb) * hw;
    if (use_halo && threadIdx.x < hw) __stcg(mine + threadIdx.x, double(i));
    barrier<V>(c, unsigned(i + 1), nb);
    if (use_halo && threadIdx.x < hw) bad += __ldcg(theirs + threadIdx.x) != double(i);
  }
  if (bad) atomicAdd(errors, bad);
  if (blockIdx.x == 0 && threadIdx.x == 0) *out = 1;
}

template <int V>
void run(const char* name, int blocks, int use_halo, unsigned* c, double* halo, int* err, unsigned long long* out) {
  const int n = 20000, threads = 512;
  const size_t smem = 200 * 1024;
  cudaFuncSetAttribute(loop<V>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  float best = 1e30f;
  int errs = 0;
  for (int rep = 0; rep < 3; ++rep) {
    cudaMemset(c, 0, 4096);
    cudaMemset(err, 0, 4);
    void* args[] = {(void*)&n, (void*)&c, (void*)&halo, (void*)&use_halo, (void*)&err, (void*)&out};
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    cudaEventRecord(a);
    cudaError_t e = cudaLaunchCooperativeKernel((void*)loop<V>, blocks, threads, args, smem, 0);
    cudaEventRecord(b); cudaEventSynchronize(b);
    if (e != cudaSuccess) { printf("launch error %s\n", cudaGetErrorString(e)); return; }
    float ms; cudaEventElapsedTime(&ms, a, b);
    if (ms < best) best = ms;
    int h = 0; cudaMemcpy(&h, err, 4, cudaMemcpyDeviceToHost); errs += h;
  }
  printf("RESULT %-34s blocks %3d halo %d: %.3f us per barrier, errors %d (%s)\n", name, blocks, use_halo,
         best * 1e3 / n, errs, cudaGetErrorString(cudaGetLastError()));
}

int main() {
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);
  printf("GPU %s, %d SMs\n", p.name, sms);
  unsigned* c; cudaMalloc(&c, 4096);
  double* halo; cudaMalloc(&halo, 2 * 256 * 256 * sizeof(double));
  int* err; cudaMalloc(&err, 4);
  unsigned long long* out; cudaMalloc(&out, 8);
  for (int use_halo : {0, 1})
    for (int blocks : {sms, 64}) {
      run<0>("cg grid.sync", blocks, use_halo, c, halo, err, out);
      run<1>("atom.release + poll acquire", blocks, use_halo, c, halo, err, out);
      run<2>("red.release + poll relaxed + fence", blocks, use_halo, c, halo, err, out);
      run<3>("atom.acq_rel, last sets a generation", blocks, use_halo, c, halo, err, out);
      run<4>("red.release + poll relaxed, sleep", blocks, use_halo, c, halo, err, out);
      run<5>("red.release + poll acquire", blocks, use_halo, c, halo, err, out);
      run<6>("flags, poll relaxed + fence", blocks, use_halo, c, halo, err, out);
      run<7>("flags, poll acquire", blocks, use_halo, c, halo, err, out);
    }
  return 0;
}
