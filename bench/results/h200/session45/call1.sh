#!/usr/bin/env bash
# Session 45 call 1: lab/lower.py (posv_split Lower's fill and drain rotated; B prefetched into L2; diagnostics), float64.
set -u
R=$PWD; L=$OUT/logs1; mkdir -p $L
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
timeout -s INT -k 10 500 python3 bench/results/h200/session45/lab/lower.py > $L/lower.log 2>&1; echo "rc $?" >> $L/lower.log
grep -v "registers, local 0 B" $L/lower.log | head -200; grep "registers" $L/lower.log
