#!/usr/bin/env bash
# Session 72, call 1, one part by card (call_part). s72 is HEAD (aa20f08), built and packed here by
#   scripts/device-build build/gpu/s72 posv:./internal/gpu/posv potrf:./internal/gpu/potrf cholblocked:./internal/gpu/cholblocked
#   tar -C build/gpu -cJf build/gpu/s72.tar.xz s72
# carry ["build/gpu/s72.tar.xz"].
#  - suite (an H200): h200_pending (the suite whole with sessions 67-71's kernels, and the tuned/ re-measures).
#  - any other card: the tests of the three packages at HEAD, the pivot_rsqrt rename (f6b580d) on a GPU:
#    potrf's (every test but the timings), posv's at n <= 32 and cholblocked's tiled and resource tests.
#    (Call 2 ran these as three steps written out here; they became device-steps.sh's potrf_tests, posv_tests
#    and tiled_tests after it, the same commands and log names.)
[ -d build/gpu/s72 ] || tar -C build/gpu -xJf build/gpu/s72.tar.xz
. scripts/device-steps.sh
record "$PWD/build/gpu/s72"
case $(call_part checks) in
suite) h200_pending ;;
checks)
	potrf_tests potrf-tests "$B"
	posv_tests posv-tests "$B"
	tiled_tests cholblocked-tests
	grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic|^rc " "$L"/*-tests.log
	;;
esac
call_report
exit 0
