# device-steps.sh is sourced by a session's call script on the GPU machine
# (from the repository root, $OUT set by the device tool). It gives
#
#   step NAME LIMIT DIR COMMAND...
#
# which runs COMMAND in DIR for at most LIMIT seconds, or what is left of
# the call's BUDGET (default 570 s, under the device's 600 s limit), into
# $OUT/logs/NAME.log with its exit status on the last line ("rc N"), and
# after each step packs $OUT/logs into $OUT/logs.tgz: the device sends back
# a limited number of files, and a call cut off still returns what finished.
# A step with under 15 s left is skipped and says so. $L is the log folder;
# stages.txt lists each step's start. step_to_end (below) is the same for a
# command that may take whatever is left and must stop cleanly; record,
# stop_if_failed, posv_checks, posv_tests, potrf_checks, potrf_tests,
# potrf_race, vendor_tests, timing_and_race, posv_turns, cli_turns,
# call_report, call_part, suite_and_tune, gpumode_suite, gpumode_mids,
# h200_pending, h200_only, tune_op, tune_potrf, tune_turns and the tiled_
# functions (at the end) are what the calls' scripts share.
# The kernel cache is build/kcache, kept between calls on a warm machine.
L=$OUT/logs
mkdir -p "$L"
: "${BUDGET:=570}"
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-$PWD/build/kcache}
step() {
	local name=$1 limit=$2 dir=$3
	shift 3
	local left=$((BUDGET - SECONDS))
	[ "$left" -lt "$limit" ] && limit=$left
	echo "=== $name $(date +%T) ${SECONDS}s limit ${limit}s" >>"$L/stages.txt"
	run_step "$name" "$dir" "$limit" "-s TERM" "$@"
}

# step_to_end NAME DIR COMMAND... is step with the rest of the BUDGET, less
# 10 s, as its limit and SIGINT, not SIGTERM, at the end (SIGKILL 20 s
# later): batchlas tune then finishes the point it is measuring, so its
# journal ends on whole points and its tables are written.
step_to_end() {
	local name=$1 dir=$2
	shift 2
	local left=$((BUDGET - 10 - SECONDS))
	echo "=== $name $(date +%T) ${SECONDS}s to the end, ${left}s" >>"$L/stages.txt"
	run_step "$name" "$dir" "$left" "-s INT -k 20" "$@"
}

# run_step NAME DIR LIMIT TIMEOUT_OPTIONS COMMAND...: the part both share,
# COMMAND under timeout with those options (one word list); a LIMIT under
# 15 s skips the step.
run_step() {
	local name=$1 dir=$2 limit=$3 opts=$4
	shift 4
	if [ "$limit" -lt 15 ]; then
		echo "skipped: no time" >"$L/$name.log"
		return
	fi
	# shellcheck disable=SC2086 # opts is a list of options
	(cd "$dir" && timeout $opts "$limit" "$@" >"$L/$name.log" 2>&1; echo "rc $?" >>"$L/$name.log")
	tar -C "$OUT" -czf "$OUT/logs.tgz" logs
}

# record DIR writes the card (name, driver, clocks) to $L/gpu.txt and the
# build's commit file (scripts/device-build) to $L/commit.txt, and sets B to
# DIR, the folder the steps run binaries from.
record() {
	B=$1
	nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >"$L/gpu.txt" 2>&1
	cp "$B/commit" "$L/commit.txt"
}

# stop_if_failed NAME... ends the call's budget when one of those steps'
# logs shows a failed test, a panic, an exit status other than 0 or no test
# run at all (session 68's call8.sh raced nothing: a -test.run pattern
# with a slash inside its parentheses). Name the checks only: in session 56 a
# warm-up (a resources test compiling a cold cache) ran out of its time,
# and a guard over every log stopped the call.
stop_if_failed() {
	local name
	for name in "$@"; do
		if grep -qE "^(--- FAIL|FAIL)|panic|^rc [1-9]|no tests to run" "$L/$name.log"; then
			echo "$name failed or ran out: the steps after this are skipped" >>"$L/stages.txt"
			BUDGET=0
			return
		fi
	done
}

