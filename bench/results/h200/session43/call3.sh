#!/usr/bin/env bash
# Session 43 call 3: lab/edges.py (working-tree warp.cu: tri_solve by halves): potrs_split against potrs_warp at
# NC = 36…48 and Posv's two ways at n = 36…56, float64, both triangles.
set -u
L=$OUT/logs3; mkdir -p $L
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
timeout -s INT -k 10 400 python3 bench/results/h200/session43/lab/edges.py > $L/edges.log 2>&1; echo "rc $?" >> $L/edges.log
grep -v "^$" $L/edges.log | grep -v "local 0 B"; grep "registers" $L/edges.log | grep -v "local 0 B"; grep -c "local 0 B" $L/edges.log
