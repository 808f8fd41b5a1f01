#!/usr/bin/env bash
# Session 37 call 1: the complex potrf Upper rows that session 36 owed. build/gpu/batchlas is HEAD bfbf66f (bench times
# potrf's Upper on its usual inputs); build/tuned holds session 36 call 4's journal (every Lower point), so --resume
# measures only the Upper points of the same grid and writes tables of both triangles; build/kcache.txz is session
# 36's kernel cache (no kernel source changed since).
set -u
export OUT
RESUME=1 LIMIT=${LIMIT:-500} scripts/gpu-session tune-complex
cp build/tuned/potrf* build/tuned/index.txt "$OUT"/ 2>/dev/null
grep -c "uplo=U" build/tuned/potrf.sm_90.journal
tail -5 "$OUT"/tune-complex-tune-potrf.log
