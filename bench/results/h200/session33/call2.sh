#!/usr/bin/env bash
# Session 33 call 2: two changes of the split loop the diagnostics of call 1 point at (lab/diag.py: vec16, trunc, both),
# against main's blocked.cu, the four-block kernel at n = 8192, one matrix, and where the one-block kernel runs.
# Every result checked (info, and ‖LLᵀ − A‖₁ / (‖A‖₁·n·eps) in brackets).
set -u
mkdir -p $OUT/c2
export HEAD_CU=internal/gpu/cholblocked/blocked.cu CUBINS=/tmp REPS=7 VARIANTS=vec16,trunc,vec16trunc
export CASES=Ux1x8192x1x4,Ux1x4096x1x1,Ux1x2048x8x4,Ux1x512x640x4,Ux1x2048x2x1,Ux1x8192x1x1
timeout 500 python3 bench/results/h200/session33/lab/diag.py > $OUT/c2/diag.log 2>&1; echo "rc $?" >> $OUT/c2/diag.log
grep -v "false, false, 1>" $OUT/c2/diag.log | tail -40
