#!/usr/bin/env bash
# Session 21 call 5: chainprof.py (branch chain: stamps per chain step), then call2.sh's stages.py on main's blocked.cu
# (carried as build/lab21/blocked-main.cu: its loop with 3…6 cp.async buffers) and TestTiming at n = 16384 (main's binary, outer panels of 256 and 512).
set -u
R=$PWD; tar xJf build/gpu4.txz -C build; mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
CUBINS=$R/build CASES=Lx1024x4,Lx4096x1,Lx512x16,Ux2048x2 timeout 120 python3 bench/results/h200/session21/chainprof.py > $OUT/chainprof.log 2>&1; echo "chainprof rc $?"; cut -c1-300 $OUT/chainprof.log
BLOCKED=$R/build/lab21/blocked-main.cu CUBINS=$R/build JOBS=8 timeout 200 python3 bench/results/h200/session21/stages.py > $OUT/stages.log 2>&1; echo "stages rc $?"; cut -c1-700 $OUT/stages.log
cd internal/gpu/cholblocked
for p in 256 512; do
  timeout 90 $R/build/gpu4/blocked.test -test.run 'TestTiming$' -test.v -blocked.cases 16384x1 -blocked.lookahead -blocked.tiledpanels \
    -blocked.arms '3xTF32+lookahead,3xTF32+tiledpanels' -blocked.tiledmax 0 -blocked.panel $p > $OUT/timing-p$p.log 2>&1; echo "timing p$p rc $?"; grep -E "^\s+n16384" $OUT/timing-p$p.log | head -1
done
