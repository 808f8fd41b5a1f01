#!/usr/bin/env bash
# Session 42 call 4: lab/panels.py (potrf_panels, lab/panels.cu, against potrf_split and potrf_warp).
set -u
timeout -s INT -k 10 400 python3 bench/results/h200/session42/lab/panels.py > $OUT/call4-lab.log 2>&1; echo "rc $?" >> $OUT/call4-lab.log
grep -v "^ok " $OUT/call4-lab.log | tail -60
