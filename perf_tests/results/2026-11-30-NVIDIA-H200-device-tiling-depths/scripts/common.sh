# sourced by the calls of 2026-11-30 (session 28): environment, binaries, GPU facts, a clock sampler
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH=/usr/local/cuda/bin:$PATH
rt=$(dirname "$(find /usr/local/cuda/ /usr/lib -name 'libcudart.so.13*' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=$rt:${LD_LIBRARY_PATH:-}
R=$OUT/res; mkdir -p $R /tmp/bin
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,power.limit --format=csv > $R/gpu.txt; cat $R/gpu.txt
date -u +%FT%TZ > $R/date.txt
shopt -s nullglob
for b in build-dev28/*.xz; do n=$(basename $b .xz); xz -dc $b > /tmp/bin/$n; chmod +x /tmp/bin/$n; done
start_clocks() {  # $1: csv name
  nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv -lms 200 > $R/$1 2>&1 &
  SAMPLER=$!
}
stop_clocks() { kill $SAMPLER 2>/dev/null; wait $SAMPLER 2>/dev/null; }
