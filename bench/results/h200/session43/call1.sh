#!/usr/bin/env bash
# Session 43 call 1: lab/group.py (registers, bit checks, times), then ncu on its PROF=1 launches (16,384 float64
# systems, 16 right-hand sides): posv_reg n = 32 (NR = 8), potrs_split n = 64, potrs_group G = 2 and 4 at n = 64 and
# 48, potrs_warp and posv_warp n = 48.
set -u
R=$PWD; L=$OUT/logs1; mkdir -p $L
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
run group 300 python3 bench/results/h200/session43/lab/group.py
PROF=1 run ncu 200 $NCU -k regex:"posv|potrs" --section SpeedOfLight --section Occupancy --section WarpStateStats \
  --section SchedulerStats --section LaunchStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
  python3 bench/results/h200/session43/lab/group.py
cat $L/group.log | grep -v "^$"
grep -E "^  [a-z_]+<|Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Issue Slots Busy|No Eligible|Active Warps Per Scheduler|Eligible Warps|Warp Cycles Per Issued|Shared Memory Per|Executed Ipc A|^rc" $L/ncu.log | head -120
