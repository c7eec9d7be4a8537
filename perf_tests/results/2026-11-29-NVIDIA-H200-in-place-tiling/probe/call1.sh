#!/usr/bin/env bash
# session 23, call 1: the register-resident 3-D probe (64^3 / 128^3, fp64) and racecheck of the 3-D
# SM-tiling and device-tiling kernels at tiny sizes through the bench.
source "$(dirname "$0")/common.sh"
xz -dc build-dev23/rr_probe.xz > /tmp/bin/rr_probe; chmod +x /tmp/bin/rr_probe
s=$(date +%s); timeout 200 /tmp/bin/rr_probe > $R/rr_probe.log 2>&1; echo "probe rc $? $(( $(date +%s) - s )) s"
grep -E "RESULT|WRONG|fit|spill|regs" $R/rr_probe.log | grep -E "RESULT|WRONG|not" 
for st in j3d7pt j3d13pt poisson j3d27pt; do
  s=$(date +%s)
  timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 /tmp/bin/ebisu_bench --stencils $st --size3d 20,22,36 --steps 3 --reps 1 --no-spmv \
    --plain-variants mdrange-tile-32x4x1 --ebisu-variants generic --ebisu-strategies device_tiling,sm_tiling --ebisu-depths 2 > $R/racecheck-$st.log 2>&1
  echo "racecheck $st rc $? $(( $(date +%s) - s )) s"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|hazard" $R/racecheck-$st.log | tail -2
done
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
