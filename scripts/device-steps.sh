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
# command that may take whatever is left and must stop cleanly.
L=$OUT/logs
mkdir -p "$L"
: "${BUDGET:=570}"
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
