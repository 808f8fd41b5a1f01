#!/usr/bin/env bash
# Session 45 call 7, the committed sources (warp.cu's comments changed after calls 5 and 6):
#  1. lab/final.py (on bench/lab/warplab.py): SASS and bits against session 44's warp.cu; posv_split n = 48 times.
#  2. potrf.test: TestWarpKernelResources, TestPosvSplit, TestWarpConformance; posv.test: TestPosvApart,
#     TestPosvSplitChoice, TestSolveApart, TestConformance float64.
set -u
R=$PWD; L=$OUT/logs7; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
run final 200 python3 bench/results/h200/session45/lab/final.py
(cd internal/gpu/potrf && run warp 300 $B/potrf.test -test.v -test.run '^(TestWarpKernelResources|TestPosvSplit|TestWarpConformance)$') &
(sleep 2; cd internal/gpu/posv && run apart 200 $B/posv.test -test.v -test.run '^(TestPosvApart|TestPosvSplitChoice|TestSolveApart)$';
  run posvconf 120 $B/posv.test -test.v -test.run '^TestConformance$/^float64') &
wait
cd $OUT && tar -cJf call7-logs.tar.xz logs7
grep -H "^rc " logs7/*.log; tail -3 logs7/final.log
grep "same\|DIFFERENT" logs7/final.log | awk '{print $1, $NF}' | sort | uniq -c | sort -rn | head -12
grep "^# bits\|FAIL\|Error\|error" logs7/final.log | head; grep "^count=" logs7/final.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic|^--- PASS: Test[A-Za-z]* " logs7/warp.log logs7/apart.log logs7/posvconf.log | sort | uniq -c
grep -hE " [1-9][0-9]* B local" logs7/warp.log | head -3; grep -hc "0 B local" logs7/warp.log
rm -rf logs7
