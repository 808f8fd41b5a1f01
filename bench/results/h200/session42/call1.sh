#!/usr/bin/env bash
# Session 42 call 1: lab/split.py (the split body: registers, checks, times at 65,536 matrices).
set -u
mkdir -p /tmp/s42; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > $OUT/gpu.txt 2>&1
timeout -s INT -k 10 540 python3 bench/results/h200/session42/lab/split.py > $OUT/call1-lab.log 2>&1; echo "rc $?" >> $OUT/call1-lab.log
grep -v "^ok " $OUT/call1-lab.log | tail -80
