#!/usr/bin/env bash
# Session 68's call 4 on: one part by card (device-steps.sh's call_part: PART names one outright).
#  - suite (an H200): call.sh's H200 steps: the cholesky-gpumode suite whole by s68's CLI (session 67's float32
#    potrf rows in its tables), then the tables' grid of the Lower potrs and posv rows n = 8, 16, 32 of float32,
#    complex64 and complex128 (t-potrs, t-posv to the end) and the float32 posv rows n = 64 (t-posv64).
#  - on any other card OTHER (potrf by default): potrf, the potrf package's tests and racecheck on s68's
#    potrf.test (potrf_checks): the package last ran on a GPU at 6c0ad3d (session 63, call 4), and eb2502d moved
#    opaque into the scalar prelude since; tiled, cholblocked's tiled tests and racecheck (tiled_checks), which
#    include that prelude too and last ran on the build landed as bab8f0d (session 61); none, nothing.
# Built here by
#   scripts/device-build build/gpu/s68 posv:./internal/gpu/posv potrf:./internal/gpu/potrf cholblocked:./internal/gpu/cholblocked
# carry ["build/gpu/s68"].
. scripts/device-steps.sh
record "$PWD/build/gpu/s68"
case $(call_part "${OTHER:-potrf}") in
suite)
	lower=(--uplo L --dtype float32,complex64,complex128 --n 8,16,32 --nrhs 1,4,16 --max-mib 2048 --batch 1024,16384,65536)
	gpumode_suite
	tune_op t-potrs 130 potrs "${lower[@]}"
	tune_op t-posv64 70 posv --uplo L,U --dtype float32 --n 64 --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 2048
	tune_op t-posv end posv "${lower[@]}"
	;;
potrf) potrf_checks "$B" ;;
tiled) tiled_checks ;;
esac
call_report
exit 0