# posv_checks DIR UPLO runs DIR's posv.test at n ≤ 32 (TestPosv's cases in
# every type and both triangles, Posv and Potrs, with TestShape,
# TestArguments, TestSolveApart, TestConformance and the tests TESTS names)
# for TESTS_LIMIT s, and racecheck on TestPosv's float32 and complex128
# cases of UPLO (Lower, Upper or (Lower|Upper)) at n = 31 and 32 for
# RACE_LIMIT s, then ends the call's budget if either failed. TESTS_LIMIT
# is 150 by default because a fresh machine compiles the kernels first: in
# session 65's call 1 TestKernelResources, which compiles every kernel of
# the package, took 75.5 s, and TestPosv's cases 45.5 s after it.
posv_checks() {
	local dir=$1 uplo=$2
	posv_tests tests "$dir"
	step racecheck "${RACE_LIMIT:-80}" "$PWD/internal/gpu/posv" /usr/local/cuda/bin/compute-sanitizer --tool racecheck \
		--error-exitcode 9 "$dir/posv.test" -test.run "^TestPosv\$/^(float32|complex128)\$/^$uplo\$/^n=(32|31)\$"
	stop_if_failed tests racecheck
}

# posv_tests NAME DIR is posv_checks' tests alone, logged as step NAME.
posv_tests() {
	local name=$1 dir=$2 small='([1-9]|[12][0-9]|3[0-2])'
	step "$name" "${TESTS_LIMIT:-150}" "$PWD/internal/gpu/posv" "$dir/posv.test" -test.v \
		-test.run "^(TestShape|TestArguments|TestSolveApart|TestConformance${TESTS:+|$TESTS})\$|^TestPosv\$/.*/.*/^n=$small\$"
}

# potrf_checks DIR runs DIR's potrf.test: every test of the package but
# the timings (TestPotrf and the warp and CTA tiers' tests in every type
# and both triangles, their failure, conformance and resource tests) for
# TESTS_LIMIT s (200 by default; session 63's call 4 took 151 s on a warm
# cache), then potrf_race DIR, then ends the call's budget if either
# failed.
potrf_checks() {
	local dir=$1
	potrf_tests tests "$dir"
	potrf_race "$dir"
	stop_if_failed tests racecheck
}

# potrf_tests NAME DIR is potrf_checks' tests alone, logged as step NAME.
potrf_tests() {
	step "$1" "${TESTS_LIMIT:-200}" "$PWD/internal/gpu/potrf" "$2/potrf.test" -test.v -test.skip 'Timing$|^TestRegVariants$'
}

# potrf_race DIR [RUN] runs racecheck on DIR's TestPotrf, the subtests the
# -test.run pattern RUN names (by default its float32 and complex128 cases
# n = 31 and 32 in both triangles), for RACE_LIMIT s (120; too few for the
# default's complex128 cases: session 72's call 5 on an H200 was cut at
# 300 s in the last of them, complex128 Upper n = 32).
# Each level of a -test.run pattern is matched alone: session 63's call 4
# and session 68's call 4 raced 'TestPotrf$/(float32/(Upper|Lower)/n=32|…)$',
# which matches no subtest.
potrf_race() {
	step racecheck "${RACE_LIMIT:-120}" "$PWD/internal/gpu/potrf" /usr/local/cuda/bin/compute-sanitizer --tool racecheck \
		--error-exitcode 9 "$1/potrf.test" -test.v -test.run "${2:-^TestPotrf\$/^(float32|complex128)\$/^(Upper|Lower)\$/^n=(31|32)\$}"
}

# vendor_tests DIR runs the cuda package's TestVendor* (the vendor libraries'
# wrappers, cuBLAS's products among them, on the GPU) by DIR's cuda.test and
# prints their verdicts.
vendor_tests() {
	step vendor 90 "$PWD/internal/cuda" "$1/cuda.test" -test.v -test.run '^TestVendor'
	grep -hE '^--- |^(ok|FAIL|PASS)' "$L/vendor.log"
}

