#!/usr/bin/env bash
# Session 29 call 5: the final code (float64 Upper solves stop at 48, where call 4 found 8 B of local memory in
# posv_warp Upper at NC = 52 and 56): TestWarpKernelResources and TestPosv float64 again; then Posv float64 against
# the vendor's composition (posv's TestPosvTiming, 65,536 systems, n = 48 both triangles, n = 64 Lower as the control
# that did not change); racecheck and memcheck on the float64 warp
# failures; then the tables: potrf's float64 rows n = 48 (removed from the journal, build/t29; --resume), posv and
# potrs float64 n = 48 (merged into tuned/ by hand, as session 25 did). Kernel cache from call 4 (build/kcache.txz).
set -u
R=$PWD; L=/tmp/c5/logs; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
[ -f build/kcache.txz ] && tar xJf build/kcache.txz -C build/kcache 2>/dev/null
B=$R/build/gpu29b; CS=/usr/local/cuda/bin/compute-sanitizer
pack() { cp build/t29/* $L/ 2>/dev/null; tar cJf $OUT/c5.tar.xz -C /tmp/c5 logs; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
# Small-batch latency of the register tier (the re-tune's float32 rows n = 8, 16 at 1…1,024 matrices came out about
# 2.5 µs slower than session 14's points, n = 32 not): main before session 28 (old, 91ea67c) against this build,
# alternated, one matrix, GPU MODE's inputs.
step latency
for n in 8 16 32; do for bin in old new old new; do
  b=$B/batchlas; [ $bin = old ] && b=$B/old/batchlas
  echo "== $bin n=$n" >> $L/latency.log
  timeout 20 $b bench potrf -dtype float32 -n $n -batch 1 -inputs gpumode -uplo L -arms native:tiny,vendor -time 100ms -count 5 >> $L/latency.log 2>&1
done; done
cd $R/internal/gpu/potrf
step resources; timeout 45 $B/potrf.test -test.run 'TestWarpKernelResources|TestWarpArguments' -test.v > $L/resources.log 2>&1; echo "rc $?" >> $L/resources.log
cd $R/internal/gpu/posv
step posv; timeout 60 $B/posv.test -test.run 'TestPosv$/float64' -test.v > $L/posv.log 2>&1; echo "rc $?" >> $L/posv.log
step posv-timing; timeout 90 $B/posv.test -test.run 'TestPosvTiming/float64/(n=48|n=64|Upper/n=48)$' -test.v > $L/posv-timing.log 2>&1; echo "rc $?" >> $L/posv-timing.log
cd $R/internal/gpu/potrf
for tool in racecheck memcheck; do
  step $tool; timeout 35 $CS --tool $tool --error-exitcode 9 $B/potrf.test -test.run 'TestPotrfWarpFailures/float64/(Lower|Upper)/n=56$' -test.v > $L/$tool.log 2>&1; echo "rc $?" >> $L/$tool.log
done
cd $R
step tune-potrf; timeout 140 $B/batchlas tune potrf --device cuda:0 --resume --dtype float32,float64 --n 8,16,32,48,64,96,128,256,512,1024,2048,4096,8192 --batch 1,2,4,8,16,64,256,1024,4096,16384,65536 --uplo L,U --max-mib 256 --inputs gpumode --out build/t29 --time 20ms --count 3 > $L/tune-potrf.log 2>&1; echo "rc $?" >> $L/tune-potrf.log
step tune-posv; timeout 60 $B/batchlas tune posv --device cuda --dtype float64 --n 48 --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 1024 --out $L/tuned --time 20ms --count 3 > $L/tune-posv.log 2>&1; echo "rc $?" >> $L/tune-posv.log
step tune-potrs; timeout 60 $B/batchlas tune potrs --device cuda --dtype float64 --n 48 --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 1024 --out $L/tuned --time 20ms --count 3 > $L/tune-potrs.log 2>&1; echo "rc $?" >> $L/tune-potrs.log
step done; pack
grep -E "^(--- FAIL|ok|FAIL|PASS|rc )" $L/*.log | head -30
grep -h -E "native|vendor" $L/posv-timing.log | head -20
grep -hE "local [1-9]" $L/resources.log
grep -h "SUMMARY" $L/racecheck.log $L/memcheck.log
tail -3 $L/tune-*.log; grep -E '^==|^Benchmark' $L/latency.log | awk '{print $1, $2, $3, $4}'; cat $L/stages.txt
