#!/usr/bin/env bash
# Size sweep on a host execution space (OpenMP build of ebisu_bench): the
# run_size_sweep.sh sweep with the host's plain variants and work sizes.
# Rows: the best plain-Kokkos variants of the host (MDRange with Kokkos'
# default tiles and with whole-row tiles, the flattened RangePolicy) and the
# plain-C++ reference (`openmp-simd-loop`: omp parallel for + omp simd over
# raw pointers), parallel_stencil with Backend::automatic and ::generic, and
# Backend::ebisu forced (`ebisu-auto`: the host temporal-blocking path).
#
#   perf_tests/run_host_sweep.sh BUILD_DIR_OR_BINARY OUT_DIR [-- extra ebisu_bench options]
#
# Threads: OMP_NUM_THREADS (default: every core), bound one per core
# (OMP_PROC_BIND=spread, OMP_PLACES=cores) unless the caller set them.
# Environment as in run_size_sweep.sh; the defaults here: SIZES_2D
# ("1024 4096"), SIZES_3D ("64 128 256"), WORK (1e9 cell updates per run),
# QUANTUM 8, T_MIN 8, T_MAX 2000, REPS 5.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [[ $# -lt 2 || $1 == -h || $1 == --help ]]; then
  sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 2
fi
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-cores}
export SIZES_2D=${SIZES_2D-1024 4096} SIZES_3D=${SIZES_3D-64 128 256}
export WORK=${WORK:-1e9} QUANTUM=${QUANTUM:-8} T_MIN=${T_MIN:-8} T_MAX=${T_MAX:-2000} REPS=${REPS:-5}
export PLAIN=${PLAIN:-mdrange-default,mdrange-tile-row,range-interior,openmp-simd-loop}
export STRATEGIES=${STRATEGIES:-automatic} EBISU=${EBISU:-automatic,generic}
echo "run_host_sweep.sh: $OMP_NUM_THREADS threads ($OMP_PROC_BIND, $OMP_PLACES)"
exec "$here/run_size_sweep.sh" "$@"