# timing_and_race POTRF_DIR POSV_DIR runs potrf's timing tests (Timing$) by
# POTRF_DIR's potrf.test and TestPosvTiming by POSV_DIR's posv.test, then
# racecheck on TestPotrf complex128 Upper n = 32 by POTRF_DIR's with what
# is left of the budget, and prints the timing lines and verdicts.
timing_and_race() {
	step timing 200 "$PWD/internal/gpu/potrf" "$1/potrf.test" -test.v -test.run 'Timing$'
	step posv-timing 120 "$PWD/internal/gpu/posv" "$2/posv.test" -test.v -test.run '^TestPosvTiming$'
	RACE_LIMIT=$((BUDGET - SECONDS - 20)) potrf_race "$1" '^TestPotrf$/^complex128$/^Upper$/^n=32$'
	grep -hE 'vendor/native|^--- |^(ok|FAIL|PASS)' "$L/timing.log" "$L/posv-timing.log"
}

# posv_turns ROWS FLAGS RUN... times TestPosvTiming's subtests that ROWS (a
# -test.run expression) matches, with the test flags FLAGS (one word, or ""),
# by builds in turns: each RUN is BUILD-TURN, build/gpu/BUILD/posv.test
# logged to timing-RUN.log, which scripts/posv-ab tables.
posv_turns() {
	local rows=$1 flags=$2 run
	shift 2
	for run in "$@"; do
		# shellcheck disable=SC2086 # flags is one word or none
		step "timing-$run" 70 "$PWD/internal/gpu/posv" "$PWD/build/gpu/${run%-*}/posv.test" -test.v $flags -test.run "$rows"
	done
}

# cli_turns NAME LIMIT BUILDS SCRIPT runs the bash SCRIPT (one word) with
# $cli the CLI of each build of BUILDS (one word, build/gpu/BUILD) in turns,
# two turns, each a step NAME-BUILD-TURN of at most LIMIT s, then prints
# their benchmark lines: an A/B of builds in one call, the turns showing the
# card's drift.
cli_turns() {
	local name=$1 limit=$2 builds=$3 script=$4 turn b
	for turn in 1 2; do
		for b in $builds; do
			step "$name-$b-$turn" "$limit" "$PWD" env cli="$PWD/build/gpu/$b/batchlas" bash -c "$script"
		done
	done
	grep -HE "^Benchmark" "$L/$name"-*.log
}

# call_report prints what a call left (the card, each step's start and
# status, the tests' verdicts and racecheck's summary, the suite's potrf
# rows, the rows of the potrf, potrs and posv tables in $L/t-*),
# then packs the logs into $OUT/logs.tgz and removes them: the device
# returns at most eight files.
call_report() {
	cat "$L/gpu.txt" "$L/stages.txt"
	grep -H "^rc " "$L"/*.log
	grep -hsE "RACECHECK SUMMARY|^(--- FAIL|FAIL|ok|PASS)|^--- PASS: Test" "$L/tests.log" "$L/racecheck.log"
	[ -f "$L/suite.log" ] && grep -E "^\| (potrf|geomean)" "$L/suite.log"
	local f
	for f in "$L"/t-*/{potrf,potrs,posv}.*.txt; do
		[ -f "$f" ] && grep -E "^[LU] " "$f" | cut -c1-110
	done
	tar -C "$OUT" -czf "$OUT/logs.tgz" logs && rm -rf "$L"
}

# call_part [OTHER] prints the part a two-part call runs and notes it in
# stages.txt: PART if set, else suite on an H200 (the tables under tuned/
# are its) and OTHER (posv by default) elsewhere.
call_part() {
	local part=${1:-posv}
	grep -q H200 "$L/gpu.txt" && part=suite
	part=${PART:-$part}
	echo "part $part" >>"$L/stages.txt"
	echo "$part"
}

# suite_and_tune DTYPE N... is a call's suite part: on an H200 only
# (h200_only), the cholesky-gpumode suite whole by $B's CLI against both
# vendor arms, then tune_gpumode DTYPE N....
suite_and_tune() {
	h200_only
	gpumode_suite
	tune_gpumode "$@"
}

