#!/usr/bin/env bash
# Prepared in session 70 for a later session, not run: potrf_cta's column barriers (columns.patch: the float
# panels' later warps wait on an mbarrier a column instead of a __syncthreads after the whole 16-column diagonal
# block; session 69's ncu had the suite's n128 b256 kernel stalled at its barriers 3.86 of 7.58 cycles an
# instruction). Built here at the HEAD the patch applies to by
#   scripts/device-build build/gpu/s71 posv:./internal/gpu/posv potrf:./internal/gpu/potrf cholblocked:./internal/gpu/cholblocked
#   scripts/device-build build/gpu/s71c -p bench/results/h200/session70/columns.patch posv:./internal/gpu/posv potrf:./internal/gpu/potrf
#   for b in s71 s71c; do tar -C build/gpu -cJf build/gpu/$b.tar.xz $b; done
# carry ["build/gpu/s71.tar.xz", "build/gpu/s71c.tar.xz"].
#  1. Every card: s71c's CTA tests (TestPotrfCTA, TestPotrfCTAFailures, TestCTAConformance, TestPotrsCTAMatchesWarp)
#     and racecheck on TestPotrfCTA's float32 cases n = 127, 128 (does racecheck follow mbarriers? a hazard
#     reported here needs reading before anything else); then native:cta in turns, s71 and s71c: the suite's
#     n128 b256, float32 n = 128 and 256 at 256 and 4,096 matrices, n = 96 at 4,096, both triangles; and
#     Upper n = 64 at 1,024 by native:cta beside native:warp (the suite's n64 b1024 takes the warp tier: does
#     the CTA tier's two warps a matrix overtake it with the column barriers?).
#  2. suite (an H200): the cholesky-gpumode suite whole by s71 (HEAD), then s71's auto arm whole by s71c.
for b in s71 s71c; do tar -C build/gpu -xJf "build/gpu/$b.tar.xz"; done
. scripts/device-steps.sh
record "$PWD/build/gpu/s71c"
step tests 150 "$PWD/internal/gpu/potrf" "$B/potrf.test" -test.v \
	-test.run '^(TestPotrfCTA|TestPotrfCTAFailures|TestCTAConformance|TestPotrsCTAMatchesWarp|TestCTAKernelResources)$'
step racecheck 90 "$PWD/internal/gpu/potrf" /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 9 \
	"$B/potrf.test" -test.v -test.run '^TestPotrfCTA$/^float32$/^(Upper|Lower)$/^n=(127|128)$'
stop_if_failed tests racecheck
grep -hE "^(--- FAIL|FAIL|ok|PASS)|^--- PASS: Test|panic|RACECHECK SUMMARY" "$L/tests.log" "$L/racecheck.log"
for turn in 1 2; do
	for b in s71 s71c; do
		cli=$PWD/build/gpu/$b/batchlas
		step "ab-$b-$turn" 30 "$PWD" "$cli" bench -suite cholesky-gpumode -arms auto -cases 'n=128/batch=256$' -count 5 -time 20ms
		step "sat-$b-$turn" 60 "$PWD" bash -c "for u in L U; do for nb in 128/256 128/4096 256/256 256/4096 96/4096; do
			'$cli' bench potrf -dtype float32 -uplo \$u -n \${nb%/*} -batch \${nb#*/} -arms native:cta -count 5 -time 50ms
		done; done
			'$cli' bench potrf -dtype float32 -uplo U -n 64 -batch 1024 -arms native:warp,native:cta -count 5 -time 50ms"
	done
done
grep -H "^| potrf" "$L"/ab-*.log
grep -HE "^Benchmark" "$L"/sat-*.log
if [ "$(call_part other)" = suite ]; then
	B=$PWD/build/gpu/s71
	gpumode_suite
	step suite-s71c 120 "$PWD" "$PWD/build/gpu/s71c/batchlas" bench -suite cholesky-gpumode -arms auto
	grep -E "^\| (potrf|geomean)" "$L/suite-s71c.log"
fi
call_report
exit 0
