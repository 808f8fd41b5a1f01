#!/usr/bin/env bash
# Session 34 call 3: the tree as it is to be committed (build/gpu34: potrf.test, blocked.test, batchlas):
#  1. potrf: TestWarpKernelResources; TestPotrfWarpWide, TestPotrfWarp, TestPotrfWarpFailures, TestWarpConformance;
#  2. cholblocked: TestKernelResources, TestSplitStages, TestPrefixTasks; TestPotrfTiled float32 (exact and 3xTF32,
#     -test.short: n = 33, 97, 257, 641) with the deferred store's count_in in place of the named barrier;
#  3. racecheck on TestPotrfTiled float32 exact and 3xTF32, both triangles, n = 97 (call 1 and 2's hazards);
#  4. TestPotrfWarpTiming (the wide tile against the tile at every float32 bucket);
#  5. the cholesky-gpumode suite, three arms, with the committed tables;
#  6. batchlas tune --resume on the float32 Upper rows n = 48, 56, 64 (removed from session 33's journal,
#     build/t34/potrf.sm_90.journal), for the time that is left.
set -u
R=$PWD; L=/tmp/s34/logs3; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
for c in kcache kc31c kc32c kc33a kc34b; do tar xJf build/$c.txz -C build/kcache 2>/dev/null; done
touch /tmp/s34/start3; B=$R/build/gpu34; CS=/usr/local/cuda/bin/compute-sanitizer
pack() { cp build/t34/* $L/ 2>/dev/null; tar cJf $OUT/s34c3.tar.xz -C /tmp/s34 logs3; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
cd internal/gpu/potrf
step potrf; run potrf 90 $B/potrf.test -test.v -test.run 'TestWarpKernelResources|TestPotrfWarpWide|TestPotrfWarp$|TestPotrfWarpFailures|TestWarpConformance'
cd $R/internal/gpu/cholblocked
step blocked; run blocked 60 $B/blocked.test -test.v -test.run 'TestKernelResources|TestPrefixTasks|TestSplitStages'
step tiled; run tiled 60 $B/blocked.test -test.v -test.short -test.run 'TestPotrfTiled/^float32$/^(3xTF32|Lower|Upper)$/^(Lower|Upper|n=[0-9]+)$'
for u in Upper Lower; do
  for p in '^float32$/^3xTF32$' '^float32$'; do
    tag=$(echo "$u$p" | tr -dc 'A-Za-z0-9')
    step race-$tag; run race-$tag 45 $CS --tool racecheck --error-exitcode 9 $B/blocked.test -test.short -test.v \
      -test.run "TestPotrfTiled/$p/^$u\$/^n=97\$"
  done
done
cd $R/internal/gpu/potrf
step timing; run timing 80 $B/potrf.test -test.v -test.run 'TestPotrfWarpTiming'
cd $R
step suite; run suite 170 $B/batchlas bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
left=$((560 - SECONDS))
if [ $left -gt 40 ]; then
  step tune; run tune $left $B/batchlas tune potrf --device cuda:0 --resume --dtype float32,float64 \
    --n 8,16,32,48,56,64,96,128,256,512,1024,2048,4096,8192 --batch 1,2,4,8,16,64,256,1024,4096,16384,65536 --uplo L,U \
    --max-mib 256 --inputs gpumode --out build/t34 --time 20ms --count 3
fi
step done; pack
cat $L/stages.txt; grep -H "^rc " $L/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic" $L/potrf.log $L/blocked.log $L/tiled.log | head -20
grep -hE " [1-9][0-9]* B local" $L/potrf.log $L/blocked.log | head; grep -cE "^        --- PASS: TestPotrfTiled" $L/tiled.log
grep -hE "potrf_warp<float, [0-9]+, true" $L/potrf.log | cut -c1-140
for f in $L/race-*.log; do echo "## $f"; grep -h "SUMMARY\|^--- \|^ok\|^PASS\|^FAIL" $f | tail -4; done
grep -h "n=" $L/timing.log | grep Upper | cut -c1-260
grep -E "^\| (potrf|geomean)" $L/suite.log; tail -3 $L/tune.log
