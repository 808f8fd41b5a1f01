#!/usr/bin/env bash
# Session 28 call 2: lab/lab.py (registers and time of five builds of potrf_warp and potrf_reg, lab.py's header);
# the warp and CTA failure tests again (call 1's warp failure test had a bad order in its batch and panicked),
# the warp conformance suite; racecheck and memcheck on TestPotrfWarpFailures/Upper/n=40 (the cp.async Upper tile,
# finish_in_memory through Upper) and memcheck on the register tier's tiny pivots (groups that finish in memory
# beside groups that do not). Binary: build/gpu28/potrf.test of this change, built here.
set -u
R=$PWD; L=/tmp/c2/logs; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu28; CS=/usr/local/cuda/bin/compute-sanitizer
pack() { tar cJf $OUT/c2.tar.xz -C /tmp/c2 logs; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
cd $R/bench/results/h200/session28/lab
step lab; timeout 150 python3 lab.py > $L/lab.log 2>&1; echo "rc $?" >> $L/lab.log
cd $R/internal/gpu/potrf
step tests; timeout 120 $B/potrf.test -test.run 'TestPotrfWarpFailures|TestWarpConformance|TestPotrfCTAFailures' -test.v > $L/tests.log 2>&1; echo "rc $?" >> $L/tests.log
step racecheck; timeout 200 $CS --tool racecheck --error-exitcode 9 $B/potrf.test -test.run 'TestPotrfWarpFailures/Upper/n=40$' -test.v > $L/racecheck.log 2>&1; echo "rc $?" >> $L/racecheck.log
step memcheck; timeout 90 $CS --tool memcheck --error-exitcode 9 $B/potrf.test -test.run 'TestPotrfWarpFailures/Upper/n=40$|TestPotrfTinyPivots/float32/(Lower|Upper)/n=(5|32)$' -test.v > $L/memcheck.log 2>&1; echo "rc $?" >> $L/memcheck.log
step done; pack
cat $L/lab.log; grep -E "^(--- |ok|FAIL|PASS|rc )" $L/tests.log | head; grep -E "^    --- FAIL" $L/tests.log | head
tail -n 5 $L/racecheck.log; tail -n 5 $L/memcheck.log; cat $L/stages.txt
