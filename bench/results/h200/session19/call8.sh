#!/usr/bin/env bash
# Session 19 call 8: the GPU tests of the working tree (call 6 plus the 32-bit ticket division) and the kernel listing; the kernel cache comes back for call 9.
set -u
R=$PWD; B=$R/build/gpu2
mkdir -p build/kcache && tar xJf build/kc2.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
stage() { echo "=== $1 $(date +%T)"; }
stage tests
(cd internal/gpu/cholblocked && timeout 400 $B/blocked.test -test.run 'TestKernelResources|TestPotrf$|TestPotrfTiled|TestAccuracyTiled|TestConformance' -test.v > $OUT/blocked.log 2>&1; echo "blocked rc $?" >> $OUT/rc.txt) &
(timeout 400 $B/root.test -test.run 'TestPotrfTensorFailures|TestConformanceCUDA|TestRouteGPUCandidates' -test.v -potrf.lowrank 4096,8192 > $OUT/root.log 2>&1; echo "root rc $?" >> $OUT/rc.txt) &
(sleep 60; timeout 300 $B/batchlas kernels > $OUT/kernels.txt 2> $OUT/kernels.err; echo "kernels rc $?" >> $OUT/rc.txt) &
wait
cat $OUT/rc.txt
for f in blocked root; do echo "== $f"; grep -E '^(--- FAIL|FAIL|ok|PASS)|panic|    --- FAIL|local memory' $OUT/$f.log | head -20; grep -c -- '--- PASS' $OUT/$f.log; done
grep -E 'chol_tiled<float' $OUT/kernels.txt | cut -c1-120
grep -ciE 'local' $OUT/kernels.txt
tar cJf $OUT/kc3.txz -C build/kcache .
ls -la $OUT
stage done
