#!/usr/bin/env bash
# Session 43 call 2: lab/tri.py (registers, bit checks, potrs and posv times), then ncu on its PROF=1 launches
# (potrs_split<double, 64, false>, 16,384 systems, 16 right-hand sides: HEAD's and h16's).
set -u
R=$PWD; L=$OUT/logs2; mkdir -p $L
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
run tri 420 python3 bench/results/h200/session43/lab/tri.py
PROF=1 run ncu 120 $NCU -k regex:"potrs_split" --section SpeedOfLight --section Occupancy --section WarpStateStats \
  --section SchedulerStats --section LaunchStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
  python3 bench/results/h200/session43/lab/tri.py
grep -v "^$" $L/tri.log | grep -v "registers, local 0 B"; grep "registers" $L/tri.log | grep -v "local 0 B"
grep "registers" $L/tri.log | awk '{print $1, $2, $3, $4, $5}' | grep "64, false" 
grep -E "^  [a-z_]+<|Duration|Registers Per|Achieved Occupancy|Issue Slots Busy|L1/TEX Cache Throughput|Eligible Warps|^rc" $L/ncu.log | head -40
