#!/usr/bin/env bash
# Session 72, call 1, one part by card (call_part). s72 is HEAD (aa20f08), built and packed here by
#   scripts/device-build build/gpu/s72 posv:./internal/gpu/posv potrf:./internal/gpu/potrf cholblocked:./internal/gpu/cholblocked
#   tar -C build/gpu -cJf build/gpu/s72.tar.xz s72
# carry ["build/gpu/s72.tar.xz"].
#  - suite (an H200): h200_pending (the suite whole with sessions 67-71's kernels, and the tuned/ re-measures).
#  - any other card: the tests of the three packages at HEAD, the pivot_rsqrt rename (f6b580d) on a GPU:
#    potrf's (every test but the timings), posv's at n <= 32 and cholblocked's tiled and resource tests.
[ -d build/gpu/s72 ] || tar -C build/gpu -xJf build/gpu/s72.tar.xz
. scripts/device-steps.sh
record "$PWD/build/gpu/s72"
case $(call_part checks) in
suite) h200_pending ;;
checks)
	step tests "${TESTS_LIMIT:-200}" "$PWD/internal/gpu/potrf" "$B/potrf.test" -test.v -test.skip 'Timing$|^TestRegVariants$'
	mv "$L/tests.log" "$L/potrf-tests.log"
	step tests 150 "$PWD/internal/gpu/posv" "$B/posv.test" -test.v \
		-test.run '^(TestShape|TestArguments|TestSolveApart|TestConformance)$|^TestPosv$/.*/.*/^n=([1-9]|[12][0-9]|3[0-2])$'
	mv "$L/tests.log" "$L/posv-tests.log"
	step tests 200 "$PWD/internal/gpu/cholblocked" "$B/cholblocked.test" -test.v -test.short \
		-test.run '^(TestKernelResources|TestPotrfTiled|TestConformanceTiled|TestAccuracyTiled|TestPrefixTasks|TestSplitStages|TestConformance)$'
	mv "$L/tests.log" "$L/cholblocked-tests.log"
	grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic|^rc " "$L"/*-tests.log
	;;
esac
call_report
exit 0
