#!/usr/bin/env bash
# Session 34 call 2 (build/gpu34: potrf.test of the working tree: the wide tile's rows zero-filled, read back with
# nothing to select; blocked.test as in call 1):
#  1. lab/warp.py (T, W, P, Pu, Pl, Pb: registers, bits against main's, time at n = 64);
#  2. potrf: TestWarpKernelResources; TestPotrfWarpWide, TestPotrfWarp, TestPotrfWarpFailures, TestWarpConformance;
#     TestPotrfWarpTiming;
#  3. racecheck with -lineinfo (BATCHLAS_NVRTC_LINEINFO) on TestPotrfTiled float32 exact Upper n = 97 (call 1's
#     hazards, now with source lines);
#  4. memcheck and racecheck on TestPotrfWarpWide float32.
set -u
R=$PWD; L=/tmp/s34/logs2; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kc34a.txz -C build/kcache 2>/dev/null
touch /tmp/s34/start2; B=$R/build/gpu34; CS=/usr/local/cuda/bin/compute-sanitizer
pack() { tar cJf $OUT/s34c2.tar.xz -C /tmp/s34 logs2; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step lab; run lab 120 python3 bench/results/h200/session34/lab/warp.py
cd internal/gpu/potrf
step resources; run resources 110 $B/potrf.test -test.v -test.run 'TestWarpKernelResources'
step tests; run tests 80 $B/potrf.test -test.v -test.run 'TestPotrfWarpWide|TestPotrfWarp$|TestPotrfWarpFailures|TestWarpConformance'
step timing; run timing 80 $B/potrf.test -test.v -test.run 'TestPotrfWarpTiming'
cd $R/internal/gpu/cholblocked
if [ $SECONDS -lt 450 ]; then
  step race-lines; BATCHLAS_NVRTC_LINEINFO=1 run race-lines 60 $CS --tool racecheck --error-exitcode 9 $B/blocked.test \
    -test.short -test.v -test.run 'TestPotrfTiled/^float32$/^Upper$/^n=97$'
fi
cd $R/internal/gpu/potrf
if [ $SECONDS -lt 520 ]; then
  step memcheck-wide; run memcheck-wide 35 $CS --tool memcheck --error-exitcode 9 $B/potrf.test -test.short -test.v -test.run 'TestPotrfWarpWide/float32'
fi
if [ $SECONDS -lt 555 ]; then
  step race-wide; run race-wide 35 $CS --tool racecheck --error-exitcode 9 $B/potrf.test -test.short -test.v -test.run 'TestPotrfWarpWide/float32'
fi
cd $R
step done; pack
(cd build/kcache && find . -type f -newer /tmp/s34/start2 | tar cJf $OUT/kc34b.txz -T -)
cat $L/stages.txt; grep -H "^rc " $L/*.log; grep -v "^ *$" $L/lab.log | head -40
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic" $L/resources.log $L/tests.log | head -20
grep -hE " [1-9][0-9]* B local" $L/resources.log | head; grep -hE "potrf_warp<(float|double), [0-9]+, true, true>" $L/resources.log
grep -h "n=" $L/timing.log | head -24
for f in $L/race-*.log $L/memcheck-*.log; do echo "## $f"; grep -h "SUMMARY\|^--- \|^ok\|^PASS\|^FAIL" $f | tail -4; done
