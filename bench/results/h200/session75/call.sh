#!/usr/bin/env bash
# Session 75, for any card: the cuda package's vendor tests first (session 74's gemmCodes and pinPair in cublas.go,
# under GemmStridedBatched, its Ex form, Syrk and Herk, have not run on a GPU yet); then on an H200
# session73/next-mids.sh's steps (the suite's batched mid cases by every native candidate; the float32 potrf rows
# n = 256 and 512 tuned again on GPU MODE's inputs, for scripts/merge-tuned --batches; n = 1024 left for a later call), elsewhere
# session74/call-any.sh's (potrf's and posv's timing tests, the racecheck of TestPotrf complex128 Upper n = 32).
# Builds: those of session74/call-any.sh's header (s74c, s73, s73p, all at 7f0f8b2: the same library code as this
# session's HEAD). carry ["build/gpu/s74c.tar.xz", "build/gpu/s73.tar.xz", "build/gpu/s73p.tar.xz"].
for b in s74c s73 s73p; do [ -d "build/gpu/$b" ] || tar -C build/gpu -xJf "build/gpu/$b.tar.xz"; done
export BUDGET=${BUDGET:-570}
. scripts/device-steps.sh
record "$PWD/build/gpu/s73"
vendor_tests "$PWD/build/gpu/s74c"
if grep -q H200 "$L/gpu.txt"; then
	gpumode_mids
	gm=(--dtype float32 --max-mib 4096 --inputs gpumode)
	tune_op t-256 120 potrf --uplo L,U --n 256 --batch 1,2,4,8,16,64,256,1024 "${gm[@]}"
	tune_op t-512 end potrf --uplo L,U --n 512 --batch 1,2,4,8,16,64,256 "${gm[@]}"
	grep -E '^\| ' "$L/mids.log" | tail -12
else
	timing_and_race "$PWD/build/gpu/s73p" "$PWD/build/gpu/s73"
fi
call_report
exit 0
