#!/usr/bin/env bash
# Session 44 call 3, on the final warp.cu: lab/check.py (SASS against HEAD; the h8 variant), then the GPU tests:
# potrf's TestWarpKernelResources, TestWarpConformance, TestSplitBytes, TestPotrsCTAMatchesWarp; posv's TestPosv
# float64, TestConformance float64; compute-sanitizer memcheck and racecheck on TestPotrsCTAMatchesWarp float64.
set -u
R=$PWD; L=$OUT/logs3; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu; CS=/usr/local/cuda/bin/compute-sanitizer
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
step() { echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step lab
run check 240 python3 bench/results/h200/session44/lab/check.py
step tests
(cd internal/gpu/potrf && run warp 300 $B/potrf.test -test.v -test.run '^(TestWarpKernelResources|TestWarpConformance|TestSplitBytes|TestPotrsCTAMatchesWarp)$') &
(sleep 3; cd internal/gpu/posv && run posv 150 $B/posv.test -test.v -test.run '^TestPosv$/^float64$' &&
  run posvconf 120 $B/posv.test -test.v -test.run '^TestConformance$/^float64$') &
(sleep 6; cd internal/gpu/potrf && P='^TestPotrsCTAMatchesWarp$/^float64$' &&
 run memf 120 $CS --tool memcheck --error-exitcode 9 $B/potrf.test -test.v -test.run "$P" &&
 run racef 150 $CS --tool racecheck --error-exitcode 9 $B/potrf.test -test.v -test.run "$P") &
wait
step done
cat $L/stages.txt
grep -v "registers, local 0 B" $L/check.log | head -60
grep -H "^rc " $L/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic|^--- PASS: Test[A-Za-z]* " $L/warp.log $L/posv.log $L/posvconf.log | sort | uniq -c
grep -hE " [1-9][0-9]* B local" $L/warp.log | head -3; grep -hc "0 B local" $L/warp.log; grep -h "potrs_split<double, \(36\|40\|48\)" $L/warp.log | cut -c1-150
grep -h "SUMMARY\|^--- FAIL\|^ok\|^PASS\|^FAIL" $L/memf.log $L/racef.log
