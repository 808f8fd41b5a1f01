#!/usr/bin/env bash
# Session 29 call 4: the warp tier for float64 (n ≤ 56). Its kernel resources (0 B of local memory, every bucket of
# both types), its tests (every order both triangles, failures, conformance), TestPosv float64 (Posv through
# posv_warp, its factor bit-identical to PotrfWarp's, Potrs through potrs_warp), the guard shown failing (the same
# tests built with float64's ceiling at 60: TestWarpKernelResources must report local memory), and the timing against
# the CTA tier and cuSOLVER. Binaries: build/gpu29b/{potrf,posv}.test and g60/potrf.test, built here.
set -u
R=$PWD; L=/tmp/c4/logs; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu29b
pack() { tar cJf $OUT/c4.tar.xz -C /tmp/c4 logs; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
cd $R/internal/gpu/potrf
step resources; timeout 220 $B/potrf.test -test.run 'TestWarpKernelResources|TestWarpArguments' -test.v > $L/resources.log 2>&1; echo "rc $?" >> $L/resources.log
step tests; timeout 100 $B/potrf.test -test.run 'TestPotrfWarp$|TestPotrfWarpFailures|TestWarpConformance' -test.v > $L/tests.log 2>&1; echo "rc $?" >> $L/tests.log
step guard60; timeout 70 $B/g60/potrf.test -test.run 'TestWarpKernelResources' -test.v > $L/guard60.log 2>&1; echo "rc $?" >> $L/guard60.log
step timing; timeout 60 $B/potrf.test -test.run 'TestPotrfWarpTiming' -test.v > $L/timing.log 2>&1; echo "rc $?" >> $L/timing.log
cd $R/internal/gpu/posv
step posv; timeout 110 $B/posv.test -test.run 'TestPosv$/float64' -test.v > $L/posv.log 2>&1; echo "rc $?" >> $L/posv.log
step done; pack
tar cJf $OUT/kcache.txz -C $R/build/kcache . 2>/dev/null
grep -E "^(--- FAIL|ok|FAIL|PASS|rc )" $L/*.log | head -40
grep -hE "double|local [1-9]" $L/resources.log | head -60
grep -hE "local [1-9]|FAIL" $L/guard60.log | head
grep -h "copy" $L/timing.log
cat $L/stages.txt
