#!/usr/bin/env bash
# Session 44 call 1: lab/groups.py (registers, bit checks against HEAD, potrs and posv times by group size).
set -u
R=$PWD; L=$OUT/logs1; mkdir -p $L
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
timeout -s INT -k 10 540 python3 bench/results/h200/session44/lab/groups.py > $L/groups.log 2>&1; echo "rc $?" >> $L/groups.log
grep -v "registers, local 0 B" $L/groups.log | head -150; grep "potrs_split<double, \(48\|64\), false>" $L/groups.log
