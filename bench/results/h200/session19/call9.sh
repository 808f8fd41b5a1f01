#!/usr/bin/env bash
# Session 19 call 9: the GPU tests of the working tree (call 6's code with the ticket divided by the host's magic number) and the kernel listing.
set -u
R=$PWD; B=$R/build/gpu2
mkdir -p build/kcache && tar xJf build/kc3.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
(cd internal/gpu/cholblocked && timeout 250 $B/blocked.test -test.run 'TestKernelResources|TestPotrfTiled|TestAccuracyTiled|TestConformance|TestDivMagic' -test.v > $OUT/tiled.log 2>&1; echo "tiled rc $?" >> $OUT/rc.txt) &
(cd internal/gpu/cholblocked && timeout 250 $B/blocked.test -test.run 'TestPotrf$' -test.v > $OUT/potrf.log 2>&1; echo "potrf rc $?" >> $OUT/rc.txt) &
(timeout 250 $B/root.test -test.run 'TestPotrfTensorFailures|TestConformanceCUDA|TestRouteGPUCandidates' -test.v > $OUT/root.log 2>&1; echo "root rc $?" >> $OUT/rc.txt) &
(timeout 250 $B/batchlas kernels > $OUT/kernels.txt 2> $OUT/kernels.err; echo "kernels rc $?" >> $OUT/rc.txt) &
wait
cat $OUT/rc.txt
for f in tiled potrf root; do echo "== $f"; grep -E '^(--- FAIL|FAIL|ok|PASS)|panic|    --- FAIL|local memory' $OUT/$f.log | head -12; grep -c -- '--- PASS' $OUT/$f.log; done
grep -E 'chol_tiled<float' $OUT/kernels.txt | cut -c1-110
awk 'NR>2 && $0 ~ /sm_90/ {print}' $OUT/kernels.txt | awk '{for(i=1;i<=NF;i++) if($i=="sm_90"){ if($(i+2)!="0") print "LOCAL:", $0; break}}' | head
