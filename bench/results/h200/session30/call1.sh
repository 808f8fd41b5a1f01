#!/usr/bin/env bash
# Session 30 call 1: potrs_warp for float64 up to n = 64 in both triangles, with an info argument that skips failed
# matrices, and Posv through potrf_warp or potrf_cta and then potrs_warp where posv_warp would spill (float64 Upper
# 49…64, Lower 57…64). Binaries build/gpu30 (built here from the working tree; noskip/posv.test the same with
# factorThenSolve passing no info, the guard). The warp module changed, so its kernels compile again.
#  1. TestWarpKernelResources and TestWarpArguments (every warp kernel, 0 B of local memory);
#  2. TestPosv and posv's TestConformance, float32 and float64 (Posv's factor against Potrf's, its X against Potrs's,
#     failed matrices' B untouched);
#  3. the guard: TestPosv float64 Upper n = 49 and Lower n = 57 with noskip/posv.test must fail;
#  4. TestPosvTiming float64 (Posv against the vendor's composition, 65,536 systems);
#  5. racecheck and memcheck on TestPosv float64 Upper n = 49 and Lower n = 57 (both ways of the two launches);
#  6. the posv and potrs float64 rows n = 64 (batchlas tune, into logs/tuned, merged by hand);
#  7. lab/lab.py (potrs_warp<double> against potrs_cta, half-warp chunks for posv_warp<double, 48>).
set -u
R=$PWD; L=/tmp/s30/logs; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache 2>/dev/null
B=$R/build/gpu30; CS=/usr/local/cuda/bin/compute-sanitizer
pack() { tar cJf $OUT/s30c1.tar.xz -C /tmp/s30 logs; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
cd $R/internal/gpu/potrf
step resources; run resources 260 $B/potrf.test -test.run 'TestWarpKernelResources|TestWarpArguments' -test.v
cd $R/internal/gpu/posv
step posv; run posv 150 $B/posv.test -test.run 'TestPosv$/(float32|float64)|TestConformance/(float32|float64)' -test.v
step guard; run guard 60 $B/noskip/posv.test -test.run 'TestPosv$/float64/(Upper|Lower)/n=(49|57)$' -test.v
step timing; run timing 100 $B/posv.test -test.run 'TestPosvTiming/float64/' -test.v
for tool in racecheck memcheck; do
  step $tool; run $tool 70 $CS --tool $tool --error-exitcode 9 $B/posv.test -test.run 'TestPosv$/float64/(Upper/n=49|Lower/n=57)$' -test.v
done
cd $R
step tune-solves
for op in posv potrs; do
  run tune-$op 60 $B/batchlas tune $op --device cuda --dtype float64 --n 64 --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 1024 --out $L/tuned --time 20ms --count 3
done
step lab; run lab 150 python3 bench/results/h200/session30/lab/lab.py
step done; pack
tar cJf $OUT/kcache.txz -C build/kcache . 2>/dev/null
cat $L/stages.txt; grep -H "^rc " $L/*.log; grep -hE "^(--- FAIL|FAIL)" $L/*.log | head -20
grep -hE " [1-9][0-9]* B local" $L/resources.log | head; grep -hE "potrs_warp<double, (60|64)" $L/resources.log | cut -c1-130
grep -hE "B of a failing|FAIL" $L/guard.log | head -5; grep -h "vendor/native" $L/timing.log
grep -h "SUMMARY" $L/racecheck.log $L/memcheck.log; grep -hE "^L  64" $L/tuned/*.txt; cat $L/lab.log
