#!/usr/bin/env bash
# Session 19 call 4: TileRow with one pointer and row count a row (rows2), 32-bit steps (i32), 3 blocks an SM (var4.py); opcode mix under ncu.
set -u
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
stage() { echo "=== $1 $(date +%T)"; }
stage var4; timeout 300 python3 build/lab19/var4.py 2>&1 | tee $OUT/var4.log | cut -c1-600
stage ncu
NCU=/usr/local/cuda/bin/ncu
CASE=L,1,2048,8 timeout 120 $NCU --launch-skip 1 --launch-count 1 -k regex:chol_tiled --section WarpStateStats --section SourceCounters --section InstructionStats --section SpeedOfLight --import-source no -f -o $R/build/r4 python3 build/lab19/prof.py > $R/build/ncu4.log 2>&1; echo "ncu rc $?"
$NCU --import $R/build/r4.ncu-rep --page details 2>&1 | grep -E "Duration|Executed Instructions  |Issue Slots|Warp Cycles Per Issued" 
$NCU --import $R/build/r4.ncu-rep --page source --csv --print-source sass > $R/build/s4.csv 2>/dev/null
python3 build/lab19/stalls.py $R/build/s4.csv 2>&1 | tee $OUT/stalls4.txt
xz -c $R/build/s4.csv > $OUT/s4.csv.xz
stage done
