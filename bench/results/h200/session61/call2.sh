#!/usr/bin/env bash
# Session 61, call 2: the eager rsqrt in factor_quarters, both four-block 3xTF32 kernels with TIGHT (eager4.patch on
# 71d8047; session 60's lab/eager4.py, call 1 here: Lower 1.2–3.8 % faster, Upper up to 3.9 %, bit-equal). Built by
#   scripts/device-build build/gpu/s61e -p bench/results/h200/session61/eager4.patch cholblocked:./internal/gpu/cholblocked
# (s61c, call 1's build, is 71d8047's code: the base); carry ["build/gpu/s61c", "build/gpu/s61e"]:
#  1. tiled_checks with the patch;
#  2. through Potrf, GPU MODE's inputs, both triangles, the four-block 3xTF32 candidate pinned at the suite's five
#     four-block cases, by the base and the patch in turns;
#  3. on an H200: float32 n = 4096, 2048, 8192 re-tuned with the patch (t-*/), then the suite with them merged
#     (device-side, BATCHLAS_TUNED_DIR); on an H100: the suite whole by the patch (auto: the tables' routes).
. scripts/device-steps.sh
record "$PWD/build/gpu/s61e"
tiled_checks
cases="512x640 1024x60 2048x8 4096x2 8192x1"
for u in U L; do
	for c in $cases; do
		for b in s61c s61e; do
			step "$b-$u-$c" 30 "$PWD" "build/gpu/$b/batchlas" bench potrf -dtype float32 -uplo $u -inputs gpumode -n "${c%x*}" \
				-batch "${c#*x}" -arms native:tiled:occ=4:prec=tf32x3 -count 3 -time 300ms
		done
	done
done
if grep -q H200 "$L/gpu.txt"; then
	tune_gpumode float32 4096 2048 8192
	cp -r tuned /tmp/tuned61
	echo "Session 61 (device-side): float32 n = 4096, 2048 and 8192 measured again on the H200 (this call's device-side merge, for its suite run only)." >/tmp/note61
	for n in 4096 2048 8192; do
		[ -s "$L/t-float32-$n/potrf.float32.sm_90.txt" ] && srcs+=("$L/t-float32-$n/potrf.float32.sm_90.txt") && orders+=("$n")
	done
	if [ "${#srcs[@]}" -gt 0 ]; then
		python3 scripts/merge-tuned --table /tmp/tuned61/potrf.float32.sm_90.txt --orders "$(IFS=,; echo "${orders[*]}")" \
			--session 61 --date "$(date +%F)" --note-file /tmp/note61 "${srcs[@]}" >"$L/merge.log" 2>&1
		step suite 200 "$PWD" env BATCHLAS_TUNED_DIR=/tmp/tuned61 "$B/batchlas" bench -suite cholesky-gpumode \
			-arms vendor,vendor:transposed,auto
	fi
	cat "$L/merge.log"
	for f in "$L"/t-*/potrf.*.txt; do grep -E "^[LU] " "$f" | cut -c1-110; done
else
	step suite 240 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
fi
tiled_report
for u in U L; do for c in $cases; do for b in s61c s61e; do
	echo "$b $u $(grep -E '^\| potrf' "$L/$b-$u-$c.log" | tr -s ' ')"
done; done; done
grep -E "^\| (potrf|geomean)" "$L/suite.log"
