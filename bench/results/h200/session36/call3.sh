#!/usr/bin/env bash
# Session 36 call 3: potrf_warp as committed in 803329b/13f95ce (warp.cu unchanged since), which ran on the device
# only in parts in session 35 (equivalence of SASS), now as a whole (build/gpu36/potrf.test from HEAD):
#  1. TestWarpKernelResources (every warp kernel compiled anew: 0 B local memory, registers logged);
#  2. TestPotrfWarpWide, TestPotrfWarp, TestPotrfWarpFailures, TestWarpConformance;
#  3. racecheck on TestPotrfWarpFailures float32 Upper (the zero-filled tile), memcheck on TestPotrfWarpWide float32.
set -u
R=$PWD; L=/tmp/s36/logs3; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kc36a.txz -C build/kcache; B=$R/build/gpu36; CS=/usr/local/cuda/bin/compute-sanitizer
pack() { tar cJf $OUT/s36c3.tar.xz -C /tmp/s36 logs3; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
cd internal/gpu/potrf
step resources; run resources 330 $B/potrf.test -test.v -test.run 'TestWarpKernelResources'
step tests; run tests 110 $B/potrf.test -test.v -test.run 'TestPotrfWarpWide|TestPotrfWarp$|TestPotrfWarpFailures|TestWarpConformance'
step race; run race 50 $CS --tool racecheck --error-exitcode 9 $B/potrf.test -test.short -test.v -test.run 'TestPotrfWarpFailures/float32/Upper'
step memcheck; run memcheck 50 $CS --tool memcheck --error-exitcode 9 $B/potrf.test -test.short -test.v -test.run 'TestPotrfWarpWide/float32'
step done; pack
cat $L/stages.txt; grep -H "^rc " $L/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic" $L/resources.log $L/tests.log | head -20
grep -hcE "B local" $L/resources.log; grep -hE " [1-9][0-9]* B local" $L/resources.log | head
grep -hE "potrf_warp<float, (33|40|56|64), true" $L/resources.log | cut -c1-160
for f in $L/race.log $L/memcheck.log; do echo "## $f"; grep -h "SUMMARY\|^--- \|^ok\|^PASS\|^FAIL" $f | tail -4; done
