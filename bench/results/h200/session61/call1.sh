#!/usr/bin/env bash
# Session 61's call: session 60's next-call.sh (quarters-lower.patch checked, lab/eager4.py timed; on an H200 the
# float32 rows n = 4096, 2048, 8192 re-tuned and the suite run with them merged on the device) plus float32 n = 128 and 96:
# its rows from 64 matrices up never timed chol_tiled (session 9 timed it at 1 to 16 matrices, 44 µs against
# native:cta's 34.7, before sessions 17–58 shortened its chain), and n = 128 at 256 matrices is a suite case (native:cta,
# 40.8 µs in session 55's suite); n = 96's rows never timed it at all (both to 4,096 matrices). Built by
#   scripts/device-build build/gpu/s61c -p bench/results/h200/session60/quarters-lower.patch cholblocked:./internal/gpu/cholblocked
#   scripts/device-build build/gpu/s61h
# with the patch applied to the working tree; carry ["build/gpu/s61c", "build/gpu/s61h"].
. scripts/device-steps.sh
record "$PWD/build/gpu/s61c"
tiled_checks
step eager4 100 "$PWD" python3 bench/results/h200/session60/lab/eager4.py
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
	tune_potrf t-float32-128 --dtype float32 --n 128,96 --batch 256,64,1024,4096,1,2,4,8,16 --max-mib 256 --inputs gpumode
	tiled_report
	grep -v "^compiled" "$L/eager4.log" | tail -22
	cat "$L/merge.log"
	grep -E "^\| (potrf|geomean)" "$L/suite.log"
	for f in "$L"/t-*/potrf.*.txt; do grep -E "^[LU] " "$f" | cut -c1-110; done
	exit 0
fi
cases="512x640 1024x60 2048x8 4096x2 8192x1"
for c in $cases; do
	for b in s61h s61c; do
		step "$b-$c" 30 "$PWD" "build/gpu/$b/batchlas" bench potrf -dtype float32 -uplo L -inputs gpumode -n "${c%x*}" \
			-batch "${c#*x}" -arms native:tiled:occ=4:prec=tf32x3,native:tiled:occ=4 -count 3 -time 300ms
	done
done
for c in 128x64 128x256; do
	step "n128-$c" 30 "$PWD" build/gpu/s61c/batchlas bench potrf -dtype float32 -uplo U -inputs gpumode -n 128 \
		-batch "${c#*x}" -arms native:cta,native:tiled,native:tiled:prec=tf32x3,native:tiled:occ=3:prec=tf32x3,native:tiled:occ=4:prec=tf32x3 -count 3 -time 300ms
done
tiled_report
grep -v "^compiled" "$L/eager4.log" | tail -22
for c in $cases; do for b in s61h s61c; do
	echo "$b $(grep -E '^\| potrf' "$L/$b-$c.log" | tr -s ' ')"
done; done
for c in 128x64 128x256; do grep -E '^\| potrf' "$L/n128-$c.log" | tr -s ' '; done
