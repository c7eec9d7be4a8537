#!/usr/bin/env bash
# Session 19, call 6: the landed tree's bench (e4d2b35 = bench2: measured choice without margins, NVML
# telemetry) on the whole 3-D sweep (32^3 .. 512^3), the only rank whose choices the change can move.
source "$(dirname "$0")/common.sh"
xz -dc build-device19/bench2.xz > /tmp/bin/bench2; chmod +x /tmp/bin/bench2
s=$(date +%s); SIZES_2D="" timeout 300 perf_tests/run_size_sweep.sh /tmp/bin/bench2 $R/sweep3d > $R/sweep3d-run.log 2>&1; echo "sweep3d rc $? $(( $(date +%s) - s )) s"
grep -E "^(j3d|poisson)" $R/sweep3d-run.log | awk '{print $1,$2,$6,$7,$8,$9}'
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
