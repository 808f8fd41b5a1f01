#!/usr/bin/env bash
# Session 68's call 2: Potrs Lower timed for the first time since posv_reg and potrs_reg fill Lower rows by
# lower_row (session 67's 7e0433f), against the version before, and on an H200 the whole suite with session 67's
# float32 potrf rows and the Lower potrs and posv rows of the staged types measured again for tuned/. Built here by
#   scripts/device-build build/gpu/s68 posv:./internal/gpu/posv              (this version: CLI, posv.test)
#   scripts/device-build build/gpu/s65 -r 1e36927 posv:./internal/gpu/posv  (the version before: CLI, posv.test)
# carry ["build/gpu/s68", "build/gpu/s65"]:
#  - any card: batchlas tune potrs, Lower, float32, complex64, complex128, n = 8, 16, 32, 1, 4, 16 right-hand
#    sides, 65,536 systems, by s68 and s65 in turns (RUNS; RUNS= skips them), native:fused beside the vendor
#    arm in each run;
#  - on an H200 only: the cholesky-gpumode suite whole by s68's CLI; then the tables' grid (1,024, 16,384 and
#    65,536 systems) of the same Lower rows by s68, potrs (t-potrs) and posv (t-posv, to the end), and between
#    them the float32 posv rows n = 64, both triangles (t-posv64): the table's Lower n = 64 with 16 right-hand
#    sides at 16,384 systems, 4.999× the vendor composition, is the Posv Must's closest row, measured in session 25.
# Tables: scripts/posv-ab bench/results/h200/session68/call2-logs.tgz s65 s68
. scripts/device-steps.sh
record "$PWD/build/gpu/s68"
cp "$PWD/build/gpu/s65/commit" "$L/commit-s65.txt"
lower=(--uplo L --dtype float32,complex64,complex128 --n 8,16,32 --nrhs 1,4,16 --max-mib 2048)
tune_turns 90 potrs "${RUNS-s68-1 s65-1 s68-2 s65-2}" "${lower[@]}" --batch 65536
h200_only
gpumode_suite
tune_op t-potrs 130 potrs "${lower[@]}" --batch 1024,16384,65536
tune_op t-posv64 70 posv --uplo L,U --dtype float32 --n 64 --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 2048
tune_op t-posv end posv "${lower[@]}" --batch 1024,16384,65536
call_report
exit 0
