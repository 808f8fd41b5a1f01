#!/usr/bin/env bash
# Session 55, call 3 (an H200 wanted; carry ["build/gpu/s55"], HEAD + session54/cta-steps-by-type.patch as landed):
# the cholesky-gpumode suite whole for the record (float32 only, whose CTA kernels the patch leaves as they were; last
# whole on an H200 in session 35), then the potrf rows where native:cta is a candidate and the steps of 8 may change
# the order, one `batchlas tune` per type and order (scripts/merge-tuned takes an order only whole, from sources that
# hold no other), with the flags of the rows they replace: complex64 and complex128 n = 48, 64, 96, 128 (the
# complex tables' grid, --max-mib 256, random inputs), then float64 n = 96, 128 (GPU MODE's inputs; rows to 16,384
# matrices, so --max-mib 4096). Each tune gets SIGINT at the deadline and finishes its point; its journal and tables
# are under logs/t-<type>-<n>.
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
. scripts/device-steps.sh
B=$R/build/gpu/s55
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $L/gpu.txt 2>&1
cp $B/commit $L/commit.txt
step suite 200 $R $B/batchlas bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto
tune() { # NAME FLAGS...: one tune, SIGINT at the deadline
	local name=$1 left=$((BUDGET - 10 - SECONDS)); shift
	echo "=== $name $(date +%T) ${SECONDS}s left ${left}s" >>$L/stages.txt
	[ $left -gt 15 ] || return
	timeout -s INT -k 20 $left $B/batchlas tune potrf --device cuda:0 --uplo L,U --time 20ms --count 3 "$@" --out $L/$name >$L/$name.log 2>&1
	echo "rc $?" >>$L/$name.log
	tar -C "$OUT" -czf "$OUT/logs.tgz" logs
}
C="--batch 1,4,16,64,256,1024,4096 --max-mib 256"
for n in 48 64 96 128; do
	tune t-complex64-$n --dtype complex64 --n $n $C
	tune t-complex128-$n --dtype complex128 --n $n $C
done
F="--batch 1,2,4,8,16,64,256,1024,4096,16384 --max-mib 4096 --inputs gpumode"
tune t-float64-96 --dtype float64 --n 96 $F
tune t-float64-128 --dtype float64 --n 128 $F
cat $L/gpu.txt $L/stages.txt; grep -H "^rc " $L/*.log
grep -E "^\| (potrf|geomean)" $L/suite.log
for f in $L/t-*/potrf.*.txt; do grep -E "^[LU] " $f | cut -c1-110; done
