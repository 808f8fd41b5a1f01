#!/usr/bin/env bash
# Session 45 call 4: the working tree's warp.cu (posv_split Lower by columns, split_rows).
#  1. lab/verify.py: SASS of potrf_split, potrs_split and Upper posv_split against HEAD's; bits of posv_split Lower
#     against HEAD's; Posv's routes at Lower n = 49…56 and n = 37…44.
#  2. potrf.test: TestWarpKernelResources, TestWarpArguments, TestSplitBytes, TestPosvSplit, TestWarpConformance,
#     TestPotrfWarp and TestPotrfWarpFailures float64, TestPotrsCTAMatchesWarp float64 (cta_test.go);
#     potrf-guard.test (split_panel's column pointer one word too far a step, guard-cols.patch.txt): TestPosvSplit
#     must fail; memcheck and racecheck on TestPosvSplit Lower. posv.test: TestPosv and TestConformance float64.
set -u
R=$PWD; L=$OUT/logs4; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu; CS=/usr/local/cuda/bin/compute-sanitizer
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
step() { echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step lab
run verify 240 python3 bench/results/h200/session45/lab/verify.py
step tests
(cd internal/gpu/potrf && run warp 300 $B/potrf.test -test.v -test.run '^(TestWarpKernelResources|TestWarpArguments|TestSplitBytes|TestPosvSplit|TestWarpConformance)$') &
(sleep 2; cd internal/gpu/potrf && run potrf 200 $B/potrf.test -test.v -test.run '^(TestPotrfWarp|TestPotrfWarpFailures)$/^float64$';
  run ctawarp 150 $B/potrf.test -test.v -test.run '^TestPotrsCTAMatchesWarp$/^float64') &
(sleep 4; cd internal/gpu/posv && run posv 170 $B/posv.test -test.v -test.run '^TestPosv$/^float64$';
  run posvconf 120 $B/posv.test -test.v -test.run '^TestConformance$/^float64') &
(sleep 6; cd internal/gpu/potrf && run guard 150 $B/potrf-guard.test -test.v -test.short -test.run '^TestPosvSplit$';
  run mem 120 $CS --tool memcheck --error-exitcode 9 $B/potrf.test -test.v -test.run '^TestPosvSplit$/^Lower$/^n=(36|48|64)$';
  run race 150 $CS --tool racecheck --error-exitcode 9 $B/potrf.test -test.v -test.run '^TestPosvSplit$/^Lower$/^n=(40|45|57)$') &
wait
step done
cat $L/stages.txt; grep -H "^rc " $L/*.log
grep -v "registers, local 0 B" $L/verify.log | grep -v "^count=" | head -80
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic|^--- PASS: Test[A-Za-z]* " $L/warp.log $L/potrf.log $L/ctawarp.log $L/posv.log $L/posvconf.log | sort | uniq -c
grep -hE " [1-9][0-9]* B local" $L/warp.log | head -3; grep -hc "0 B local" $L/warp.log; grep -h "_split<double, \(48\|64\)" $L/warp.log | cut -c1-150
grep -hE "^(--- FAIL|FAIL|ok|PASS)" $L/guard.log | sort | uniq -c; grep -m3 "differ" $L/guard.log
grep -h "SUMMARY\|^--- FAIL\|^ok\|^PASS\|^FAIL" $L/mem.log $L/race.log
grep "^count=" $L/verify.log
