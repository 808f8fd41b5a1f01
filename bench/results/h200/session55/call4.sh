#!/usr/bin/env bash
# Session 55, call 4 (carry ["build/gpu/s55"] = 4d91435 + upper-copies.patch; BUDGET=540, timeout_s 600; refused, then run by call6.sh): call 3's
# tunes found the steps of 8 10–29 % slower than the tables' panels for Upper at saturating batches (float64 n = 96,
# 128 from 1,024 matrices, complex64 n = 96, 128 from 256), every other arm within 1 % of its old row; the patch
# copies Upper's triangle into the trapezoid by block columns, a warp moving whole 64-byte segments, instead of each
# thread its own column. Its GPU tests (potrf's CTA tests with timing; posv's TestPosv at the orders above MaxN),
# then call 3's tunes again (both triangles, so each order is one run's), Upper-heavy orders first.
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
. scripts/device-steps.sh
B=$R/build/gpu/s55
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $L/gpu.txt 2>&1
cp $B/commit $L/commit.txt
step potrf-cta 120 $R/internal/gpu/potrf $B/potrf.test -test.v -test.run '^(TestCTA|TestPotrfCTA)'
step posv-cta 120 $R/internal/gpu/posv $B/posv.test -test.v -test.run '^TestPosv$/.*/.*/^n=(33|40|44|45|47|48|49|55|56|57|63|64)$'
if grep -qE "^(--- FAIL|FAIL)|panic" $L/potrf-cta.log $L/posv-cta.log; then echo "tests failed: no tunes" >> $L/stages.txt; BUDGET=0; fi
# The tables are the H200's: on another card, no tunes (added after calls 4 and 6 were refused; never run).
grep -q H200 $L/gpu.txt || { echo "not an H200: no tunes" >> $L/stages.txt; BUDGET=0; }
tune() { # NAME FLAGS...: one batchlas tune potrf, its tables and journal in logs/NAME
	local name=$1
	shift
	step_to_end $name $R $B/batchlas tune potrf --device cuda:0 --uplo L,U --time 20ms --count 3 "$@" --out $L/$name
}
F="--batch 1,2,4,8,16,64,256,1024,4096,16384 --max-mib 4096 --inputs gpumode"
tune t-float64-128 --dtype float64 --n 128 $F
tune t-float64-96 --dtype float64 --n 96 $F
C="--batch 1,4,16,64,256,1024,4096 --max-mib 256"
for n in 128 96 64 48; do
	tune t-complex64-$n --dtype complex64 --n $n $C
	tune t-complex128-$n --dtype complex128 --n $n $C
done
cat $L/gpu.txt $L/stages.txt; grep -H "^rc " $L/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic|worst" $L/potrf-cta.log $L/posv-cta.log | head -20
grep -hE " [1-9][0-9]* B local" $L/*.log | head
grep -hE "cta_test.go:[0-9]+: .*vendor/native" $L/potrf-cta.log | grep -v float32 | cut -c1-150
for f in $L/t-*/potrf.*.txt; do grep -E "^U " $f | cut -c1-100; done