# gpumode_suite runs the cholesky-gpumode suite whole by $B's CLI, the
# vendor's arms beside auto (157–158 s on the H200 in sessions 55 and 67).
gpumode_suite() {
	step suite 240 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
}

# gpumode_mids runs the cholesky-gpumode suite's batched mid cases (n = 512 at
# 640 matrices, 1024 at 60, 2048 at 8, 4096 at 2) by $B's CLI with every
# native candidate that can run them and auto: the tables have no row at
# 640 or 60 matrices, and the route takes the nearest.
gpumode_mids() {
	local arms=native:tiled,native:tiled:prec=tf32x3,native:tiled:occ=4,native:tiled:occ=4:prec=tf32x3
	arms+=,native:tiled:occ=3:prec=tf32x3,native:blocked,native:blocked:prec=tf32x3
	arms+=,native:blocked:panels=tiled:prec=tf32x3,auto
	step mids 150 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode \
		-cases 'n=(512/batch=640|1024/batch=60|2048/batch=8|4096/batch=2)$' -arms "$arms" -count 3 -time 100ms
}

# h200_only ends the call's budget (every later step is skipped) unless the
# card is an H200: the tables under tuned/ are the H200's, and an H100 is
# also sm_90, so its measures must never reach them.
h200_only() {
	grep -q H200 "$L/gpu.txt" || {
		echo "not an H200: the steps after this are skipped" >>"$L/stages.txt"
		BUDGET=0
	}
}

# tune_op NAME LIMIT OP FLAGS... is one `batchlas tune OP` by $B's CLI,
# 20 ms × 3 a candidate, its tables and journal in $L/NAME, for LIMIT s
# (step) or, where LIMIT is "end", to the end of the budget (step_to_end);
# FLAGS name the types, triangles, orders, batches.
tune_op() {
	local name=$1 limit=$2 op=$3
	shift 3
	set -- "$B/batchlas" tune "$op" --device cuda:0 --time 20ms --count 3 "$@" --out "$L/$name"
	if [ "$limit" = end ]; then
		step_to_end "$name" "$PWD" "$@"
	else
		step "$name" "$limit" "$PWD" "$@"
	fi
}

# tune_potrf NAME FLAGS... is tune_op NAME end potrf in both triangles.
tune_potrf() {
	local name=$1
	shift
	tune_op "$name" end potrf --uplo L,U "$@"
}

# tune_turns LIMIT OP RUNS FLAGS... is tune_op tp-RUN LIMIT OP FLAGS... by
# builds in turns: each RUN of RUNS (one word) is BUILD-TURN, the CLI of
# build/gpu/BUILD. scripts/posv-ab tables native:fused's rows.
tune_turns() {
	local limit=$1 op=$2 runs=$3 run
	shift 3
	for run in $runs; do
		B=$PWD/build/gpu/${run%-*} tune_op "tp-$run" "$limit" "$op" "$@"
	done
}

# tiled_checks runs, by $B's cholblocked.test, cholblocked's tiled and
# resource tests and racecheck on six of TestPotrfTiled's cases (3xTF32
# Upper, exact Lower, and both triangles by the 3xTF32 kernels for three
# and for four blocks a multiprocessor, n = 97), and skips the call's later
# steps if one fails:
# what a change to chol_tiled must pass before it is timed.
tiled_checks() {
	local dir=$PWD/internal/gpu/cholblocked cs=/usr/local/cuda/bin/compute-sanitizer
	tiled_tests tests
	step race-split-U 60 "$dir" $cs --tool racecheck --error-exitcode 9 "$B/cholblocked.test" \
		-test.short -test.v -test.run 'TestPotrfTiled/^float32$/^3xTF32$/^Upper$/^n=97$'
	step race-exact-L 60 "$dir" $cs --tool racecheck --error-exitcode 9 "$B/cholblocked.test" \
		-test.short -test.v -test.run 'TestPotrfTiled/^float32$/^Lower$/^n=97$'
	step race-occ3 90 "$dir" $cs --tool racecheck --error-exitcode 9 "$B/cholblocked.test" \
		-test.short -test.v -test.run 'TestPotrfTiled/^float32$/^3xTF32$/^occ=3$/^(Lower|Upper)$/^n=97$'
	step race-occ4 90 "$dir" $cs --tool racecheck --error-exitcode 9 "$B/cholblocked.test" \
		-test.short -test.v -test.run 'TestPotrfTiled/^float32$/^3xTF32$/^occ=4$/^(Lower|Upper)$/^n=97$'
	stop_if_failed tests race-split-U race-exact-L race-occ3 race-occ4
}

