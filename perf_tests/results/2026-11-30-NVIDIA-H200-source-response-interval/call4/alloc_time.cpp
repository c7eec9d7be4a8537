// Times what the response form's buffer costs: cudaMalloc / cudaFree and a Kokkos View's allocation and
// release (WithoutInitializing), for the 2-D and 3-D paper-size fp64 fields, with the GPU busy and idle.
#include <Kokkos_Core.hpp>
#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>

static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  for (long bytes : {558L * 1000 * 1000, 2265L * 1000 * 1000}) {
    for (int rep = 0; rep < 4; ++rep) {
      Kokkos::fence();
      double t0 = now();
      void* p = nullptr;
      cudaMalloc(&p, bytes);
      double t1 = now();
      cudaMemsetAsync(p, 0, bytes);
      cudaDeviceSynchronize();
      double t2 = now();
      cudaFree(p);
      double t3 = now();
      Kokkos::View<double*> v(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("x")), bytes / 8);
      double t4 = now();
      Kokkos::deep_copy(v, 0.0);
      Kokkos::fence();
      double t5 = now();
      v = Kokkos::View<double*>();
      double t6 = now();
      std::printf("%ld MB rep %d: cudaMalloc %.3f ms, memset %.3f ms, cudaFree %.3f ms; View alloc %.3f ms, "
                  "fill %.3f ms, release %.3f ms\n",
                  bytes / 1000000, rep, (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3, (t4 - t3) * 1e3,
                  (t5 - t4) * 1e3, (t6 - t5) * 1e3);
    }
  }
  return 0;
}
