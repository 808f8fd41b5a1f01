#!/usr/bin/env bash
# Session 28 call 6: lab/lab2.py (main against the landed build at the warp tier's other orders).
set -u
cd bench/results/h200/session28/lab && tar xJf sources.tar.xz src.O.cu src.T.cu && timeout 200 python3 lab2.py 2>&1 | tee $OUT/lab2.log
