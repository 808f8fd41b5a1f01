#!/usr/bin/env bash
# Session 71, call 2, one part by card (call_part). Builds as in call1.sh's header, and s71o, the kernels before
# session 70's eager pivots (9a3023a~1 = 1aa54a2), by
#   scripts/device-build build/gpu/s71o -r 9a3023a~1 potrf:./internal/gpu/potrf
#   tar -C build/gpu -cJf build/gpu/s71o.tar.xz s71o
# carry ["build/gpu/s71.tar.xz", "build/gpu/s71o.tar.xz"].
#  - suite (an H200): the cholesky-gpumode suite whole (gpumode_suite: sessions 67, 68 and 70's kernels, none yet in
#    a whole H200 run) and the tuned/ re-measures session 70 prepared (its call1.sh's suite part), both by s71: the
#    float32 posv rows n = 64 (t-posv64, both triangles) and the Lower potrs rows n = 8, 16, 32 of float32,
#    complex64 and complex128 (t-potrs, to the end), merged into tuned/ by scripts/merge-tuned --uplo L.
#  - any other card: the eager pivots (9a3023a) for the types session 70 did not time: s71 and s71o in turns on
#    float64, complex64 and complex128 by native:tiny (potrf_reg, n = 32 at 16,384) and native:cta (n = 128 at 256
#    and 4,096), both triangles.
for b in s71 s71o; do [ -d "build/gpu/$b" ] || tar -C build/gpu -xJf "build/gpu/$b.tar.xz"; done
. scripts/device-steps.sh
record "$PWD/build/gpu/s71"
cat "$PWD/build/gpu/s71o/commit" >"$L/commit-s71o.txt"
case $(call_part other) in
suite)
	lower=(--uplo L --dtype float32,complex64,complex128 --n 8,16,32 --nrhs 1,4,16 --max-mib 2048 --batch 1024,16384,65536)
	gpumode_suite
	tune_op t-posv64 70 posv --uplo L,U --dtype float32 --n 64 --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 2048
	tune_op t-potrs end potrs "${lower[@]}"
	;;
other)
	for turn in 1 2; do
		for b in s71 s71o; do
			cli=$PWD/build/gpu/$b/batchlas
			step "eager-$b-$turn" 100 "$PWD" bash -c "for d in float64 complex64 complex128; do for u in U L; do
				'$cli' bench potrf -dtype \$d -uplo \$u -n 32 -batch 16384 -arms native:tiny -count 5 -time 50ms
				'$cli' bench potrf -dtype \$d -uplo \$u -n 128 -batch 256 -arms native:cta -count 5 -time 50ms
				'$cli' bench potrf -dtype \$d -uplo \$u -n 128 -batch 4096 -arms native:cta -count 5 -time 50ms
			done; done"
		done
	done
	grep -HE "^Benchmark" "$L"/eager-*.log
	;;
esac
call_report
exit 0
