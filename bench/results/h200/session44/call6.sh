#!/usr/bin/env bash
# Session 44 call 6: lab/bounds.py (posv_split under __launch_bounds__(64, 8), float64).
set -u
R=$PWD; L=$OUT/logs6; mkdir -p $L
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
timeout -s INT -k 10 400 python3 bench/results/h200/session44/lab/bounds.py > $L/bounds.log 2>&1; echo "rc $?" >> $L/bounds.log
grep -v "registers, local 0 B" $L/bounds.log | head -150; grep "registers" $L/bounds.log | grep -v "^head"
