#!/usr/bin/env bash
# Session 43 call 5: lab/halves.py (posv.cu's solve_halves against HEAD's posv.cu, every type).
set -u
L=$OUT/logs5; mkdir -p $L
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
timeout -s INT -k 10 420 python3 bench/results/h200/session43/lab/halves.py > $L/halves.log 2>&1; echo "rc $?" >> $L/halves.log
grep -v "^$" $L/halves.log | grep -v "registers, local 0 B"; grep "registers" $L/halves.log | grep -v "local 0 B" | head; grep -c "local 0 B" $L/halves.log
grep "registers" $L/halves.log | grep "32, 32, \(8\|16\), false" 
