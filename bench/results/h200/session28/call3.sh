#!/usr/bin/env bash
# Session 28 call 3: lab/lab.py with eight builds (its header), potrf_warp n = 40…64 and potrf_reg n = 16, 32.
set -u
cd bench/results/h200/session28/lab; timeout 240 python3 lab.py 2>&1 | tee $OUT/lab3.log
