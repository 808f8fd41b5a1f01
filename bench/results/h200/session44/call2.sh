#!/usr/bin/env bash
# Session 44 call 2: lab/final.py (SASS of every warp-tier solve kernel against HEAD, bits, times at n = 33…40), then
# potrf's TestPotrsCTAMatchesWarp (sizes 36, 37, 40 added) and TestWarpKernelResources on the working tree.
set -u
R=$PWD; L=$OUT/logs2; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
run final 330 python3 bench/results/h200/session44/lab/final.py
(cd internal/gpu/potrf && run warp 200 $B/potrf.test -test.v -test.run '^(TestPotrsCTAMatchesWarp|TestWarpKernelResources)$')
grep -v "registers, local 0 B" $L/final.log | head -120
grep -E "potrs_split<double, (36|40|48)," $L/final.log | head
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic|^--- PASS: Test[A-Za-z]* |^rc" $L/warp.log
grep -hE " [1-9][0-9]* B local" $L/warp.log | head -3; grep -h "potrs_split<double, \(36\|40\)" $L/warp.log | cut -c1-150
