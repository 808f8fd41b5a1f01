#!/usr/bin/env bash
# Session 34 call 1 (build/gpu34: potrf.test and blocked.test of the working tree: potrf_warp's wide tile for Upper on
# aligned columns; split_stages one constant):
#  1. lab/warp.py: potrf_warp Upper n = 64 variants (registers, bits against main's, time);
#  2. potrf: TestWarpKernelResources, TestPotrfWarpWide, TestPotrfWarp, TestPotrfWarpFailures, TestWarpConformance,
#     TestPotrfWarpTiming;
#  3. cholblocked: TestKernelResources, TestSplitStages, TestPrefixTasks;
#  4. racecheck on the one-block float kernels with the named barrier (TestPotrfTiled float32, exact and 3xTF32, both
#     triangles, n = 97) and on TestPotrfWarpWide's kernels, as time allows;
#  5. ncu on main's Upper and Lower kernel and the tree's (P), if ncu is there and time is left.
set -u
R=$PWD; L=/tmp/s34/logs1; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
touch /tmp/s34/start1; B=$R/build/gpu34; CS=/usr/local/cuda/bin/compute-sanitizer
pack() { tar cJf $OUT/s34c1.tar.xz -C /tmp/s34 logs1; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step lab; run lab 150 python3 bench/results/h200/session34/lab/warp.py
cd internal/gpu/potrf
step potrf; run potrf 150 $B/potrf.test -test.v -test.run 'TestWarpKernelResources|TestPotrfWarpWide|TestPotrfWarp$|TestPotrfWarpFailures|TestWarpConformance'
step timing; run timing 90 $B/potrf.test -test.v -test.run 'TestPotrfWarpTiming'
cd $R/internal/gpu/cholblocked
step resources; run resources 120 $B/blocked.test -test.run 'TestKernelResources|TestPrefixTasks|TestSplitStages' -test.v
for u in Upper Lower; do
  for p in '^float32$/^3xTF32$' '^float32$'; do
    [ $SECONDS -gt 480 ] && break
    tag=$(echo "$u$p" | tr -dc 'A-Za-z0-9')
    step race-$tag; run race-$tag 60 $CS --tool racecheck --error-exitcode 9 $B/blocked.test -test.short -test.v \
      -test.run "TestPotrfTiled/$p/^$u\$/^n=97\$"
  done
done
cd $R/internal/gpu/potrf
if [ $SECONDS -lt 500 ]; then
  step race-wide; run race-wide 50 $CS --tool racecheck --error-exitcode 9 $B/potrf.test -test.short -test.v -test.run 'TestPotrfWarpWide/float32'
fi
cd $R
if [ -x /usr/local/cuda/bin/ncu ] && [ $SECONDS -lt 520 ]; then
  step ncu; MODE=ncu TAGS="T P" run ncu 50 /usr/local/cuda/bin/ncu --kernel-name regex:potrf_warp --section SpeedOfLight \
    --section Occupancy --section LaunchStats --section WarpStateStats python3 bench/results/h200/session34/lab/warp.py
fi
step done; pack
(cd build/kcache && find . -type f -newer /tmp/s34/start1 | tar cJf $OUT/kc34a.txz -T -)
cat $L/stages.txt; grep -H "^rc " $L/*.log; grep -v "^ *$" $L/lab.log | head -60
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic" $L/potrf.log $L/resources.log | head -20
grep -hE " [1-9][0-9]* B local" $L/potrf.log $L/resources.log | head; grep -h "potrf_warp<float, 64\|potrf_warp<double, 56" $L/potrf.log | head -8
grep -h "n=" $L/timing.log | head -24
for f in $L/race-*.log; do echo "## $f"; grep -h "SUMMARY\|^--- \|^ok\|^PASS\|^FAIL" $f | tail -6; done
