#!/usr/bin/env bash
# call 2: ncu of the j2d5pt depth-8
# SM-tiling kernel at 8352^2, fixed frame against every side periodic (issue 12: periodic within 10%).
source "$(dirname "$0")/common.sh"
cd /tmp/bin
NCU=/usr/local/cuda/bin/ncu
B="./ebisu_bench --stencils j2d5pt --size2d 8352 --steps 16 --reps 5 --no-spmv --plain-variants mdrange-tile-32x4"
timeout 200 $NCU --kernel-name-base demangled --kernel-name "regex:ebisu2d_kernel<.*double, \\(int\\)8, \\(bool\\)[01], \\(bool\\)0, \\(int\\)0" --launch-skip 4 --launch-count 2 \
  --section SpeedOfLight --section InstructionStats --section WarpStateStats --section Occupancy --section LaunchStats \
  $B --ebisu-variants generic --ebisu-depths 8 > $R/ncu_fixed.txt 2>&1
timeout 200 $NCU --kernel-name-base demangled --kernel-name "regex:ebisu2d_kernel<.*double, \\(int\\)8, \\(bool\\)[01], \\(bool\\)1, \\(int\\)0" --launch-skip 4 --launch-count 2 \
  --section SpeedOfLight --section InstructionStats --section WarpStateStats --section Occupancy --section LaunchStats \
  $B --ebisu-variants generic --boundaries periodic --ebisu-strategies sm_tiling > $R/ncu_periodic.txt 2>&1
timeout 200 $NCU --kernel-name-base demangled --kernel-name "regex:ebisu2d_kernel<.*CentreField.*double, \\(int\\)10, \\(bool\\)[01], \\(bool\\)0, \\(int\\)1" --launch-skip 2 --launch-count 1 \
  --section SpeedOfLight --section InstructionStats --section WarpStateStats --section Occupancy --section LaunchStats \
  ./ebisu_bench --stencils none --field-cases j2d5pt-source --size2d 8352 --steps 20 --reps 5 --no-spmv --plain-variants mdrange-tile-32x4 --ebisu-variants automatic > $R/ncu_source10.txt 2>&1
timeout 200 $NCU --kernel-name-base demangled --kernel-name "regex:ebisu2d_kernel<.*double, \\(int\\)10, \\(bool\\)[01], \\(bool\\)0, \\(int\\)0" --launch-skip 2 --launch-count 1 \
  --section SpeedOfLight --section InstructionStats --section WarpStateStats --section Occupancy --section LaunchStats \
  $B --ebisu-variants generic --ebisu-depths 10 > $R/ncu_fixed10.txt 2>&1
grep -E "Duration|Executed Ipc A|Executed Instructions  |Registers Per|Achieved Occupancy|Block Limit" $R/ncu_*.txt | head -60
finish
