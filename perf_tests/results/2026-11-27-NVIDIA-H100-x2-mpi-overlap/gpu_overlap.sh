#!/usr/bin/env bash
# Overlap comparison on 2 GPUs (issue 14): one bundle per argument.
set -u
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/gpu.txt" 2>&1
nvidia-smi topo -m > "$OUT/topo.txt" 2>&1
chmod +x carry/ebisu_mpi_bench
for b in "$@"; do
  name=$(basename "$b" .tar.gz)
  timeout 270 bash perf_tests/run_mpi_scaling.sh carry/ebisu_mpi_bench "$b" "$OUT/$name" 2 overlap > "$OUT/$name.console" 2>&1
  echo "$name rc=$?" >> "$OUT/status.txt"
done
tar -czf "$OUT/all.tar.gz" -C "$OUT" --exclude=all.tar.gz . 2>/dev/null
