#!/usr/bin/env bash
# Session 35 call 1 (build/gpu35: potrf.test of the working tree: potrf_warp's wide tile in static shared memory,
# wide_fill's loop rolled at NC = 40 only, the wide tile at every float32 bucket; broken-potrf.test: the same with
# wide_drain storing whole chunks across the diagonal, the guard TestPotrfWarpWide should catch):
#  1. potrf: TestWarpKernelResources (every warp kernel compiled anew: warp.cu changed);
#     TestPotrfWarpWide, TestPotrfWarp, TestPotrfWarpFailures, TestWarpConformance;
#  2. lab/wide.py (C, R, U: registers, bits against the tile's, time at 65,536 matrices);
#  3. broken-potrf.test: TestPotrfWarpWide (must fail);
#  4. TestPotrfWarpTiming (float32 first; its float64 part as far as the limit lets it).
set -u
R=$PWD; L=/tmp/s35/logs1; mkdir -p $L /tmp/s35 build/kcache; export XDG_CACHE_HOME=$R/build/kcache
for c in kcache kc31c kc32c kc33a kc34b; do tar xJf build/$c.txz -C build/kcache 2>/dev/null; done
touch /tmp/s35/start1; B=$R/build/gpu35
pack() { tar cJf $OUT/s35c1.tar.xz -C /tmp/s35 logs1; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
cd internal/gpu/potrf
step resources; run resources 200 $B/potrf.test -test.v -test.run 'TestWarpKernelResources'
step tests; run tests 90 $B/potrf.test -test.v -test.run 'TestPotrfWarpWide|TestPotrfWarp$|TestPotrfWarpFailures|TestWarpConformance'
cd $R
step lab; run lab 150 python3 bench/results/h200/session35/lab/wide.py
cd internal/gpu/potrf
step broken; run broken 100 $B/broken-potrf.test -test.v -test.run 'TestPotrfWarpWide'
left=$((575 - SECONDS)); [ $left -gt 30 ] && { step timing; run timing $left $B/potrf.test -test.v -test.run 'TestPotrfWarpTiming'; }
cd $R
step done; pack
(cd build/kcache && find . -type f -newer /tmp/s35/start1 | tar cJf $OUT/kc35a.txz -T -)
cat $L/stages.txt; grep -H "^rc " $L/*.log; grep -v "^ *$" $L/lab.log | head -60
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic" $L/resources.log $L/tests.log | head -20
grep -hE " [1-9][0-9]* B local" $L/resources.log | head; grep -hE "potrf_warp<float, [0-9]+, true, true>" $L/resources.log
grep -E "FAIL|differ|info" $L/broken.log | head -12
grep -h "n=" $L/timing.log | head -30
