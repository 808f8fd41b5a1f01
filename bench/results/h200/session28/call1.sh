#!/usr/bin/env bash
# Session 28 call 1: the float pivots of potrf_reg and potrf_warp through rsqrt_fast, subnormal pivots finished
# by finish_in_memory. Registers (TestKernelResources, TestWarpKernelResources), the register, warp and CTA tiers'
# tests (subnormal pivots added: TestPotrfTinyPivots, the failure batches), TestPosv float32 (Posv's factor, rsqrt_,
# bit-identical to Potrf's), the copy-bandwidth timings (TestPotrfTiming: n = 8, 16, 32; TestPotrfWarpTiming:
# n = 33, 48, 64 against the CTA tier and cuSOLVER) of this change's binary and main's, alternated, and racecheck
# and memcheck on the warp failures (the cp.async Upper tile, finish_in_memory), the register tier's Upper tile and
# its tiny pivots (groups of a warp that finish in memory beside groups that do not).
# Binaries built here: build/gpu28/{potrf,posv}.test, build/gpu28/old/potrf.test (main, 91ea67c).
set -u
R=$PWD; L=/tmp/c1/logs; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu28; CS=/usr/local/cuda/bin/compute-sanitizer
pack() { tar cJf $OUT/c1.tar.xz -C /tmp/c1 logs; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
cd $R/internal/gpu/potrf
step resources; timeout 150 $B/potrf.test -test.run 'TestKernelResources|TestWarpKernelResources|TestWarpArguments' -test.v > $L/resources.log 2>&1; echo "rc $?" >> $L/resources.log
step tests; timeout 240 $B/potrf.test -test.run 'TestPotrf$|TestPotrfTinyPivots|TestConformance|TestPotrfWarp$|TestPotrfWarpFailures|TestWarpConformance|TestPotrfCTAFailures' -test.v > $L/tests.log 2>&1; echo "rc $?" >> $L/tests.log
timing() { step timing-$1-$2; timeout 80 $3 -test.run 'TestPotrfWarpTiming|TestPotrfTiming$' -test.v > $L/timing-$1-$2.log 2>&1; echo "rc $?" >> $L/timing-$1-$2.log; }
timing new 1 $B/potrf.test; timing old 1 $B/old/potrf.test
cd $R/internal/gpu/posv
step posv; timeout 60 $B/posv.test -test.run 'TestPosv$/float32' -test.v > $L/posv.log 2>&1; echo "rc $?" >> $L/posv.log
cd $R/internal/gpu/potrf
for tool in racecheck memcheck; do
  [ $SECONDS -lt 420 ] || break
  step $tool; timeout 120 $CS --tool $tool --error-exitcode 9 $B/potrf.test -test.run 'TestPotrfWarpFailures/(Lower|Upper)/n=(40|64)$|TestPotrf$/(float32|complex128)/Upper/n=(16|31)$|TestPotrfTinyPivots/(float32|complex128)/(Lower|Upper)/n=(5|32)$' > $L/$tool.log 2>&1; echo "rc $?" >> $L/$tool.log
done
[ $SECONDS -lt 480 ] && { timing new 2 $B/potrf.test; timing old 2 $B/old/potrf.test; }
step done; pack
grep -hE "potrf_warp<float, 64|potrf_reg(_min)?<float, 32, 32|potrf_reg<float, 16, 16, false" $L/resources.log | head -20
grep -E "^(--- FAIL|ok|FAIL|PASS|rc )" $L/*.log | head -40
grep -h "copy" $L/timing-*.log | head -60
tail -4 $L/racecheck.log $L/memcheck.log; cat $L/stages.txt
