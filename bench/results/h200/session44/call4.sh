#!/usr/bin/env bash
# Session 44 call 4: lab/fused.py (posv_split against Posv's two launches and posv_warp, float64).
set -u
R=$PWD; L=$OUT/logs4; mkdir -p $L
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
timeout -s INT -k 10 400 python3 bench/results/h200/session44/lab/fused.py > $L/fused.log 2>&1; echo "rc $?" >> $L/fused.log
grep -v "registers, local 0 B" $L/fused.log | head -150; grep "registers" $L/fused.log | grep -v "^head"
