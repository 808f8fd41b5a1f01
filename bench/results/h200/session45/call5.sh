#!/usr/bin/env bash
# Session 45 call 5, the final sources (posv_split Lower by columns; posv.go's posvSplit from Upper n = 37 and Lower
# 41…48 from 4,096 systems). Call 4 lost warp.log and verify.log's first part (too many files came back), so:
#  1. lab/verify.py TIMES=nc36: SASS against HEAD, bits of posv_split Lower against HEAD, routes at n = 33 and 36.
#  2. potrf.test: TestWarpKernelResources, TestWarpArguments, TestSplitBytes, TestPosvSplit, TestWarpConformance.
#     posv.test: TestPosv and TestConformance float64, TestPosvApart, TestPosvSplitChoice, TestSolveApart.
#  3. tune posv float64 n = 48, 64, both triangles, the tables' grid (alone on the GPU).
set -u
R=$PWD; L=$OUT/logs5; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
step() { echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step lab
TIMES=nc36 run verify 150 python3 bench/results/h200/session45/lab/verify.py
step tests
(cd internal/gpu/potrf && run warp 300 $B/potrf.test -test.v -test.run '^(TestWarpKernelResources|TestWarpArguments|TestSplitBytes|TestPosvSplit|TestWarpConformance)$') &
(sleep 3; cd internal/gpu/posv && run posv 200 $B/posv.test -test.v -test.run '^TestPosv$/^float64$';
  run apart 150 $B/posv.test -test.v -test.run '^(TestPosvApart|TestPosvSplitChoice|TestSolveApart)$';
  run posvconf 120 $B/posv.test -test.v -test.run '^TestConformance$/^float64') &
wait
step tune
left=$((560 - SECONDS)); [ $left -gt 30 ] && timeout -s INT -k 15 $left $B/batchlas tune posv --device cuda:0 --dtype float64 \
  --n 48,64 --uplo L,U --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 2048 --time 20ms --count 3 --out $L/t45 > $L/t45.log 2>&1
echo "rc $?" >> $L/t45.log
step done
cd $OUT && tar -cJf call5-logs.tar.xz logs5
L=logs5
cat $L/stages.txt; grep -H "^rc " $L/*.log
grep "same\|DIFFERENT" $L/verify.log | sort | uniq -c | sort -rn | head -5; grep "DIFFERENT\|^# bits\|FAIL" $L/verify.log | head
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic|^--- PASS: Test[A-Za-z]* " $L/warp.log $L/posv.log $L/apart.log $L/posvconf.log | sort | uniq -c
grep -hE " [1-9][0-9]* B local" $L/warp.log | head -3; grep -hc "0 B local" $L/warp.log; grep -h "posv_split<double" $L/warp.log | cut -c1-120
for f in $L/t45/*.sm_90.txt; do echo "# $f"; grep -E "^[LU] " $f | cut -c1-100; done
grep "^count=" $L/verify.log | cut -c1-110
rm -rf logs5
