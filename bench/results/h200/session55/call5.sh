#!/usr/bin/env bash
# Session 55, call 5 (BUDGET=400, timeout_s 450, refused as nvidia-h100-x1 and through call 6 (not kept); then BUDGET=240 as nvidia-h200; carry ["build/gpu/s55",
# "build/gpu/s55h"]: s55 = 4d91435 + upper-copies.patch (potrf and posv tests, CLI), s55h = 4d91435's CLI): the
# patch's GPU tests (potrf's CTA tests with timing; posv's TestPosv at the orders above MaxN), then the Upper rows
# that call 3 found slower, native:cta by 4d91435 (per-thread column copies) and by the patch (block-column copies)
# in turns, native:blocked beside each as the yardstick, until the budget ends.
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
. scripts/device-steps.sh
B=$R/build/gpu/s55 H=$R/build/gpu/s55h
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $L/gpu.txt 2>&1
cp $B/commit $L/commit.txt
step potrf-cta 120 $R/internal/gpu/potrf $B/potrf.test -test.v -test.run '^(TestCTA|TestPotrfCTA)'
step posv-cta 100 $R/internal/gpu/posv $B/posv.test -test.v -test.run '^TestPosv$/.*/.*/^n=(33|40|44|45|47|48|49|55|56|57|63|64)$'
if grep -qE "^(--- FAIL|FAIL)|panic" $L/potrf-cta.log $L/posv-cta.log; then echo "tests failed: no timing" >> $L/stages.txt; BUDGET=0; fi
echo "=== ab $(date +%T) ${SECONDS}s" >> $L/stages.txt
cases="float64:128:4096 complex64:128:1024 float64:128:16384 complex64:96:1024 float64:96:4096 float64:128:1024 complex64:128:256 complex128:128:256 float64:128:1 complex64:96:1 complex128:128:1"
for round in 1 2; do
	for c in $cases; do
		IFS=: read dt n b <<<"$c"
		for v in head:$H patch:$B; do
			[ $((BUDGET - SECONDS)) -gt 12 ] || break 3
			echo "## round $round $v $dt n=$n batch=$b" >> $L/ab.log
			timeout 30 ${v#*:}/batchlas bench potrf -dtype $dt -n $n -batch $b -uplo U -arms native:cta,native:blocked -time 100ms -count 5 2>&1 | grep -E "^Benchmark|^ratio|FAIL|SKIP|rror" >> $L/ab.log
		done
	done
	tar -C "$OUT" -czf "$OUT/logs.tgz" logs
done
tar -C "$OUT" -czf "$OUT/logs.tgz" logs
cat $L/gpu.txt $L/stages.txt; grep -H "^rc " $L/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic|worst" $L/potrf-cta.log $L/posv-cta.log | head -20
grep -hE " [1-9][0-9]* B local" $L/*.log | head
cat $L/ab.log | cut -c1-160
