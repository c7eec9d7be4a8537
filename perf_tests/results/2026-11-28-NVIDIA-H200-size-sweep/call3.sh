#!/usr/bin/env bash
# Session 19, call 3: this tree (measured choice judges a candidate without its ranking margin; bench with
# NVML telemetry per repetition). Cuda tests of the measured choice and device tiling; the 3-D sweep at
# 32^3-128^3; j2d5pt 2048^2 at T = 960 and T = 2400 alternating (does a longer run sustain a lower clock?).
source "$(dirname "$0")/common.sh"
xz -dc build-device19/bench2.xz > /tmp/bin/bench2; chmod +x /tmp/bin/*
# (the Cuda tests run in call 4 with the next build)
s=$(date +%s); SIZES_2D="" SIZES_3D="32 64 128" timeout 200 perf_tests/run_size_sweep.sh /tmp/bin/bench2 $R/sweep3d > $R/sweep3d-run.log 2>&1; echo "sweep3d rc $? $(( $(date +%s) - s )) s"
grep -E "^(j3d|poisson)" $R/sweep3d-run.log | awk '{print $1,$2,$6,$7,$8,$9}'
for round in 1 2; do for T in 960 2400; do
  s=$(date +%s); timeout 60 /tmp/bin/bench2 --stencils j2d5pt --size2d 2048 --steps $T --reps 5 --no-spmv --plain-variants fast --ebisu-variants automatic --json $R/j2d5pt-2048-T$T-$round.json > $R/j2d5pt-2048-T$T-$round.log 2>&1
  echo "T=$T round $round rc $? $(( $(date +%s) - s )) s: $(grep -E 'automatic' $R/j2d5pt-2048-T$T-$round.log | head -1 | sed 's/  */ /g')"
done; done
# SASS of the device-tiling kernel, windows shifted (old) against a ring of registers (new)
CUOBJ=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
mkdir -p $R/sass
for f in build-device19/probe/*.o; do b=$(basename $f .o); $CUOBJ -sass $f 2>&1 | awk '/Function : .*device_tiling_kernel/{p=1} /Function :/&&!/device_tiling_kernel/{p=0} p' > $R/sass/$b.sass
  echo "$b: $(grep -cE '^ +/\*[0-9a-f]{4}\*/ ' $R/sass/$b.sass) instructions, MOV $(grep -cE '/\*[0-9a-f]{4}\*/ +MOV ' $R/sass/$b.sass), DFMA $(grep -cE '/\*[0-9a-f]{4}\*/ +DFMA' $R/sass/$b.sass), LDS $(grep -cE '/\*[0-9a-f]{4}\*/ +LDS' $R/sass/$b.sass)"; done
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
