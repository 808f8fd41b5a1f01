#!/usr/bin/env bash
# Session 19 call 2: stall reasons and opcode mix of chol_tiled (Lower 3xTF32 n2048 b8, main at 01bbaeb); occupancy and negation variants (var2.py).
set -u
R=$PWD
mkdir -p build/kcache && tar xJf build/kc1.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
stage() { echo "=== $1 $(date +%T)"; }
stage var2; timeout 300 python3 build/lab19/var2.py 2>&1 | tee $OUT/var2.log | cut -c1-600
stage ncu
NCU=/usr/local/cuda/bin/ncu
CASE=L,1,2048,8 timeout 120 $NCU --launch-skip 1 --launch-count 1 -k regex:chol_tiled --section WarpStateStats --section SourceCounters --section InstructionStats --import-source no -f -o $R/build/r2 python3 build/lab19/prof.py > $R/build/ncu2.log 2>&1; echo "ncu rc $?"
$NCU --import $R/build/r2.ncu-rep --page source --csv --print-source sass > $R/build/s2.csv 2>/dev/null
python3 build/lab19/stalls.py $R/build/s2.csv 2>&1 | tee $OUT/stalls.txt
xz -c $R/build/s2.csv > $OUT/s2.csv.xz
stage done
