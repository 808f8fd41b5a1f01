#!/usr/bin/env bash
# Session 71, call 4, one part by card (call_part); builds and carry as call2.sh's header.
#  - suite (an H200): call2.sh's suite part (the suite whole and the tuned/ re-measures), which call 2 did not reach
#    (it ran on an H100).
#  - any other card: call 2 found the eager pivots 3.8 % slower at float64 Lower n = 32 (potrf_reg); s71 and s71o in
#    turns on float64 Lower and Upper n = 8, 16, 24, 32 at 65,536 matrices, to see whether that is one order or
#    the float64 Lower kernels.
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
			step "f64-$b-$turn" 100 "$PWD" bash -c "for u in L U; do for n in 8 16 24 32; do
				'$cli' bench potrf -dtype float64 -uplo \$u -n \$n -batch 65536 -arms native:tiny -count 5 -time 50ms
			done; done"
		done
	done
	grep -HE "^Benchmark" "$L"/f64-*.log
	;;
esac
call_report
exit 0
