#!/usr/bin/env bash
# Times Trsm's Right solves on the CPU engine, one core, and prints the raw benchmark lines
# (bench/results/cpu/trsm-right.txt):
#  1. BenchmarkTrsm1's batchlas-right arm (Right, Lower, Trans: X·Lᵀ = B through trsm1), "before" with
#     solveRightFMA switched off (solveRightMinRows past every m: the axpy form) and "after" as built,
#     alternated twice;
#  2. BenchmarkSolveRight (one diagonal block, the FMA form against the axpy form) with both of solveRightFMA's
#     thresholds at 1, so that the FMA form runs at every size: where the thresholds come from.
# It edits internal/cpu/blas3_tri.go for the runs and restores it.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
f=internal/cpu/blas3_tri.go
cp $f /tmp/blas3_tri.go.orig
trap 'cp /tmp/blas3_tri.go.orig $f' EXIT
grep -q '^	solveRightMinRows  = 4$' $f
grep -q '^	solveRightMinOrder = 24$' $f
echo "# $(go version | cut -d' ' -f3), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) CPUs"
echo "# 1. BenchmarkTrsm1, arm batchlas-right"
for rep in 1 2; do
	for v in before after; do
		cp /tmp/blas3_tri.go.orig $f
		[ $v = before ] && sed -i 's/^	solveRightMinRows  = 4$/	solveRightMinRows  = 1 << 30/' $f
		echo "## $v (repetition $rep)"
		GOMAXPROCS=1 go test -run x -bench 'Trsm1/.*/.*/arm=batchlas-right$' -benchtime 2000x ./internal/cpu | grep '^Benchmark'
	done
done
echo "# 2. BenchmarkSolveRight, both thresholds at 1"
cp /tmp/blas3_tri.go.orig $f
sed -i 's/^	solveRightMinRows  = 4$/	solveRightMinRows  = 1/; s/^	solveRightMinOrder = 24$/	solveRightMinOrder = 1/' $f
GOMAXPROCS=1 go test -run x -bench SolveRight -benchtime 20000x ./internal/cpu | grep '^Benchmark'
