#!/usr/bin/env bash
# Patches for Kokkos 3.4.01 (Trilinos 13.2.0) with CUDA 13 and Hopper GPUs.
# Each one is small, idempotent and checked; the setup script hashes this
# file into the cache key, so changing a patch rebuilds the cached Kokkos.
# The CUDA ones are no-ops for an OpenMP/Serial build.
#
# Usage (through scripts/patch_kokkos.sh): kokkos-3.4.01.sh <kokkos source dir>
set -euo pipefail
k=${1:?usage: kokkos-3.4.01.sh <kokkos source dir>}

fail() { echo "kokkos-3.4.01.sh: $*" >&2; exit 1; }

# 1. CUDA 13's cuda_fp16.h breaks Kokkos' half_t conversions: fall back to the
#    generic float-backed half_t when the runtime is CUDA 13 or newer.
f=$k/core/src/Cuda/Kokkos_Cuda_Half.hpp
if ! grep -q 'EBISU_PATCH_HALF' "$f"; then
  sed -i '0,/^#ifdef KOKKOS_ENABLE_CUDA$/s//#ifdef KOKKOS_ENABLE_CUDA  \/\/ EBISU_PATCH_HALF\n#include <cuda_runtime_api.h>\n#endif\n#if defined(KOKKOS_ENABLE_CUDA) \&\& !(defined(CUDART_VERSION) \&\& CUDART_VERSION >= 13000)/' "$f"
  grep -q 'EBISU_PATCH_HALF' "$f" || fail "half_t patch did not apply"
fi

# 2. CUDA 13 changed cudaMemPrefetchAsync to take a cudaMemLocation and flags.
f=$k/core/src/Cuda/Kokkos_CudaSpace.cpp
if ! grep -q 'EBISU_PATCH_PREFETCH' "$f"; then
  perl -0pi -e 's/CUDA_SAFE_CALL\(cudaMemPrefetchAsync\(ptr, bytes, space\.cuda_device\(\),\s*space\.cuda_stream\(\)\)\);/\/\/ EBISU_PATCH_PREFETCH\n#if CUDART_VERSION >= 13000\n    cudaMemLocation location{cudaMemLocationTypeDevice, space.cuda_device()};\n    CUDA_SAFE_CALL(cudaMemPrefetchAsync(ptr, bytes, location, 0u, space.cuda_stream()));\n#else\n    CUDA_SAFE_CALL(cudaMemPrefetchAsync(ptr, bytes, space.cuda_device(), space.cuda_stream()));\n#endif/' "$f"
  grep -q 'EBISU_PATCH_PREFETCH' "$f" || fail "prefetch patch did not apply"
fi

# 3. Kokkos 3.4 knows no Hopper: add HOPPER90 (sm_90) as an Ampere-class arch
#    so Kokkos' device check at initialize() accepts an H100/H200.
f=$k/cmake/kokkos_arch.cmake
if ! grep -q 'HOPPER90' "$f"; then
  sed -i 's/^KOKKOS_ARCH_OPTION(AMPERE86 \(.*\)$/&\nKOKKOS_ARCH_OPTION(HOPPER90        GPU  "NVIDIA Hopper generation CC 9.0")/' "$f"
  sed -i 's/^CHECK_CUDA_ARCH(AMPERE86  sm_86)$/&\nCHECK_CUDA_ARCH(HOPPER90  sm_90)/' "$f"
  sed -i 's/IF (KOKKOS_ARCH_AMPERE80 OR KOKKOS_ARCH_AMPERE86)/IF (KOKKOS_ARCH_AMPERE80 OR KOKKOS_ARCH_AMPERE86 OR KOKKOS_ARCH_HOPPER90)/' "$f"
  [ "$(grep -c 'HOPPER90' "$f")" -ge 3 ] || fail "Hopper arch patch did not apply to kokkos_arch.cmake"
fi
f=$k/cmake/KokkosCore_config.h.in
if ! grep -q 'HOPPER90' "$f"; then
  sed -i 's/^#cmakedefine KOKKOS_ARCH_AMPERE86$/&\n#cmakedefine KOKKOS_ARCH_HOPPER90/' "$f"
  grep -q 'HOPPER90' "$f" || fail "Hopper arch patch did not apply to KokkosCore_config.h.in"
fi

# 4. nvcc 13 rejects nvcc_wrapper's default sm_35, which breaks CMake's
#    compiler probe before any -arch flag is added.
f=$k/bin/nvcc_wrapper
sed -i 's/^default_arch="sm_35"$/default_arch="sm_75"/' "$f"
grep -q '^default_arch="sm_75"$' "$f" || fail "nvcc_wrapper default arch patch did not apply"
