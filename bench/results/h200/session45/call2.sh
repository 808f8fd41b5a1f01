#!/usr/bin/env bash
# Session 45 call 2: lab/cols.py (Lower's packed tile by columns against HEAD's by rows), float64.
set -u
R=$PWD; L=$OUT/logs2; mkdir -p $L
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
timeout -s INT -k 10 500 python3 bench/results/h200/session45/lab/cols.py > $L/cols.log 2>&1; echo "rc $?" >> $L/cols.log
grep -v "registers, local 0 B" $L/cols.log | head -250; grep "registers" $L/cols.log
