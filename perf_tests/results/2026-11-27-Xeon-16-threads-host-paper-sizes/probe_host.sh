#!/usr/bin/env bash
set -u
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/carry:${LD_LIBRARY_PATH:-}
export OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=cores
chmod +x carry/probe_host
timeout 200 carry/probe_host 256 16 > "$OUT/probe-256.txt" 2>&1; echo "256 rc=$?"
timeout 200 carry/probe_host 384 8 > "$OUT/probe-384.txt" 2>&1; echo "384 rc=$?"
grep -v "^ *In general\|^ *For \|WARNING" "$OUT/probe-256.txt" | cut -c1-200
grep -v "^ *In general\|^ *For \|WARNING" "$OUT/probe-384.txt" | cut -c1-60
