#!/usr/bin/env bash
# Prepared in session 55 (after next-build.sh; carry ["build/gpu/s55", "build/gpu/s55h"], timeout_s 600):
# cta-forms.patch on a GPU. Its posv_cta kernels have never run (call 5's TestPosv compiled posv's kernels one order
# at a time on a cold cache and ran out of its 100 s before the types the patch changes), nor has float64's unstaged
# form outside session 46's lab (its s1). First the two tests that compile in parallel what TestPosv above MaxN would
# compile one order at a time (posv's TestKernelResources: every posv kernel, posv_cta included; potrf's
# TestWarpKernelResources: the warp tier posv and the reference factor use up to n = 64; 32 and 63 s in call 1),
# then potrf's CTA tests and posv's TestPosv above MaxN; if they pass, native:cta by the committed tree and by the
# patch in turns (ab.sh), then on an H200 only (the tables are its) call 3's tunes again, float64 first.
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
. scripts/device-steps.sh
B=$R/build/gpu/s55 H=$R/build/gpu/s55h
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $L/gpu.txt 2>&1
cp $B/commit $L/commit.txt
step posv-resources 120 $R/internal/gpu/posv $B/posv.test -test.v -test.run '^TestKernelResources$'
step warp-resources 150 $R/internal/gpu/potrf $B/potrf.test -test.v -test.run '^TestWarpKernelResources$'
step potrf-cta 120 $R/internal/gpu/potrf $B/potrf.test -test.v -test.run '^(TestCTA|TestPotrfCTA)'
step posv-cta 150 $R/internal/gpu/posv $B/posv.test -test.v -test.run '^TestPosv$/.*/.*/^n=(33|40|44|45|47|48|49|55|56|57|63|64)$'
if grep -qE "^(--- FAIL|FAIL)|panic|^rc [1-9]" $L/*.log; then echo "a test failed or ran out: stop" >> $L/stages.txt; BUDGET=0; fi
step ab 150 $R bash bench/results/h200/session55/ab.sh $H $B
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
grep -E "^##|^ratio" $L/ab.log
for f in $L/t-*/potrf.*.txt; do grep -E "^[LU] " $f | cut -c1-100; done
