#!/usr/bin/env bash
# Session 35 call 2: the tree as it is to be committed (build/gpu35: potrf.test, batchlas; wide_fill's loop rolled at
# every NC, the wide tile static and taken at every float32 bucket):
#  1. potrf: TestWarpKernelResources (every warp kernel compiled anew); TestPotrfWarpWide, TestPotrfWarp,
#     TestPotrfWarpFailures, TestWarpConformance;
#  2. TestPotrfWarpTiming (the wide tile against the tile at every float32 bucket);
#  3. memcheck and racecheck on TestPotrfWarpWide;
#  4. batchlas tune posv float32 n = 64, 1, 4, 16 right-hand sides, 16,384 and 65,536 systems (the 5× margin);
#  5. lab/wide.py again (n = 37 now with aligned columns);
#  6. the cholesky-gpumode suite, three arms, for the time that is left.
set -u
R=$PWD; L=/tmp/s35/logs2; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
for c in kcache kc31c kc32c kc33a kc34b; do tar xJf build/$c.txz -C build/kcache 2>/dev/null; done
touch /tmp/s35/start2; B=$R/build/gpu35; CS=/usr/local/cuda/bin/compute-sanitizer
pack() { cp build/t35/* $L/ 2>/dev/null; tar cJf $OUT/s35c2.tar.xz -C /tmp/s35 logs2; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
cd internal/gpu/potrf
step resources; run resources 200 $B/potrf.test -test.v -test.run 'TestWarpKernelResources'
step tests; run tests 90 $B/potrf.test -test.v -test.run 'TestPotrfWarpWide|TestPotrfWarp$|TestPotrfWarpFailures|TestWarpConformance'
step timing; run timing 75 $B/potrf.test -test.v -test.run 'TestPotrfWarpTiming'
step memcheck-wide; run memcheck-wide 40 $CS --tool memcheck --error-exitcode 9 $B/potrf.test -test.short -test.v -test.run 'TestPotrfWarpWide/float32'
step race-wide; run race-wide 40 $CS --tool racecheck --error-exitcode 9 $B/potrf.test -test.short -test.v -test.run 'TestPotrfWarpWide/float32'
cd $R
step posv; run posv 60 $B/batchlas tune posv --device cuda:0 --dtype float32 --n 64 --nrhs 1,4,16 --batch 16384,65536 \
  --max-mib 2048 --out build/t35 --time 20ms --count 3
step lab; run lab 100 python3 bench/results/h200/session35/lab/wide.py
left=$((570 - SECONDS)); [ $left -gt 150 ] && { step suite; run suite $left $B/batchlas bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto; }
step done; pack
(cd build/kcache && find . -type f -newer /tmp/s35/start2 | tar cJf $OUT/kc35b.txz -T -)
cat $L/stages.txt; grep -H "^rc " $L/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic" $L/resources.log $L/tests.log | head -20
grep -hE " [1-9][0-9]* B local" $L/resources.log | head; grep -hE "potrf_warp<float, [0-9]+, true, true>" $L/resources.log | cut -c1-150
grep -h "n=" $L/timing.log | grep Upper | cut -c1-260
for f in $L/race-*.log $L/memcheck-*.log; do echo "## $f"; grep -h "SUMMARY\|^--- \|^ok\|^PASS\|^FAIL" $f | tail -4; done
grep -E "^(L|U) " $L/posv.float32.sm_90.txt; grep "^time\|^check" $L/lab.log
grep -E "^\| (potrf|geomean)" $L/suite.log
