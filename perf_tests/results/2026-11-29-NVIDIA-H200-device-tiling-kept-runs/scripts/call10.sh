#!/bin/bash
# call 10: the final tree (kept runs for radius 1, padding rows, lists that hold every halo cell):
# Cuda tests, memcheck / racecheck / synccheck, A/B against HEAD (H) in alternating processes
source "$(dirname "$0")/common.sh"
s=$(date +%s)
T=/tmp/bin/cuda_tests
$T --gtest_filter='cuda.device_tiling*:cuda.boundary_kernels_2d:cuda.field_kernels*:cuda.measured_choice*' > $R/tests.log 2>&1
echo "tests rc $? $(( $(date +%s) - s )) s"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|OK \] cuda" $R/tests.log | cut -c1-110
for tool in memcheck racecheck synccheck; do
  EBISU_TEST_QUICK=1 timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_filter='cuda.device_tiling_kept_runs' > $R/san-$tool.log 2>&1
  echo "$tool rc $? $(( $(date +%s) - s )) s"; grep -E "SUMMARY|PASSED|FAILED" $R/san-$tool.log | head -3
done
for round in 1 2; do
  for v in H N17; do
    /tmp/bin/ab_$v 256 384 512 768 1024 > $R/ab_${v}_r$round.log 2>&1
    grep "RESULT\|WRONG" $R/ab_${v}_r$round.log | grep -v j2d25pt | sed -E "s/RESULT (\S+ \S+) d[0-9]+ (\S+) .*/$v r$round \1 \2/"
  done
done
grep -h "RESULT j2d5pt" $R/ab_N17_r1.log | sed -E 's/RESULT (\S+ \S+) .*depth ([0-9]+) .*runs of ([0-9]+).*KB shared.*predicted ([0-9.]+).*lists of ([0-9]+) cells(; runs kept[^;]*)?; regs\/thread ([0-9]+), local memory ([0-9]+).*/\1 d\2 runs\3 pred \4 lists \5 \6 regs \7 local \8/'
echo "total $(( $(date +%s) - s )) s"
tar -C $OUT -czf $OUT/res.tgz res && rm -rf $R