# tiled_tests NAME is tiled_checks' tests alone, by $B's cholblocked.test,
# logged as step NAME.
tiled_tests() {
	step "$1" 200 "$PWD/internal/gpu/cholblocked" "$B/cholblocked.test" -test.v -test.short \
		-test.run '^(TestKernelResources|TestPotrfTiled|TestConformanceTiled|TestAccuracyTiled|TestPrefixTasks|TestSplitStages|TestConformance)$'
}

# tiled_turns HEAD times the cholesky-gpumode suite's chol_tiled cases and
# n = 16384 (the blocked driver's tiled panels), the auto arm, by HEAD's CLI
# and $B's in turns, two runs each (suite-head-N.log, suite-cand-N.log).
tiled_turns() {
	local head=$1 r
	local cases='n=(256/batch=64|512/batch=(16|640)|1024/batch=(4|60)|2048/batch=(2|8)|4096/batch=(1|2)|8192/batch=1|16384/batch=1)$'
	for r in 1 2; do
		step suite-head-$r 80 "$PWD" "$head/batchlas" bench -suite cholesky-gpumode -arms auto -cases "$cases" -count 3 -time 300ms
		step suite-cand-$r 80 "$PWD" "$B/batchlas" bench -suite cholesky-gpumode -arms auto -cases "$cases" -count 3 -time 300ms
	done
}

# tiled_report prints what tiled_checks and tiled_turns left: each step's
# status, the tests' verdicts, racecheck's summaries and the suite tables.
tiled_report() {
	cat "$L/gpu.txt" "$L/stages.txt"
	grep -H "^rc " "$L"/*.log
	grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic| [1-9][0-9]* B (local|stack)" "$L/tests.log" | head -12
	grep -h "SUMMARY\|^ok\|^PASS\|^FAIL\|hazard\|--- PASS: .*n=97" "$L"/race-*.log | tail -18
	local f
	for f in "$L"/suite-*.log; do
		echo "== $f"
		grep -E "^\| " "$f"
	done
}

# tune_gpumode DTYPE N... runs tune_potrf (t-DTYPE-N) for each order N on
# the batch grid the tables use, GPU MODE's inputs, at most 256 MiB a
# repetition, each to the end of the budget.
tune_gpumode() {
	local dtype=$1 n
	shift
	for n in "$@"; do
		tune_potrf "t-$dtype-$n" --dtype "$dtype" --n "$n" \
			--batch 1,2,4,8,16,64,256,1024,4096,16384,65536 --max-mib 256 --inputs gpumode
	done
}

# h200_pending is what no H200 ran between sessions 67 and 72 (session
# 72's call 1 ran it), by $B's CLI: the cholesky-gpumode suite whole
# (gpumode_suite), then the tuned/ rows that sessions 67 and 68's kernels
# changed, merged later by scripts/merge-tuned: float32 posv n = 64 in both
# triangles (t-posv64; posv_split since session 68) and Lower potrs n = 8,
# 16, 32 in float32, complex64 and complex128 (t-potrs, Lower forms of
# potrs_reg since session 67; to the end of the budget).
h200_pending() {
	gpumode_suite
	tune_op t-posv64 70 posv --uplo L,U --dtype float32 --n 64 --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 2048
	tune_op t-potrs end potrs --uplo L --dtype float32,complex64,complex128 --n 8,16,32 --nrhs 1,4,16 \
		--max-mib 2048 --batch 1024,16384,65536
}
