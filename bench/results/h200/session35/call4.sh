#!/usr/bin/env bash
# Session 35 call 4 (build/gpu35/potrf.test of the working tree: potrf_warp's Upper tile zero-filled past the diagonal,
# rows read back with nothing to select, the fill's loop rolled):
#  1. lab/tile.py (H, Z, Zu: registers, bits against 026ee96's kernels, time at 65,536 matrices, float and double);
#  2. potrf: TestPotrfWarpWide, TestPotrfWarp, TestPotrfWarpFailures, TestWarpConformance (every warp kernel of
#     potrf_warp compiled anew);
#  3. TestWarpKernelResources (posv_warp and potrs_warp compiled anew too);
#  4. racecheck on TestPotrfWarpFailures float32 (the tile's fill), then TestPotrfWarpTiming, for the time left.
set -u
R=$PWD; L=/tmp/s35/logs4; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu35; CS=/usr/local/cuda/bin/compute-sanitizer
pack() { tar cJf $OUT/s35c4.tar.xz -C /tmp/s35 logs4; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step lab; run lab 160 python3 bench/results/h200/session35/lab/tile.py
cd internal/gpu/potrf
step tests; run tests 120 $B/potrf.test -test.v -test.run 'TestPotrfWarpWide|TestPotrfWarp$|TestPotrfWarpFailures|TestWarpConformance'
left=$((440 - SECONDS)); [ $left -gt 20 ] && { step resources; run resources $left $B/potrf.test -test.v -test.run 'TestWarpKernelResources'; }
left=$((470 - SECONDS)); [ $left -gt 20 ] && { step race-fail; run race-fail $left $CS --tool racecheck --error-exitcode 9 $B/potrf.test -test.v -test.run 'TestPotrfWarpFailures/float32/Upper'; }
left=$((490 - SECONDS)); [ $left -gt 15 ] && { step timing; run timing $left $B/potrf.test -test.v -test.run 'TestPotrfWarpTiming'; }
cd $R
step done; pack
cat $L/stages.txt; grep -H "^rc " $L/*.log
grep -v "^ *$" $L/lab.log | grep -v "equal, Zu equal" | head -60; grep -c "Z equal, Zu equal" $L/lab.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic" $L/tests.log $L/resources.log | head -20
grep -hE " [1-9][0-9]* B local" $L/resources.log | head; grep -c registers $L/resources.log
grep -hE "potrf_warp<(float|double), [0-9]+, true, false>" $L/resources.log | cut -c1-150
grep -h "SUMMARY\|^--- \|^ok\|^PASS\|^FAIL" $L/race-fail.log | tail -4
grep -h "n=" $L/timing.log | grep Upper | cut -c1-260
