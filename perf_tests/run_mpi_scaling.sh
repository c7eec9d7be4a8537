#!/usr/bin/env bash
# Strong and weak scaling of the distributed parallel_stencil on the GPUs of one
# machine (issue 14, item 4), one rank per GPU, with the Open MPI runtime that
# scripts/bundle_openmpi.sh packed (GPU machines have no package registry).
#
#   perf_tests/run_mpi_scaling.sh BENCH OPENMPI.tar.gz OUT_DIR [GPUS] [scaling|overlap]
#
# scaling (default): strong and weak scaling with the library's choices.
# overlap: the four cases on GPUS ranks with the exchange overlapped (--overlap on),
# not (off) and measured (auto), after the one-GPU runs they are compared with.
#
# BENCH: ebisu_mpi_bench of a CUDA build with EbisuKokkos_ENABLE_MPI=ON.
# Writes OUT_DIR/mpi_scaling.jsonl (one line per run) and OUT_DIR/mpi_scaling.log.
set -uo pipefail
bench=$(readlink -f "$1"); bundle=$(readlink -f "$2"); out=$(mkdir -p "$3" && cd "$3" && pwd); gpus=${4:-2}
mode=${5:-scaling}
mpi=/tmp/ebisu-openmpi
rm -rf "$mpi" && mkdir -p "$mpi" && tar -C "$mpi" -xzf "$bundle"
# shellcheck disable=SC1091
source "$mpi/env.sh"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
json=$out/mpi_scaling.jsonl log=$out/mpi_scaling.log
# One rank per GPU, by node-local rank. A CUDA-aware Open MPI copies between the GPUs of one machine
# through CUDA IPC (its smcuda transport), which needs every GPU visible to every rank: there each
# rank picks its device with --kokkos-device-id; otherwise each rank sees only its own GPU.
if "$mpi/bin/ompi_info" --parsable --all 2>/dev/null | grep -q 'mpi_built_with_cuda_support:value:true'; then
  select='exec "$@" --kokkos-device-id=$OMPI_COMM_WORLD_LOCAL_RANK'
else
  select='export CUDA_VISIBLE_DEVICES=$OMPI_COMM_WORLD_LOCAL_RANK; exec "$@"'
fi
run() {  # run RANKS ARGS...
  local n=$1; shift
  mpirun -np "$n" --oversubscribe --bind-to none -x PATH -x LD_LIBRARY_PATH \
    bash -c "$select" _ "$bench" "$@" --check --json "$json" \
    2>&1 | grep -v -E '^\s*$' | tee -a "$log"
}
echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1) x $gpus" | tee -a "$log"
cases=("--stencil j2d5pt --size 16384 --steps 512 --reps 5"
       "--stencil j3d7pt --size 512 --steps 240 --reps 5"
       "--stencil j2d5pt --size 16384 --weak --steps 512 --reps 5"
       "--stencil j3d7pt --extents 2560x288x384 --weak --steps 240 --reps 5")
if [ "$mode" = overlap ]; then
  for c in "${cases[@]}"; do
    # shellcheck disable=SC2086
    run 1 $c
    for o in off on auto; do
      # shellcheck disable=SC2086
      run "$gpus" $c --overlap "$o"
    done
  done
  exit 0
fi
for n in 1 $gpus; do
  run "$n" --stencil j2d5pt --size 16384 --steps 512 --reps 5              # strong
  run "$n" --stencil j3d7pt --size 512 --steps 240 --reps 5                # strong
  run "$n" --stencil j2d5pt --size 16384 --weak --steps 512 --reps 5       # weak, 16384^2 per GPU
  run "$n" --stencil j3d7pt --extents 2560x288x384 --weak --steps 240 --reps 5  # weak, paper size per GPU
done
# the same with the plain path on every block (what the exchange costs without temporal blocking)
for n in 1 $gpus; do
  run "$n" --stencil j2d5pt --size 16384 --steps 512 --reps 5 --backend generic
done
