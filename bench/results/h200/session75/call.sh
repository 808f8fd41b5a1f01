#!/usr/bin/env bash
# Session 75, for any card: the cuda package's vendor tests first (session 74's gemmCodes and pinPair in cublas.go,
# under GemmStridedBatched, its Ex form, Syrk and Herk, have not run on a GPU yet); then on an H200
# session73/next-mids.sh's steps (the suite's batched mid cases by every native candidate; the float32 potrf rows
# n = 256, 512 and 1024 tuned again on GPU MODE's inputs, for scripts/merge-tuned --batches), elsewhere
# session74/call-any.sh's (potrf's and posv's timing tests, the racecheck of TestPotrf complex128 Upper n = 32).
# Builds: those of session74/call-any.sh's header (s74c, s73, s73p, all at 7f0f8b2: the same library code as this
# session's HEAD). carry ["build/gpu/s74c.tar.xz", "build/gpu/s73.tar.xz", "build/gpu/s73p.tar.xz"].
for b in s74c s73 s73p; do [ -d "build/gpu/$b" ] || tar -C build/gpu -xJf "build/gpu/$b.tar.xz"; done
export BUDGET=${BUDGET:-570}
. scripts/device-steps.sh
record "$PWD/build/gpu/s73"
step vendor 90 "$PWD/internal/cuda" "$PWD/build/gpu/s74c/cuda.test" -test.v -test.run '^TestVendor'
grep -hE '^--- |^(ok|FAIL|PASS)' "$L/vendor.log"
if grep -q H200 "$L/gpu.txt"; then
	gpumode_mids
	gm=(--dtype float32 --max-mib 4096 --inputs gpumode)
	tune_op t-256 120 potrf --uplo L,U --n 256 --batch 1,2,4,8,16,64,256,1024 "${gm[@]}"
	tune_op t-512 end potrf --uplo L,U --n 512 --batch 1,2,4,8,16,64,256 "${gm[@]}"
	grep -E '^\| ' "$L/mids.log" | tail -12
else
	B=$PWD/build/gpu/s73p
	step timing 200 "$PWD/internal/gpu/potrf" "$B/potrf.test" -test.v -test.run 'Timing$'
	step posv-timing 120 "$PWD/internal/gpu/posv" "$PWD/build/gpu/s73/posv.test" -test.v -test.run '^TestPosvTiming$'
	RACE_LIMIT=$((BUDGET - SECONDS - 20)) potrf_race "$B" '^TestPotrf$/^complex128$/^Upper$/^n=32$'
	grep -hE 'vendor/native|^--- |^(ok|FAIL|PASS)' "$L/timing.log" "$L/posv-timing.log"
fi
call_report
exit 0
