#!/usr/bin/env bash
# Session 68's call 8: float32 posv_split through Posv (from n = 61 at 16,384 systems, posv.go's posvSplit), the
# version to land. Built here by
#   scripts/device-build build/gpu/s68f posv:./internal/gpu/posv potrf:./internal/gpu/potrf
# carry ["build/gpu/s68f"], any card:
#  - potrf: TestPosvSplit (float32 and float64, every order 33…64, both triangles: A, info and X to the bit as
#    PotrfWarp then PotrsWarp), TestWarpArguments, TestWarpKernelResources; racecheck on TestPosvSplit's float32
#    Lower n = 64 and Upper n = 61; TestPosvWarpTiming (posv_warp, posv_cta and posv_split, float32 Lower n = 33,
#    48, 64, 65,536 systems);
#  - posv: TestPosvApart (Posv at 16,384 systems against posv_warp to the bit, float32 n = 61 and 64 among them),
#    TestPosvSplitChoice, TestSolveApart, TestArguments, TestShape; TestPosvTiming's float32 rows n = 48 and 64,
#    both triangles (Posv against the vendor composition, 65,536 systems);
#  - on an H200 only: the cholesky-gpumode suite whole by s68f's CLI, then its float32 posv rows n = 64 (both
#    triangles, 1,024, 16,384 and 65,536 systems) by batchlas tune (t-posv64), to the end.
. scripts/device-steps.sh
record "$PWD/build/gpu/s68f"
P=$PWD/internal/gpu/potrf S=$PWD/internal/gpu/posv CS=/usr/local/cuda/bin/compute-sanitizer
step potrf-tests 200 "$P" "$B/potrf.test" -test.v -test.run '^(TestPosvSplit|TestWarpArguments|TestWarpKernelResources)$'
step posv-tests 120 "$S" "$B/posv.test" -test.v \
	-test.run '^(TestPosvApart|TestPosvSplitChoice|TestSolveApart|TestArguments|TestShape)$'
step racecheck 90 "$P" $CS --tool racecheck --error-exitcode 9 "$B/potrf.test" \
	-test.run '^TestPosvSplit$/^float32$/^(Lower/n=64|Upper/n=61)$'
stop_if_failed potrf-tests posv-tests racecheck
step warp-timing 90 "$P" "$B/potrf.test" -test.v -test.run '^TestPosvWarpTiming$'
step posv-timing 90 "$S" "$B/posv.test" -test.v -test.run '^TestPosvTiming$/^float32$/^(n=(48|64)|Upper)$/^n=(48|64)$'
grep -hE "^(--- FAIL|FAIL|ok|PASS)|^--- PASS: Test|panic" "$L/potrf-tests.log" "$L/posv-tests.log"
grep -h "split/warp\|: native" "$L/warp-timing.log" "$L/posv-timing.log"
h200_only
gpumode_suite
tune_op t-posv64 end posv --uplo L,U --dtype float32 --n 64 --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 2048
call_report
exit 0
