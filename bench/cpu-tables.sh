#!/usr/bin/env bash
# cpu-tables.sh records the foundation issue's CPU measurements: float64
# Potrf and Getrf against a loop of gonum calls at n = 8, 32, 64, 128, with
# every core and with GOMAXPROCS=1, and the float32 cpu arm at the same n.
# Both arms of a line run interleaved in one process; every timed result is
# checked against the oracle.
#
#   go build -o /tmp/batchlas ./cmd/batchlas && bench/cpu-tables.sh /tmp/batchlas
set -euo pipefail
bin=${1:-batchlas}
batch() { case $1 in 8) echo 100000 ;; 32) echo 20000 ;; 64) echo 5000 ;; 128) echo 1000 ;; esac; }
for op in potrf getrf; do
	for procs in all 1; do
		for n in 8 32 64 128; do
			env=()
			[ "$procs" = 1 ] && env=(GOMAXPROCS=1)
			echo "### $op float64 n=$n GOMAXPROCS=$procs"
			echo "\$ ${env[*]} batchlas bench $op -dtype float64 -n $n -batch $(batch $n) -arms cpu,gonum -count 5 -time 1s"
			env "${env[@]}" "$bin" bench "$op" -dtype float64 -n "$n" -batch "$(batch "$n")" -arms cpu,gonum -count 5 -time 1s 2>&1
		done
	done
	for n in 8 32 64 128; do
		echo "### $op float32 n=$n GOMAXPROCS=all"
		echo "\$ batchlas bench $op -dtype float32 -n $n -batch $(batch $n) -arms cpu -count 5 -time 1s"
		"$bin" bench "$op" -dtype float32 -n "$n" -batch "$(batch "$n")" -arms cpu -count 5 -time 1s 2>&1
	done
done
