#!/usr/bin/env bash
# Session 18 call 2: chol_tiled variants timed (head, shift, new), stamps of new, then tests of new.
set -u
R=$PWD; B=$R/build/gpu1
mkdir -p build/kcache && tar xJf build/kc1.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
stage() { echo "=== $1 $(date +%T)"; }
stage tiled; timeout 240 python3 build/lab/tiled2.py > $OUT/tiled.log 2>&1; echo rc $?; cut -c1-400 $OUT/tiled.log
stage prof; CASES=2048x2x1,4096x1x1 timeout 90 python3 build/lab/tiledprof.py > $OUT/prof.log 2>&1; echo rc $?; grep -E '^(==|variant)|steps:' $OUT/prof.log
stage tests
(cd internal/gpu/cholblocked && timeout 300 $B/blocked.test -test.run 'TestKernelResources|TestPotrf$|TestPotrfTiled|TestAccuracyTiled|TestConformance' -test.v > $OUT/blocked.log 2>&1; echo "blocked rc $?" >> $OUT/rc.txt) &
(timeout 300 $B/root.test -test.run 'TestPotrfTensorFailures|TestConformanceCUDA|TestRouteGPUCandidates' -test.v -potrf.lowrank 4096,8192 > $OUT/root.log 2>&1; echo "root rc $?" >> $OUT/rc.txt) &
wait
cat $OUT/rc.txt
for f in blocked root; do echo "== $f"; grep -E '^(--- FAIL|FAIL|ok|PASS)|panic|    --- FAIL' $OUT/$f.log | head -20; grep -c -- '--- PASS' $OUT/$f.log; done
grep -E 'chol_tiled<' $OUT/blocked.log | cut -c1-140
stage done
