#!/usr/bin/env bash
# Session 70's call 1, one part by card (call_part). Built here at HEAD (1aa54a2: the kernels of 5aa3538) by
#   scripts/device-build build/gpu/s70 posv:./internal/gpu/posv potrf:./internal/gpu/potrf cholblocked:./internal/gpu/cholblocked
#   scripts/device-build build/gpu/s70e -p bench/results/h200/session69/eager.patch posv:./internal/gpu/posv potrf:./internal/gpu/potrf
#   scripts/device-build build/gpu/s70r -p bench/results/h200/session70/plain.patch potrf:./internal/gpu/potrf
# and packed: for b in s70 s70e s70r; do tar -C build/gpu -cJf build/gpu/$b.tar.xz $b; done
# carry ["build/gpu/s70.tar.xz", "build/gpu/s70e.tar.xz", "build/gpu/s70r.tar.xz"] (xz: three builds within the
# carry's 64 MiB).
# Every card first: HEAD (s70), session 69's eager pivots (s70e) and potrf_reg's plain loop (s70r: no failure
# state in the loop, the failing pivot found again after it) in turns, two turns each: the suite's auto arm at
# n32 b4096, n64 b1024 and n128 b256, then float32 at saturating batches by each tier.
#  - suite (an H200): the cholesky-gpumode suite whole by s70 (HEAD, against both vendor arms), then the float32
#    posv rows n = 64 (t-posv64) and the Lower potrs rows n = 8, 16, 32 of float32, complex64 and complex128
#    (t-potrs, to the end) for tuned/ by s70.
#  - any other card: s70r's potrf tests (every one but the timings) and racecheck (potrf_checks), then s70e's.
for b in s70 s70e s70r; do tar -C build/gpu -xJf "build/gpu/$b.tar.xz"; done
. scripts/device-steps.sh
record "$PWD/build/gpu/s70"
cat "$PWD/build/gpu/s70e/commit" >"$L/commit-s70e.txt"
cat "$PWD/build/gpu/s70r/commit" >"$L/commit-s70r.txt"
for turn in 1 2; do
	for b in s70 s70e s70r; do
		cli=$PWD/build/gpu/$b/batchlas
		step "ab-$b-$turn" 40 "$PWD" "$cli" bench -suite cholesky-gpumode -arms auto \
			-cases 'n=(32/batch=4096|64/batch=1024|128/batch=256)$' -count 5 -time 20ms
		step "sat-$b-$turn" 45 "$PWD" bash -c "
			'$cli' bench potrf -dtype float32 -uplo U -n 32 -batch 65536 -arms native:tiny -count 5 -time 50ms
			'$cli' bench potrf -dtype float32 -uplo L -n 16 -batch 262144 -arms native:tiny -count 5 -time 50ms
			'$cli' bench potrf -dtype float32 -uplo U -n 64 -batch 65536 -arms native:warp -count 5 -time 50ms
			'$cli' bench potrf -dtype float32 -uplo U -n 48 -batch 65536 -arms native:warp -count 5 -time 50ms
			'$cli' bench potrf -dtype float32 -uplo U -n 128 -batch 4096 -arms native:cta -count 5 -time 50ms"
	done
done
grep -H "^| potrf" "$L"/ab-*.log
grep -HE "^Benchmark" "$L"/sat-*.log
case $(call_part other) in
suite)
	lower=(--uplo L --dtype float32,complex64,complex128 --n 8,16,32 --nrhs 1,4,16 --max-mib 2048 --batch 1024,16384,65536)
	gpumode_suite
	tune_op t-posv64 70 posv --uplo L,U --dtype float32 --n 64 --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 2048
	tune_op t-potrs end potrs "${lower[@]}"
	;;
other)
	potrf_checks "$PWD/build/gpu/s70r"
	grep -hE "^(--- FAIL|FAIL|ok|PASS)|^--- PASS: Test|panic|RACECHECK SUMMARY" "$L/tests.log" "$L/racecheck.log"
	step tests-s70e 150 "$PWD/internal/gpu/potrf" "$PWD/build/gpu/s70e/potrf.test" -test.v -test.skip 'Timing$|^TestRegVariants$'
	grep -hE "^(--- FAIL|FAIL|ok|PASS)|^--- PASS: Test|panic" "$L/tests-s70e.log"
	;;
esac
call_report
exit 0
