#!/usr/bin/env bash
# Session 56 call 2 (carry ["build/gpu/s55", "build/gpu/s55h"]): call 1's tests passed (its warm-up
# TestWarpKernelResources ran out at 150 s, compiling, which stopped the call before ab.sh), so here
# next-call.sh's second half: ab.sh, then on an H200 the tunes with the patch, float64 first.
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
. scripts/device-steps.sh
B=$R/build/gpu/s55 H=$R/build/gpu/s55h
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $L/gpu.txt 2>&1
cp $B/commit $L/commit.txt
step ab 170 $R bash bench/results/h200/session55/ab.sh $H $B
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
for n in 128 96; do
	tune t-complex64-$n --dtype complex64 --n $n $C
	tune t-complex128-$n --dtype complex128 --n $n $C
done
cat $L/gpu.txt $L/stages.txt; grep -H "^rc " $L/*.log
grep -E "^##|^ratio" $L/ab.log
for f in $L/t-*/potrf.*.txt; do grep -E "^[LU] " $f | cut -c1-100; done
