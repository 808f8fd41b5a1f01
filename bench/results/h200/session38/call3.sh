#!/usr/bin/env bash
# Session 38 call 3: posv_reg and potrs_reg move Upper's columns through the group's slots (stage_upper_row,
# store_upper) instead of one element per lane and column in place; copy_async and wait_copies moved into the scalar
# prelude. build/gpu: batchlas, posv.test of the working tree; batchlas-head: HEAD 11ff258's CLI (the kernels before).
# build/kcache.txz: call 2's kernel cache (HEAD's kernels; this tree's all compile anew, its prelude changed).
#  1. A/B, HEAD's CLI: bench posv/potrs, vendor against native:fused, on eight shapes (Upper but one Lower).
#  2. posv's tests (TestPosv: all four types, both triangles, n = 1…64, mixed batches with failures and NaN, lda > n,
#     A's bits against potrf's factor, Posv's X against Potrs's; TestConformance), and TestKernelResources.
#  3. A/B, this tree's CLI: the same shapes.
#  4. tune posv and potrs, float32 and float64, Upper, n = 4…32 (the rows these kernels serve), into build/t38d.
#  5. tune posv, complex, Lower, n = 96 and 128 again (session 36 measured them before the complex potrf tables existed,
#     so native:composed factored with the default candidate), into build/t38e.
set -u
R=$PWD; W=/tmp/s38; L=$W/logs3; mkdir -p $L build/kcache build/t38d build/t38e; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache; B=$R/build/gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
pack() { cp build/t38d/* $L/ 2>/dev/null; tar cJf $OUT/s38c3.tar.xz -C $W logs3; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
ab() { # ab BIN TAG
  for s in "posv float32 U 32 1 65536" "posv float32 U 32 16 65536" "posv float32 L 32 1 65536" "posv float64 U 32 1 65536" \
           "posv float32 U 16 4 65536" "posv float32 U 31 1 65536" "potrs float32 U 32 1 65536" "posv complex64 U 32 1 16384"; do
    set -- $s
    echo "## $1 $2 uplo=$3 n=$4 nrhs=$5 batch=$6"
    timeout 60 $B/$BIN bench $1 -device cuda:0 -dtype $2 -uplo $3 -n $4 -nrhs $5 -batch $6 -arms vendor,native:fused -time 50ms -count 5
  done
}
step ab-head
BIN=batchlas-head; run ab-head 150 bash -c "$(declare -f ab); B=$B BIN=$BIN ab"
step tests
(cd internal/gpu/posv && run posv 240 $B/posv.test -test.v -test.run 'TestPosv$|TestConformance') &
(cd internal/gpu/posv && run resources 240 $B/posv.test -test.v -test.run 'TestKernelResources') &
wait
step ab-new
BIN=batchlas; run ab-new 150 bash -c "$(declare -f ab); B=$B BIN=$BIN ab"
step tune
run tune-posv 110 $B/batchlas tune posv --device cuda:0 --dtype float32,float64 --uplo U --n 4,8,16,32 --nrhs 1,4,16 \
  --batch 1024,16384,65536 --max-mib 1024 --out build/t38d --time 20ms --count 3
run tune-potrs 90 $B/batchlas tune potrs --device cuda:0 --dtype float32,float64 --uplo U --n 4,8,16,32 --nrhs 1,4,16 \
  --batch 1024,16384,65536 --max-mib 1024 --out build/t38d --time 20ms --count 3
step lower
run tune-posv-lower 60 $B/batchlas tune posv --device cuda:0 --dtype complex64,complex128 --uplo L --n 96,128 --nrhs 1,4,16 \
  --batch 1024,16384,65536 --max-mib 1024 --out build/t38e --time 20ms --count 3
mkdir -p $L/lower; cp build/t38e/* $L/lower/ 2>/dev/null
step done; pack
tar -cf - -C build/kcache . | xz -6 -T0 > $OUT/kcache.txz
cat $L/stages.txt; grep -hE "^(--- FAIL|FAIL|ok|PASS)|^rc |points" $L/*.log | sort | uniq -c
grep -hE "^## |ratio" $L/ab-head.log $L/ab-new.log
grep -hE " [1-9][0-9]* B local" $L/resources.log | head -3; grep -c "0 B local" $L/resources.log
grep -hE "^\s+--- FAIL" $L/posv.log | head
