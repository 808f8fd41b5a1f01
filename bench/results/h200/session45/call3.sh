#!/usr/bin/env bash
# Session 45 call 3: lab/routes.py (Lower by columns where it pays: colsinc; Posv routes for Lower n = 45…48), float64.
set -u
R=$PWD; L=$OUT/logs3; mkdir -p $L
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
OUT=$L timeout -s INT -k 10 500 python3 bench/results/h200/session45/lab/routes.py > $L/routes.log 2>&1; echo "rc $?" >> $L/routes.log
grep -v "registers, local 0 B" $L/routes.log | head -250; grep "registers" $L/routes.log
