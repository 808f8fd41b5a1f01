#!/usr/bin/env bash
# Session 71, call 2: on an H200 only (h200_only), the cholesky-gpumode suite whole (gpumode_suite: sessions 67, 68
# and 70's kernels, none yet in a whole H200 run) and the tuned/ re-measures session 70 prepared (its call1.sh's suite
# part), both by s71 (HEAD, built as in call1.sh's header; carry ["build/gpu/s71.tar.xz"]): the float32 posv rows n = 64
# (t-posv64, both triangles) and the Lower potrs rows n = 8, 16, 32 of float32, complex64 and complex128 (t-potrs,
# to the end), merged into tuned/ by scripts/merge-tuned --uplo L.
[ -d build/gpu/s71 ] || tar -C build/gpu -xJf build/gpu/s71.tar.xz
. scripts/device-steps.sh
record "$PWD/build/gpu/s71"
h200_only
gpumode_suite
lower=(--uplo L --dtype float32,complex64,complex128 --n 8,16,32 --nrhs 1,4,16 --max-mib 2048 --batch 1024,16384,65536)
tune_op t-posv64 70 posv --uplo L,U --dtype float32 --n 64 --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 2048
tune_op t-potrs end potrs "${lower[@]}"
call_report
exit 0
