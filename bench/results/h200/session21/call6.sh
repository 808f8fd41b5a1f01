#!/usr/bin/env bash
# Session 21 call 6 (main + the tiled panels of 512 columns from n = 16384, routed there without look-ahead): the
# suite's n = 16384 and 32768 cases against the best vendor arm, then stages.py (main's split loop with 3…6 buffers).
set -u
R=$PWD; tar xJf build/gpu6.txz -C build; mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
timeout 200 build/gpu6/batchlas bench -suite cholesky-gpumode -cases 'n=(16384|32768)/' -arms vendor:transposed,auto > $OUT/suite.log 2>&1; echo "suite rc $?"; tail -6 $OUT/suite.log
BLOCKED=$R/build/lab21/blocked-main.cu CUBINS=$R/build JOBS=8 REPS=3 timeout 200 python3 bench/results/h200/session21/stages.py > $OUT/stages.log 2>&1; echo "stages rc $?"; grep -v "regs" $OUT/stages.log | cut -c1-900
