#!/usr/bin/env bash
# Times BLAS-3 and factorization ops on the CPU engine with two builds of the CLI, alternating, one core:
#   bench/cpu-gemm-fma.sh OLD NEW   (each a batchlas binary)
# Prints one line per op, type, n and build: the least ns/op of its runs.
set -euo pipefail
old=$1 new=$2
for op in ${OPS:-gemm trsm syrk getrf potrf getri posv getrs}; do
	for dt in float64 float32 complex128; do
		for n in 8 32 128; do
			batch=$((262144 / (n * n)))
			for rep in 1 2; do
				for b in old new; do
					bin=$old
					[ $b = new ] && bin=$new
					ns=$(GOMAXPROCS=1 $bin bench $op -dtype $dt -n $n -batch $batch -arms cpu -count 3 -time 200ms 2>/dev/null |
						awk '/arm=cpu/ {print $3}' | sort -n | head -1)
					echo "$op $dt n=$n batch=$batch $b rep$rep $ns"
				done
			done
		done
	done
done
