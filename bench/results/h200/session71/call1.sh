#!/usr/bin/env bash
# Session 71, call 1 (session70/next.sh as prepared there, run here): potrf_cta's column barriers (columns.patch: the float
# panels' later warps wait on an mbarrier a column instead of a __syncthreads after the whole 16-column diagonal
# block; columns4.patch, on top of it: a barrier every 4 columns, kColumnsPerBarrier = 4, 92 registers against
# 104 and 107). Session 69's ncu had the suite's n128 b256 kernel stalled at its barriers 3.86 of 7.58 cycles an
# instruction. Built here at the HEAD the patches apply to by
#   scripts/device-build build/gpu/s71 posv:./internal/gpu/posv potrf:./internal/gpu/potrf cholblocked:./internal/gpu/cholblocked
#   scripts/device-build build/gpu/s71c -p bench/results/h200/session70/columns.patch posv:./internal/gpu/posv potrf:./internal/gpu/potrf
#   scripts/device-build build/gpu/s71c4 -p bench/results/h200/session70/columns.patch -p bench/results/h200/session70/columns4.patch posv:./internal/gpu/posv potrf:./internal/gpu/potrf
#   for b in s71 s71c s71c4; do tar -C build/gpu -cJf build/gpu/$b.tar.xz $b; done
# carry ["build/gpu/s71.tar.xz", "build/gpu/s71c.tar.xz", "build/gpu/s71c4.tar.xz"].
#  1. On an H200 only: the cholesky-gpumode suite whole by s71 (HEAD: sessions 67, 68 and 70's changes, none
#     yet in a whole H200 run).
#  2. Every card: each patched build's CTA tests (TestPotrfCTA, TestPotrfCTAFailures, TestCTAConformance,
#     TestCTAKernelResources), posv's TestPosv in float32 (posv_cta<float> takes the barriers too) and
#     racecheck on TestPotrfCTA's float32 cases n = 127, 128 (does racecheck follow mbarriers? a hazard
#     reported here needs reading before anything else); then native:cta by the three builds in turns: the
#     suite's n128 b256, float32 n = 128 and 256 at 256 and 4,096 matrices and n = 96 at 4,096, both
#     triangles, and Upper n = 64 at 1,024 by native:cta beside native:warp (the suite's n64 b1024 takes the
#     warp tier: does the CTA tier's two warps a matrix overtake it with the barriers?) and n = 256 at 64 beside
#     native:tiled:prec=tf32x3 (the suite's n256 b64 takes it).
for b in s71 s71c s71c4; do tar -C build/gpu -xJf "build/gpu/$b.tar.xz"; done
. scripts/device-steps.sh
record "$PWD/build/gpu/s71"
cat "$PWD/build/gpu/s71c/commit" >"$L/commit-s71c.txt"
cat "$PWD/build/gpu/s71c4/commit" >"$L/commit-s71c4.txt"
[ "$(call_part other)" = suite ] && gpumode_suite
for b in s71c s71c4; do
	step "tests-$b" 100 "$PWD/internal/gpu/potrf" "$PWD/build/gpu/$b/potrf.test" -test.v \
		-test.run '^(TestPotrfCTA|TestPotrfCTAFailures|TestCTAConformance|TestCTAKernelResources)$'
	step "posv-$b" 60 "$PWD/internal/gpu/posv" "$PWD/build/gpu/$b/posv.test" -test.v -test.run '^TestPosv$/^float32$'
	step "racecheck-$b" 60 "$PWD/internal/gpu/potrf" /usr/local/cuda/bin/compute-sanitizer --tool racecheck \
		--error-exitcode 9 "$PWD/build/gpu/$b/potrf.test" -test.v -test.run '^TestPotrfCTA$/^float32$/^(Upper|Lower)$/^n=(127|128)$'
	grep -hE "^(--- FAIL|FAIL|ok|PASS)|^--- PASS: Test|panic|RACECHECK SUMMARY" "$L/tests-$b.log" "$L/posv-$b.log" \
		"$L/racecheck-$b.log"
done
stop_if_failed tests-s71c posv-s71c racecheck-s71c tests-s71c4 posv-s71c4 racecheck-s71c4
for turn in 1 2; do
	for b in s71 s71c s71c4; do
		cli=$PWD/build/gpu/$b/batchlas
		step "ab-$b-$turn" 30 "$PWD" "$cli" bench -suite cholesky-gpumode -arms auto -cases 'n=128/batch=256$' -count 5 -time 20ms
		step "sat-$b-$turn" 60 "$PWD" bash -c "for u in L U; do for nb in 128/256 128/4096 256/256 256/4096 96/4096; do
			'$cli' bench potrf -dtype float32 -uplo \$u -n \${nb%/*} -batch \${nb#*/} -arms native:cta -count 5 -time 50ms
		done; done
			'$cli' bench potrf -dtype float32 -uplo U -n 64 -batch 1024 -arms native:warp,native:cta -count 5 -time 50ms
			'$cli' bench potrf -dtype float32 -uplo U -n 256 -batch 64 -arms native:tiled:prec=tf32x3,native:cta -count 5 -time 50ms"
	done
done
grep -H "^| potrf" "$L"/ab-*.log
grep -HE "^Benchmark" "$L"/sat-*.log
call_report
exit 0
