#!/usr/bin/env bash
# Prepared in session 73, not run (no machine came; then loans paused). On an H200 only: the float32 potrf rows n = 256
# at 1 to 1,024 matrices, 512 at 1 to 256 and 1024 at 1 to 64, both triangles, on GPU MODE's inputs, by the build s73
# that session72/next.sh makes (its header). `batchlas route` lists
# native:tiled:occ=3:prec=tf32x3 (session 59's three-block candidate) "not in the row" in every one of them, and
# n = 256 at 64, 512 at 16 and 1024 at 4 are cholesky-gpumode cases; for scripts/merge-tuned (--batches per order).
# First the suite's batched mid cases by every native candidate that can run them (the tables have no row at 640 or
# 60 matrices: the route takes the nearest, n = 512 at 256 and 1024 at 64). carry ["build/gpu/s73.tar.xz"].
[ -d build/gpu/s73 ] || tar -C build/gpu -xJf build/gpu/s73.tar.xz
export BUDGET=${BUDGET:-570}
. scripts/device-steps.sh
record "$PWD/build/gpu/s73"
h200_only
gpumode_mids
gm=(--dtype float32 --max-mib 4096 --inputs gpumode)
tune_op t-256 180 potrf --uplo L,U --n 256 --batch 1,2,4,8,16,64,256,1024 "${gm[@]}"
tune_op t-512 180 potrf --uplo L,U --n 512 --batch 1,2,4,8,16,64,256 "${gm[@]}"
tune_op t-1024 end potrf --uplo L,U --n 1024 --batch 1,2,4,8,16,64 "${gm[@]}"
call_report
exit 0
