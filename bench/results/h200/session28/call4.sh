#!/usr/bin/env bash
# Session 28 call 4: the landed build (lab variant T: finish_in_memory a call, the matrix found again from the
# indices). The register, warp and CTA tiers' tests with subnormal pivots, the conformance suites, TestPosv float32
# (Posv's factor bit-identical to Potrf's), the copy-bandwidth timings (TestPotrfTiming, TestPotrfWarpTiming),
# racecheck and memcheck on the warp failures and the register tier's tiny pivots, then the kernel-resource tests
# (0 B of local memory; registers). Binaries: build/gpu28/{potrf,posv}.test, built here from this change.
set -u
R=$PWD; L=/tmp/c4/logs; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu28; CS=/usr/local/cuda/bin/compute-sanitizer
pack() { tar cJf $OUT/c4.tar.xz -C /tmp/c4 logs; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
cd $R/internal/gpu/potrf
step tests; timeout 150 $B/potrf.test -test.run 'TestPotrf$|TestPotrfTinyPivots|TestConformance|TestPotrfWarp$|TestPotrfWarpFailures|TestWarpConformance|TestPotrfCTAFailures' -test.v > $L/tests.log 2>&1; echo "rc $?" >> $L/tests.log
step timing; timeout 70 $B/potrf.test -test.run 'TestPotrfWarpTiming|TestPotrfTiming$' -test.v > $L/timing.log 2>&1; echo "rc $?" >> $L/timing.log
cd $R/internal/gpu/posv
step posv; timeout 60 $B/posv.test -test.run 'TestPosv$/float32' -test.v > $L/posv.log 2>&1; echo "rc $?" >> $L/posv.log
cd $R/internal/gpu/potrf
for tool in racecheck memcheck; do
  step $tool; timeout 40 $CS --tool $tool --error-exitcode 9 $B/potrf.test -test.run 'TestPotrfWarpFailures/(Lower|Upper)/n=40$|TestPotrfTinyPivots/float32/(Lower|Upper)/n=(5|32)$' -test.v > $L/$tool.log 2>&1; echo "rc $?" >> $L/$tool.log
done
step resources-reg; timeout 110 $B/potrf.test -test.run 'TestKernelResources' -test.v > $L/resources-reg.log 2>&1; echo "rc $?" >> $L/resources-reg.log
step resources-warp; timeout 170 $B/potrf.test -test.run 'TestWarpKernelResources' -test.v > $L/resources-warp.log 2>&1; echo "rc $?" >> $L/resources-warp.log
step done; pack
grep -E "^(--- |ok|FAIL|PASS|rc )" $L/*.log | head -40
grep -h "copy" $L/timing.log
grep -h "SUMMARY" $L/racecheck.log $L/memcheck.log
grep -hE "potrf_warp<float, (40|48|56|64)|potrf_reg(_min)?<float, (16|32), (16|32), false|local [1-9]" $L/resources-*.log | head -20
cat $L/stages.txt
