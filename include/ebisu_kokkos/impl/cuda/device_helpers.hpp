#ifndef EBISU_KOKKOS_IMPL_CUDA_DEVICE_HELPERS_HPP
#define EBISU_KOKKOS_IMPL_CUDA_DEVICE_HELPERS_HPP

// Device-side building blocks shared by the 2-D and 3-D EBISU kernels.

#include <ebisu_kokkos/config.hpp>

#include <cuda_runtime.h>

#include <type_traits>
#include <utility>

namespace EbisuKokkos {
namespace Impl {
namespace Cuda {

// Builds made only to check that everything compiles (CMake option
// EbisuKokkos_ENABLE_COMPILE_CHECK_ONLY, used by CI's CUDA stages, which have no
// GPU) instantiate each SM-tiling kernel template for its shallowest and its
// deepest depth only: the same template code, 2-5x fewer kernels for nvcc's
// optimiser (most of a CUDA test's compile time). The plans of such a build use
// only those depths.
constexpr bool compiles_depth(int depth, int max_depth) {
#ifdef EBISU_KOKKOS_COMPILE_CHECK_ONLY
  return depth == 1 || depth == max_depth;
#else
  (void)max_depth;
  return depth >= 1;
#endif
}
/// The depths of `candidates` (bit d: depth d) that this build compiles.
/// deepest_only: a check build compiles only max_depth (kernels with one
/// window per field and stream, whose shallow depth adds no code path).
constexpr unsigned compiled_depths(unsigned candidates, int max_depth, bool deepest_only = false) {
  unsigned m = 0;
  for (int d = 1; d <= max_depth && d < 32; ++d)
    if (((candidates >> d) & 1u) != 0 && compiles_depth(d, max_depth)) m |= 1u << d;
#ifdef EBISU_KOKKOS_COMPILE_CHECK_ONLY
  if (deepest_only && ((m >> max_depth) & 1u) != 0) m = 1u << max_depth;
#else
  (void)deepest_only;
#endif
  return m;
}

// Asynchronous global -> shared copies (cp.async, sm_80+): input rows/planes
// are requested several iterations before they are used, so the DRAM latency
// stays hidden without holding registers. A copy with valid == false writes
// zero and reads nothing.
template <class Scalar>
__device__ __forceinline__ void async_copy_or_zero(Scalar* smem_dst, const Scalar* global_src, bool valid) {
  static_assert(sizeof(Scalar) == 4 || sizeof(Scalar) == 8, "cp.async copies 4, 8 or 16 bytes");
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem_dst));
  const unsigned src_bytes = valid ? static_cast<unsigned>(sizeof(Scalar)) : 0u;
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(dst), "l"(global_src), "n"(sizeof(Scalar)),
               "r"(src_bytes)
               : "memory");
}
__device__ __forceinline__ void async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int Pending>
__device__ __forceinline__ void async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending) : "memory");
}
__device__ __forceinline__ void async_wait_all() { asm volatile("cp.async.wait_all;\n" ::: "memory"); }

// f(integral_constant<int, 0>) ... f(integral_constant<int, N-1>), unrolled at compile time.
template <int N, class F, int... I>
__device__ __forceinline__ void static_for_impl(F&& f, std::integer_sequence<int, I...>) {
  (f(std::integral_constant<int, I>{}), ...);
}
template <int N, class F>
__device__ __forceinline__ void static_for(F&& f) {
  static_for_impl<N>(f, std::make_integer_sequence<int, N>{});
}

// The shared tiles a step reads besides the state's newest level (other
// state fields and levels, read-only fields), or writes (one per state
// field). Indexed only by unrolled constants: they stay in registers.
template <class Scalar, int N>
struct TilePointers {
  Scalar* p[N > 0 ? N : 1];
};

// Field f's new value from a functor's result: a Scalar (one state field) or
// a Kokkos::Array with one value per field.
template <class Value>
__device__ __forceinline__ auto component(const Value& v, int f) {
  if constexpr (std::is_arithmetic_v<Value>) {
    return v;
  } else {
    return v[f];
  }
}

}  // namespace Cuda
}  // namespace Impl
}  // namespace EbisuKokkos

#endif
