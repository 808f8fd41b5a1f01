#!/usr/bin/env bash
# Session 29 call 3: lab/lab.py, the warp tier (warp.cu) built for double: registers, local memory, and time
# against the CTA tier on the same inputs, each result checked against cupy.
set -u
mkdir -p $OUT; timeout 420 python3 bench/results/h200/session29/lab/lab.py > $OUT/call3-lab.log 2>&1; echo "rc $?" >> $OUT/call3-lab.log
cat $OUT/call3-lab.log
