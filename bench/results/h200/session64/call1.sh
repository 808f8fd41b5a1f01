#!/usr/bin/env bash
# Session 64, call 1. Built here by (T, S, U: the patches below)
#   scripts/device-build build/gpu/s64 -p T posv:./internal/gpu/posv           (HEAD, 2fadb9f: CLI, posv.test)
#   scripts/device-build build/gpu/s64p -p T -p S posv:./internal/gpu/posv
#   scripts/device-build build/gpu/s64q -p T -p S -p U posv:./internal/gpu/posv
#   rm build/gpu/s64p/batchlas build/gpu/s64q/batchlas                          (the carry holds 64 MiB)
# T = session64/posv-timing-upper.patch (TestPosvTiming times Upper at n = 8, 16, 32 too: a test file only, the
# CLI is HEAD's), S = session63/posv-steps.patch (posv.cu's register kernels step their columns' copies by an
# opaque pointer), U = session64/posv-store.patch (store_upper bounds each lane's stores by one end and steps
# its pointer). carry ["build/gpu/s64", "build/gpu/s64p", "build/gpu/s64q"], any card.
#  On an H200 (PART=suite, the default there): session 63's next-call.sh, the cholesky-gpumode suite whole by HEAD's
#  CLI, then the float32 rows of n = 32, 4096, 2048 and 8192 to the end of the budget.
#  Elsewhere (PART=posv, the default): s64q's posv tests at n ≤ 32 (where posv_reg serves, every type, both
#  triangles, 1/4/16 right-hand sides) with TestKernelResources (no local memory) and TestConformance, racecheck
#  on eight of TestPosv's cases, then TestPosvTiming's n = 8, 16, 32 rows (float32 and float64, both triangles,
#  65,536 matrices, 1/4/16 right-hand sides) by the three builds in turns (s64q, s64p, s64, then s64q and s64
#  again; session 23's float32 subtests at n = 48 and 64 took 4–7 s each, so 70 s a run).
#  With little device time: BUDGET, TESTS (the tests beside TestPosv's n ≤ 32), TESTS_LIMIT (130 s),
#  RACE_UPLO=Upper RACE_LIMIT=60 (racecheck on Upper's four cases only, the triangle both patches change most),
#  and RUNS (the timed runs, BUILD-TURN, "s64q-1 s64p-1 s64-1 s64q-2 s64-2").
#  Last, either way, the device's NVRTC packed for the development machine (scripts/device-nvrtc pack: each
#  session's starts without it), unless PACK=0.
. scripts/device-steps.sh
record "$PWD/build/gpu/s64"
H=$PWD/build/gpu/s64 P=$PWD/internal/gpu/posv CS=/usr/local/cuda/bin/compute-sanitizer
[ "${PACK:-1}" = 1 ] && BUDGET=$((BUDGET - 25)) # the pack's time
part=${PART:-posv}
grep -q H200 "$L/gpu.txt" && part=${PART:-suite}
echo "part $part" >>"$L/stages.txt"
if [ "$part" = suite ]; then
	h200_only
	step suite 240 "$PWD" "$H/batchlas" bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
	tune_gpumode float32 32 4096 2048 8192
else
	B=$PWD/build/gpu/s64q
	cp "$PWD/build/gpu/s64p/commit" "$L/commit-s64p.txt"
	cp "$B/commit" "$L/commit-s64q.txt"
	small='([1-9]|[12][0-9]|3[0-2])'
	step tests "${TESTS_LIMIT:-130}" "$P" "$B/posv.test" -test.v -test.run "^(${TESTS:-TestKernelResources|TestShape|TestArguments|TestSolveApart|TestConformance})\$|^TestPosv\$/.*/.*/^n=$small\$"
	step racecheck "${RACE_LIMIT:-120}" "$P" $CS --tool racecheck --error-exitcode 9 "$B/posv.test" -test.run "^TestPosv\$/^(float32|complex128)\$/^${RACE_UPLO:-(Lower|Upper)}\$/^n=(32|31)\$"
	stop_if_failed tests racecheck
	rows='^TestPosvTiming$/^(float32|float64)$/^(n=(8|16|32)|Upper)$/^n=(8|16|32)$'
	for run in ${RUNS:-s64q-1 s64p-1 s64-1 s64q-2 s64-2}; do
		step "timing-$run" 70 "$P" "$PWD/build/gpu/${run%-*}/posv.test" -test.v -test.run "$rows"
	done
fi
cat "$L/gpu.txt" "$L/stages.txt"
grep -H "^rc " "$L"/*.log
grep -hsE "RACECHECK SUMMARY|ERROR SUMMARY|^(--- FAIL|FAIL|ok|PASS)|^--- PASS: Test" "$L"/tests.log "$L"/racecheck.log
grep -c "native" "$L"/timing-*.log 2>/dev/null # the figures are in logs.tgz
[ -f "$L/suite.log" ] && grep -E "^\| (potrf|geomean)" "$L/suite.log"
for f in "$L"/t-*/potrf.*.txt; do [ -f "$f" ] && grep -E "^[LU] " "$f" | cut -c1-110; done
[ "${PACK:-1}" = 1 ] && bash scripts/device-nvrtc pack >"$L/pack.log" 2>&1
tar -C "$OUT" -czf "$OUT/logs.tgz" logs && rm -rf "$L" # the device returns at most eight files
exit 0
