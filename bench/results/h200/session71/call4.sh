#!/usr/bin/env bash
# Session 71, call 4 (builds and carry as call2.sh's header). On an H200: call2.sh itself, whose suite part (the
# suite whole and the tuned/ re-measures) call 2 did not reach (it ran on an H100). On any other card: call 2 found
# the eager pivots 3.8 % slower at float64 Lower n = 32 (potrf_reg); s71 and s71o in turns on float64 Lower and
# Upper n = 8, 16, 24, 32 at 65,536 matrices, to see whether that is one order or the float64 Lower kernels.
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && exec bash bench/results/h200/session71/call2.sh
for b in s71 s71o; do [ -d "build/gpu/$b" ] || tar -C build/gpu -xJf "build/gpu/$b.tar.xz"; done
. scripts/device-steps.sh
record "$PWD/build/gpu/s71"
cat "$PWD/build/gpu/s71o/commit" >"$L/commit-s71o.txt"
for turn in 1 2; do
	for b in s71 s71o; do
		cli=$PWD/build/gpu/$b/batchlas
		step "f64-$b-$turn" 100 "$PWD" bash -c "for u in L U; do for n in 8 16 24 32; do
			'$cli' bench potrf -dtype float64 -uplo \$u -n \$n -batch 65536 -arms native:tiny -count 5 -time 50ms
		done; done"
	done
done
grep -HE "^Benchmark" "$L"/f64-*.log
call_report
exit 0
