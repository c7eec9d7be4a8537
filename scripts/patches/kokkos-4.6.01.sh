#!/usr/bin/env bash
# Patches for Kokkos 4.6.01 with CUDA 13 (Kokkos 4.6 predates CUDA 13; Hopper
# is supported as Kokkos_ARCH_HOPPER90). Each one is small, idempotent and
# checked; the setup script hashes this file into the cache key. The CUDA ones
# are no-ops for an OpenMP/Serial build (nothing here is compiled without CUDA).
#
# Usage (through scripts/patch_kokkos.sh): kokkos-4.6.01.sh <kokkos source dir>
set -euo pipefail
k=${1:?usage: kokkos-4.6.01.sh <kokkos source dir>}

fail() { echo "kokkos-4.6.01.sh: $*" >&2; exit 1; }

# 1. CUDA 13 replaced the int device argument of cudaMemAdvise and
#    cudaMemPrefetchAsync by a cudaMemLocation (and gave the prefetch a flags
#    argument). Kokkos' instance wrappers (inline, so compiled by every TU that
#    includes Kokkos_Core.hpp) pass the int: build the location from it.
f=$k/core/src/Cuda/Kokkos_Cuda_Instance.hpp
if ! grep -q 'EBISU_PATCH_MEMLOCATION' "$f"; then
  perl -0pi -e 's/(\n)(\s*)return cudaMemAdvise\(devPtr, count, advice, device\);/$1#if CUDART_VERSION >= 13000  \/\/ EBISU_PATCH_MEMLOCATION\n$2cudaMemLocation location{};\n$2location.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;\n$2location.id   = device;\n$2return cudaMemAdvise(devPtr, count, advice, location);\n#else\n$2return cudaMemAdvise(devPtr, count, advice, device);\n#endif/' "$f"
  perl -0pi -e 's/(\n)(\s*)return cudaMemPrefetchAsync\(devPtr, count, dstDevice,\s*get_input_stream\(stream\)\);/$1#if CUDART_VERSION >= 13000  \/\/ EBISU_PATCH_MEMLOCATION\n$2cudaMemLocation location{};\n$2location.type = dstDevice == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;\n$2location.id   = dstDevice;\n$2return cudaMemPrefetchAsync(devPtr, count, location, 0u, get_input_stream(stream));\n#else\n$2return cudaMemPrefetchAsync(devPtr, count, dstDevice, get_input_stream(stream));\n#endif/' "$f"
  [ "$(grep -c 'EBISU_PATCH_MEMLOCATION' "$f")" = 2 ] || fail "cudaMemLocation patch did not apply to $f"
fi

# 2. CUDA 13's cudaGraphAddDependencies takes per-edge data before the count
#    (nullptr: default edges, what the CUDA 12 call made).
f=$k/core/src/Cuda/Kokkos_Cuda_Instance.hpp
if ! grep -q 'EBISU_PATCH_GRAPH_EDGES' "$f"; then
  perl -0pi -e 's/(\n)(\s*)return cudaGraphAddDependencies\(graph, from, to, numDependencies\);/$1#if CUDART_VERSION >= 13000  \/\/ EBISU_PATCH_GRAPH_EDGES\n$2return cudaGraphAddDependencies(graph, from, to, nullptr, numDependencies);\n#else\n$2return cudaGraphAddDependencies(graph, from, to, numDependencies);\n#endif/' "$f"
  grep -q 'EBISU_PATCH_GRAPH_EDGES' "$f" || fail "cudaGraphAddDependencies patch did not apply to $f"
fi

# 3. nvcc 13 rejects nvcc_wrapper's default sm_70 (it supports sm_75 and newer),
#    which breaks CMake's compiler probe before any -arch flag is added.
f=$k/bin/nvcc_wrapper
sed -i 's/^default_arch="sm_70"$/default_arch="sm_75"/' "$f"
grep -q '^default_arch="sm_75"$' "$f" || fail "nvcc_wrapper default arch patch did not apply"
