#!/usr/bin/env bash
# Session 20 call 1: the GPU tests of the branch
# session20-occ4 (TiledOptions.Occupancy; factor_rows in the float panel kernels) and `batchlas kernels`.
# Carry: build/gpu3.txz (blocked.test, root.test, batchlas, batchlas-main built here), build/kc3.txz.
set -u
R=$PWD
tar xJf build/gpu3.txz -C build && B=$R/build/gpu3
mkdir -p build/kcache && tar xJf build/kc3.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
stage() { echo "=== $1 $(date +%T)"; }
stage tests
(cd internal/gpu/cholblocked && timeout 330 $B/blocked.test -test.run 'TestKernelResources|TestPotrfTiled|TestAccuracyTiled|TestConformanceTiled|TestDivMagic' -test.v > $OUT/tiled.log 2>&1; echo "tiled rc $?" >> $OUT/rc.txt) &
(cd internal/gpu/cholblocked && timeout 330 $B/blocked.test -test.run 'TestPotrf$|TestConformance$' -test.v > $OUT/potrf.log 2>&1; echo "potrf rc $?" >> $OUT/rc.txt) &
(timeout 330 $B/root.test -test.run 'TestPotrfTensorFailures|TestConformanceCUDA|TestRouteGPUCandidates' -test.v > $OUT/root.log 2>&1; echo "root rc $?" >> $OUT/rc.txt
 timeout 120 $B/root.test -test.run 'TestPotrfTensorFailures' -potrf.twin=native:tiled:occ=4:prec=tf32x3 -test.v > $OUT/root-twin4.log 2>&1; echo "twin4 rc $?" >> $OUT/rc.txt) &
wait
(timeout 200 $B/batchlas kernels > $OUT/kernels.txt 2> $OUT/kernels.err; echo "kernels rc $?" >> $OUT/rc.txt)
cat $OUT/rc.txt
for f in tiled potrf root root-twin4; do echo "== $f"; grep -E '^(--- FAIL|FAIL|ok|PASS)|panic|    --- FAIL|local memory|blocks a multiprocessor' $OUT/$f.log | head -12; grep -c -- '--- PASS' $OUT/$f.log; done
grep -E 'chol_tiled<float' $OUT/kernels.txt | cut -c1-110
awk '$0 ~ /sm_90/ {for(i=1;i<=NF;i++) if($i=="sm_90"){ if($(i+2)!="0") print "LOCAL:", $0; break}}' $OUT/kernels.txt | head
tar cJf $OUT/kc4.txz -C build/kcache . ; stage done
