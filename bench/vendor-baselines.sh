#!/usr/bin/env bash
# vendor-baselines.sh times the GPU's vendor arm (cuBLAS/cuSOLVER through
# the public API) for potrf and getrf, float32 and float64, n = 8 … 256, at a
# saturating batch (about 256 MiB of matrices per call), beside the CPU arm
# on the same machine. Every timed result is checked against the oracle.
#
#   bench/vendor-baselines.sh BATCHLAS_BINARY > out.txt
#
# GPU times are CUDA events around one call after an L2 eviction (see
# internal/bench); the median of -count repetitions is reported.
set -euo pipefail
bin=${1:-batchlas}
for op in potrf getrf; do
	for dtype in float32 float64; do
		size=4
		[ "$dtype" = float64 ] && size=8
		for n in 8 16 32 64 128 256; do
			batch=$(((256 << 20) / (n * n * size)))
			echo "### $op $dtype n=$n batch=$batch"
			echo "\$ batchlas bench $op -dtype $dtype -n $n -batch $batch -arms vendor,cpu -count 10 -time 0.2s"
			"$bin" bench "$op" -dtype "$dtype" -n "$n" -batch "$batch" -arms vendor,cpu -count 10 -time 0.2s 2>&1
		done
	done
done
