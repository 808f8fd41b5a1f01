#!/usr/bin/env bash
# Prepared in session 60 for the next device session (written as its call 6, which never started: every later
# request was refused and the device time ran out). factor_quarters in the four-block Lower kernel
# (quarters-lower.patch: QUARTERS for both triangles, factor_quarters<NT, TIGHT> with TIGHT for Lower; measured in
# calls 4 and 5's lab, not landed for want of the GPU tests), built by
#   scripts/device-build build/gpu/s61c -p bench/results/h200/session60/quarters-lower.patch cholblocked:./internal/gpu/cholblocked
#   scripts/device-build build/gpu/s61h        (HEAD's CLI, the base)
# with the patch applied to the working tree too (git apply bench/results/h200/session60/quarters-lower.patch: lab/
# eager4.py edits the tree's blocked.cu), carry ["build/gpu/s61c", "build/gpu/s61h"], timeout_s 600; kind
# nvidia-h200 if one is lent, else any:
#  1. tiled_checks: cholblocked's tiled and resource tests, racecheck (now also the four-block 3xTF32 kernels' n = 97
#     cases, both triangles);
#  2. lab/eager4.py: the eager rsqrt in factor_quarters (both triangles' four-block kernels, with TIGHT);
#  then on an H200 (the tables' card; none lent in sessions 57 to 60):
#  3. float32 re-tuned at n = 4096, 2048, 8192, both triangles (the three-block candidate's rows, both triangles now,
#     and Lower's four-block ones), with the patched CLI;
#  4. the cholesky-gpumode suite whole through tuned/ with those rows merged (scripts/merge-tuned on a copy, read by
#     BATCHLAS_TUNED_DIR);
#  else (an H100):
#  3'. through the public Potrf, Lower, GPU MODE's inputs: the four-block candidates (3xTF32, whose factor changes,
#      and exact, whose SASS changes with its module) pinned, by the base's CLI and the patched one in turns.
# If the checks pass, land the patch (with the rows and the suite figure where an H200 ran it) and merge the t-*/
# tables with scripts/merge-tuned on the development machine.
. scripts/device-steps.sh
record "$PWD/build/gpu/s61c"
tiled_checks
step eager4 100 "$PWD" python3 bench/results/h200/session60/lab/eager4.py
if grep -q H200 "$L/gpu.txt"; then
	tune_gpumode float32 4096 2048 8192
	cp -r tuned /tmp/tuned60
	echo "Session 61 (device-side): float32 n = 4096, 2048 and 8192 measured again on the H200 (this call's device-side merge, for its suite run only)." >/tmp/note60
	for n in 4096 2048 8192; do
		[ -s "$L/t-float32-$n/potrf.float32.sm_90.txt" ] && srcs+=("$L/t-float32-$n/potrf.float32.sm_90.txt") && orders+=("$n")
	done
	if [ "${#srcs[@]}" -gt 0 ]; then
		python3 scripts/merge-tuned --table /tmp/tuned60/potrf.float32.sm_90.txt --orders "$(IFS=,; echo "${orders[*]}")" \
			--session 61 --date "$(date +%F)" --note-file /tmp/note60 "${srcs[@]}" >"$L/merge.log" 2>&1
		step suite 200 "$PWD" env BATCHLAS_TUNED_DIR=/tmp/tuned60 "$B/batchlas" bench -suite cholesky-gpumode \
			-arms vendor,vendor:transposed,auto
	fi
	tiled_report
	grep -v "^compiled" "$L/eager4.log" | tail -22
	cat "$L/merge.log"
	grep -E "^\| (potrf|geomean)" "$L/suite.log"
	for f in "$L"/t-*/potrf.*.txt; do grep -E "^[LU] " "$f" | cut -c1-110; done
	exit 0
fi
cases="512x640 1024x60 2048x8 4096x2 8192x1"
for r in 1; do
	for c in $cases; do
		for b in s61h s61c; do
			step "$b-$c-$r" 30 "$PWD" "build/gpu/$b/batchlas" bench potrf -dtype float32 -uplo L -inputs gpumode -n "${c%x*}" \
				-batch "${c#*x}" -arms native:tiled:occ=4:prec=tf32x3,native:tiled:occ=4 -count 3 -time 300ms
		done
	done
done
tiled_report
grep -v "^compiled" "$L/eager4.log" | tail -22
for r in 1; do for c in $cases; do for b in s61h s61c; do
	echo "$b $r $(grep -E '^\| potrf' "$L/$b-$c-$r.log" | tr -s ' ')"
done; done; done
