#!/usr/bin/env bash
# Session 27 call 3: lab3 (registers and time under -ftz, engine NVRTC); this change's potrf tests (register and
# warp tiers, resources, conformance), TestPosv float32 (Posv's factor bit-identical to Potrf's), racecheck and
# memcheck on the Upper tile paths (cp.async), float32 and complex128.
set -u
R=$PWD; L=/tmp/c3/logs; mkdir -p $L
tar xJf build/gpu27.txz -C build; mkdir -p build/kcache; export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu27; CS=/usr/local/cuda/bin/compute-sanitizer
pack() { tar cJf $OUT/c3.tar.xz -C /tmp/c3 logs; }
step() { echo "=== $1 $(date +%T)" >> $L/stages.txt; }
cd $R/build/lab27; step lab3; timeout 100 python3 lab3.py > $L/lab3.log 2>&1; echo "rc $?" >> $L/lab3.log; pack
cd $R/internal/gpu/potrf
step potrf; timeout 230 $B/potrf.test -test.run 'TestShape|TestArguments|TestPotrf$|TestChecks|TestConformance|TestKernelResources|TestWarpArguments|TestPotrfWarp$|TestPotrfWarpFailures|TestWarpConformance|TestWarpKernelResources' -test.v > $L/potrf.log 2>&1; echo "rc $?" >> $L/potrf.log; pack
for tool in racecheck memcheck; do
  step $tool; timeout 50 $CS --tool $tool --error-exitcode 9 $B/potrf.test -test.run 'TestPotrfWarpFailures/Upper/n=(40|64)$|TestPotrf$/(float32|complex128)/Upper/n=(16|31)$' > $L/$tool.log 2>&1; echo "rc $?" >> $L/$tool.log; pack
done
cd $R/internal/gpu/posv
step posv; timeout 80 $B/posv.test -test.run 'TestPosv$/float32' -test.v > $L/posv.log 2>&1; echo "rc $?" >> $L/posv.log; pack
step done; pack
grep -v "regs, local 0 B" $L/lab3.log; grep -E "^(--- |ok|FAIL|PASS|rc )" $L/potrf.log $L/posv.log | head -40; tail -3 $L/racecheck.log $L/memcheck.log; cat $L/stages.txt
grep -E "potrf_(reg|warp).*(true, false)|regs" $L/potrf.log | grep -E "float, (32|64)|cdouble, 32, 32" | head -20
