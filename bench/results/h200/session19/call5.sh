#!/usr/bin/env bash
# Session 19 call 5: cp.async copies in the split loop (cp), with EARLY for Upper too, 3 blocks an SM (var5.py); opcode mix under ncu.
set -u
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
stage() { echo "=== $1 $(date +%T)"; }
stage var5; timeout 300 python3 build/lab19/var5.py 2>&1 | tee $OUT/var5.log | cut -c1-600
stage ncu
NCU=/usr/local/cuda/bin/ncu
CASE=L,1,2048,8 timeout 120 $NCU --launch-skip 1 --launch-count 1 -k regex:chol_tiled --section WarpStateStats --section SourceCounters --section InstructionStats --section SpeedOfLight --import-source no -f -o $R/build/r5 python3 build/lab19/prof.py > $R/build/ncu5.log 2>&1; echo "ncu rc $?"
$NCU --import $R/build/r5.ncu-rep --page details 2>&1 | grep -E "Duration|Executed Instructions  |Issue Slots|Warp Cycles Per Issued" 
$NCU --import $R/build/r5.ncu-rep --page source --csv --print-source sass > $R/build/s5.csv 2>/dev/null
python3 build/lab19/stalls.py $R/build/s5.csv 2>&1 | tee $OUT/stalls5.txt
xz -c $R/build/s5.csv > $OUT/s5.csv.xz
stage done
