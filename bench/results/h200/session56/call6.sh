#!/usr/bin/env bash
# Session 56 call 6 (carry ["build/gpu/s56"], the CLI of a047c93; BUDGET set by the caller to what device time is
# left): call 5 for n = 8192: on an H200 only, float32 n = 8192 re-tuned over session 34's
# grid (its four-block rows predate factor_quarters), ended by SIGINT at the deadline (an order cut short is not merged).
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
. scripts/device-steps.sh
B=$R/build/gpu/s56
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $L/gpu.txt 2>&1
cp $B/commit $L/commit.txt
grep -q H200 $L/gpu.txt || { echo "not an H200: no tunes" >> $L/stages.txt; BUDGET=0; }
step_to_end t-float32-8192 $R $B/batchlas tune potrf --device cuda:0 --uplo L,U --time 20ms --count 3 --dtype float32 --n 8192 \
	--batch 1,2,4,8,16,64,256,1024,4096,16384,65536 --max-mib 256 --inputs gpumode --out $L/t-float32-8192
cat $L/gpu.txt $L/stages.txt; grep -H "^rc " $L/*.log
for f in $L/t-*/potrf.*.txt; do grep -E "^[LU] " $f | cut -c1-110; done
