#!/usr/bin/env bash
# Session 21 call 2: stages.py (the split loop with 3…6 cp.async buffers, both occupancies, one process), then
# TestTiming (float32 Lower) at n = 16384, one matrix: the blocked driver with look-ahead against tiled panels,
# outer panels of 256 and of 512 columns.
set -u
R=$PWD; tar xJf build/gpu4.txz -C build; mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
CUBINS=$R/build JOBS=8 timeout 240 python3 bench/results/h200/session21/stages.py > $OUT/stages.log 2>&1; echo "stages rc $?"; cut -c1-600 $OUT/stages.log
cd internal/gpu/cholblocked
for p in 256 512; do
  timeout 100 $R/build/gpu4/blocked.test -test.run 'TestTiming$' -blocked.timing -blocked.cases 16384x1 -blocked.lookahead -blocked.tiledpanels \
    -blocked.arms '3xTF32+lookahead,3xTF32+tiledpanels' -blocked.tiledmax 0 -blocked.panel $p > $OUT/timing-p$p.log 2>&1; echo "timing p$p rc $?"; grep "n16384" $OUT/timing-p$p.log | head -2
done
