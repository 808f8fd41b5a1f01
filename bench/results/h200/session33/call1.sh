#!/usr/bin/env bash
# Session 33 call 1: where the four-block split kernel's time goes at n = 8192, one matrix (lab/diag.py's diagnostic
# variants of main's blocked.cu, CUDA 13's NVRTC, launched from CuPy), with the one-block kernel, n = 2048 at 8 and
# n = 512 at 640 beside it. (Call 1 ran diag.py before call 2 added its variants and the check of every arm: it checked
# head alone, and ran every variant it had, the four named here.)
set -u
mkdir -p $OUT/c1
export HEAD_CU=internal/gpu/cholblocked/blocked.cu CUBINS=/tmp REPS=5 VARIANTS=nosplit,onemma,noload,bare
export CASES=Ux1x8192x1x4,Lx1x8192x1x4,Ux1x8192x1x1,Ux1x2048x8x4,Ux1x512x640x4
timeout 500 python3 bench/results/h200/session33/lab/diag.py > $OUT/c1/diag.log 2>&1; echo "rc $?" >> $OUT/c1/diag.log
grep -v "false, 1>\|true, 1>" $OUT/c1/diag.log | tail -40
