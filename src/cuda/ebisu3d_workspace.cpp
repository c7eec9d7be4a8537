// Workspace of the 3-D EBISU kernels: one device buffer per (device, stream),
// allocated at first use and grown when a larger problem needs it; never
// freed (it would need a device synchronisation at exit, after Kokkos may
// have finalised).

#include <ebisu_kokkos/impl/cuda/cuda_check.hpp>

#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <utility>

namespace EbisuKokkos {
namespace Impl {
namespace Cuda {

void* ebisu3d_workspace(int device, cudaStream_t stream, std::size_t bytes) {
  struct Buffer {
    void* ptr = nullptr;
    std::size_t bytes = 0;
  };
  static std::mutex mutex;
  static std::map<std::pair<int, cudaStream_t>, Buffer> buffers;
  std::lock_guard<std::mutex> lock(mutex);
  Buffer& b = buffers[{device, stream}];
  if (b.bytes < bytes) {
    if (b.ptr) {
      // Work queued on the stream may still use the old buffer.
      EBISU_CUDA_CHECK(cudaStreamSynchronize(stream), "ebisu3d workspace");
      EBISU_CUDA_CHECK(cudaFree(b.ptr), "ebisu3d workspace");
    }
    b.ptr = nullptr;
    EBISU_CUDA_CHECK(cudaMalloc(&b.ptr, bytes), "ebisu3d workspace");
    b.bytes = bytes;
  }
  return b.ptr;
}

}  // namespace Cuda
}  // namespace Impl
}  // namespace EbisuKokkos
