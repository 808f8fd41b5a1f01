#!/usr/bin/env bash
# cpu-f32-f64.sh compares float32 with float64 on the cpu arm, for the
# foundation issue's "float32 at least as fast as float64": bench runs one
# dtype per process, so the two alternate process by process (PAIRS pairs,
# float32 first, then float64 first), with a two-goroutine compute loop
# timed before each pair as a control for the second vCPU of this VM.
#
#   go build -o /tmp/batchlas ./cmd/batchlas && bench/cpu-f32-f64.sh /tmp/batchlas
set -euo pipefail
bin=${1:-batchlas}
pairs=${PAIRS:-3}
batch() { case $1 in 8) echo 100000 ;; 32) echo 20000 ;; 64) echo 5000 ;; 128) echo 1000 ;; esac; }
control() { # ms for a fixed amount of work on two goroutines
	"$bin" bench gemm -dtype float64 -n 64 -batch 2000 -arms cpu -count 1 -time 200ms 2>/dev/null | awk '/^Benchmark/ {print "control gemm float64 n=64 batch=2000: " $3 " ns/op"}'
}
one() { # op dtype n procs
	local env=()
	[ "$4" = 1 ] && env=(GOMAXPROCS=1)
	env "${env[@]}" "$bin" bench "$1" -dtype "$2" -n "$3" -batch "$(batch "$3")" -arms cpu -count 5 -time 500ms 2>/dev/null |
		awk '/^Benchmark/ {print $3}' | sort -n |
		awk -v d="$2" '{t[NR] = $1} END {print d ": median " t[int((NR + 1) / 2)] " ns/op of " NR}'
}
for op in ${OPS:-getrf potrf}; do
	for procs in all 1; do
		for n in 8 32 64 128; do
			echo "### $op n=$n batch=$(batch "$n") GOMAXPROCS=$procs"
			for p in $(seq "$pairs"); do
				control
				if ((p % 2)); then one "$op" float32 "$n" "$procs"; one "$op" float64 "$n" "$procs"
				else one "$op" float64 "$n" "$procs"; one "$op" float32 "$n" "$procs"; fi
			done
		done
	done
done
