#!/usr/bin/env bash
# Session 56 call 3 (carry ["build/gpu/s55"]): call 2's tunes stopped at n = 96 for the complex types; here
# n = 64 and 48 (native:cta's other complex orders, with cta-forms.patch), then float32's four-block orders
# (n = 512, 1024, 2048) again, whose rows predate factor_quarters (session 53), over session 34's grid.
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
. scripts/device-steps.sh
B=$R/build/gpu/s55
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $L/gpu.txt 2>&1
cp $B/commit $L/commit.txt
grep -q H200 $L/gpu.txt || { echo "not an H200: no tunes" >> $L/stages.txt; BUDGET=0; }
tune() { # NAME FLAGS...: one batchlas tune potrf, its tables and journal in logs/NAME
	local name=$1
	shift
	step_to_end $name $R $B/batchlas tune potrf --device cuda:0 --uplo L,U --time 20ms --count 3 "$@" --out $L/$name
}
C="--batch 1,4,16,64,256,1024,4096 --max-mib 256"
for n in 64 48; do
	tune t-complex64-$n --dtype complex64 --n $n $C
	tune t-complex128-$n --dtype complex128 --n $n $C
done
G="--batch 1,2,4,8,16,64,256,1024,4096,16384,65536 --max-mib 256 --inputs gpumode"
for n in 512 1024 2048; do
	tune t-float32-$n --dtype float32 --n $n $G
done
cat $L/gpu.txt $L/stages.txt; grep -H "^rc " $L/*.log
for f in $L/t-*/potrf.*.txt; do grep -E "^[LU] " $f | cut -c1-100; done
