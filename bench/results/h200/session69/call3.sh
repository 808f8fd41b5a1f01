#!/usr/bin/env bash
# Session 69's call 3, any card: eager pivots (eager.patch: potrf_reg, potrf_cta's pivot_scale and, for float
# only, potrf_warp's warp_body and split_steps form the pivot's rsqrt, or divide, whatever the failure test gives
# and select after it, so that it is not predicated on the test; the same values). Built here by
#   scripts/device-build build/gpu/s69 posv:./internal/gpu/posv potrf:./internal/gpu/potrf cholblocked:./internal/gpu/cholblocked
#   scripts/device-build build/gpu/s69e -p bench/results/h200/session69/eager.patch posv:./internal/gpu/posv potrf:./internal/gpu/potrf
# carry ["build/gpu/s69/batchlas", "build/gpu/s69/commit", "build/gpu/s69e"].
#  1. The cholesky-gpumode suite's auto arm at n32 b4096, n64 b1024 and n128 b256 (potrf_reg, potrf_warp,
#     potrf_cta), then float32 at saturating batches by each tier (both triangles), by s69 and s69e in turns, two
#     turns each.
#  2. s69e's potrf tests (every one but the timings), then posv's tests of the orders that reach potrf's kernels.
# Not run in session 69 (no machine came; README). The commands above rebuild both builds at a later HEAD that
# the patch applies to (s69 is then that HEAD's kernels).
. scripts/device-steps.sh
record "$PWD/build/gpu/s69e"
cp "$PWD/build/gpu/s69/commit" "$L/commit-s69.txt"
for turn in 1 2; do
	for b in s69 s69e; do
		cli=$PWD/build/gpu/$b/batchlas
		step "suite-$b-$turn" 40 "$PWD" "$cli" bench -suite cholesky-gpumode -arms auto \
			-cases 'n=(32/batch=4096|64/batch=1024|128/batch=256)$' -count 5 -time 20ms
		step "sat-$b-$turn" 60 "$PWD" bash -c "for u in L U; do
			'$cli' bench potrf -dtype float32 -uplo \$u -n 32 -batch 65536 -arms native:tiny -count 5 -time 50ms
			'$cli' bench potrf -dtype float32 -uplo \$u -n 64 -batch 65536 -arms native:warp -count 5 -time 50ms
			'$cli' bench potrf -dtype float32 -uplo \$u -n 128 -batch 4096 -arms native:cta -count 5 -time 50ms
			'$cli' bench potrf -dtype float32 -uplo \$u -n 48 -batch 65536 -arms native:warp -count 5 -time 50ms
		done"
	done
done
grep -h "^| potrf" "$L"/suite-*.log
grep -hE "^Benchmark" "$L"/sat-*.log
step tests 200 "$PWD/internal/gpu/potrf" "$B/potrf.test" -test.v -test.skip 'Timing$|^TestRegVariants$'
stop_if_failed tests
step posv-tests 150 "$PWD/internal/gpu/posv" "$B/posv.test" -test.v -test.skip 'Timing$|^TestKernelResources$'
stop_if_failed posv-tests
grep -hE "^(--- FAIL|FAIL|ok|PASS)|^--- PASS: Test|panic" "$L/tests.log" "$L/posv-tests.log"
call_report
exit 0
