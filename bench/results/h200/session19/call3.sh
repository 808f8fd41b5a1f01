#!/usr/bin/env bash
# Session 19 call 3: TileRow (the split loop's fetch by pointer steps) against main, with 3 blocks an SM and the negation fold (var3.py); opcode mix of it under ncu.
set -u
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
stage() { echo "=== $1 $(date +%T)"; }
stage var3; timeout 300 python3 build/lab19/var3.py 2>&1 | tee $OUT/var3.log | cut -c1-600
stage ncu
NCU=/usr/local/cuda/bin/ncu
CASE=L,1,2048,8 timeout 120 $NCU --launch-skip 1 --launch-count 1 -k regex:chol_tiled --section WarpStateStats --section SourceCounters --section InstructionStats --section SpeedOfLight --import-source no -f -o $R/build/r3 python3 build/lab19/prof.py > $R/build/ncu3.log 2>&1; echo "ncu rc $?"
$NCU --import $R/build/r3.ncu-rep --page details 2>&1 | grep -E "Duration|Executed Instructions  |Issue Slots|Warp Cycles Per Issued" 
$NCU --import $R/build/r3.ncu-rep --page source --csv --print-source sass > $R/build/s3.csv 2>/dev/null
python3 build/lab19/stalls.py $R/build/s3.csv 2>&1 | tee $OUT/stalls3.txt
xz -c $R/build/s3.csv > $OUT/s3.csv.xz
stage done
