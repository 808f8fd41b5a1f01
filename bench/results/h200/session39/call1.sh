#!/usr/bin/env bash
# Session 39 call 1: posv_warp's aligned Upper columns (VEC) move through the wide tile (wide_fill, wide_drain), in its
# dynamic shared memory, instead of in place. build/gpu: batchlas, posv.test, potrf.test of the working tree;
# batchlas-head: HEAD 911b689's CLI. build/kcache.txz: session 38 call 3's kernel cache (warp.cu's kernels compile anew).
#  1. A/B, HEAD's CLI: bench posv, vendor against native:fused, Upper n = 36…64 (float32) and 40, 48 (float64).
#  2. posv: TestPosv (every type, both triangles; Upper above 32 also on 16-byte columns, A's bits against
#     potrf_warp's), TestKernelResources; potrf: the warp tests and TestWarpKernelResources.
#  3. A/B, this tree's CLI: the same shapes.
#  4. compute-sanitizer racecheck and memcheck on TestPosv float32 Upper n = 31, 32, 64 (posv_reg's slots, posv_warp's
#     wide tile) and float64 Upper n = 48.
set -u
R=$PWD; W=/tmp/s39; L=$W/logs1; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache; B=$R/build/gpu; CS=/usr/local/cuda/bin/compute-sanitizer
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
pack() { tar cJf $OUT/s39c1.tar.xz -C $W logs1; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
ab() { # ab BIN
  for s in "float32 U 36 1" "float32 U 40 1" "float32 U 48 1" "float32 U 56 1" "float32 U 64 1" "float32 U 64 16" \
           "float32 L 64 1" "float32 U 48 16" "float64 U 40 1" "float64 U 48 1" "float64 U 48 16"; do
    set -- $s
    echo "## posv $1 uplo=$2 n=$3 nrhs=$4 batch=65536"
    timeout 60 $B/$BIN bench posv -device cuda:0 -dtype $1 -uplo $2 -n $3 -nrhs $4 -batch 65536 -arms vendor,native:fused -time 50ms -count 5
  done
}
step ab-head
BIN=batchlas-head; run ab-head 170 bash -c "$(declare -f ab); B=$B BIN=$BIN ab"
step tests
(cd internal/gpu/posv && run posv 200 $B/posv.test -test.v -test.run 'TestPosv$|TestKernelResources') &
(cd internal/gpu/potrf && run warp 200 $B/potrf.test -test.v -test.run 'TestPotrfWarp$|TestPotrfWarpFailures|TestPotrfWarpWide|TestWarpConformance|TestWarpKernelResources') &
wait
step ab-new
BIN=batchlas; run ab-new 170 bash -c "$(declare -f ab); B=$B BIN=$BIN ab"
step sanitize
cd internal/gpu/posv
run race32 100 $CS --tool racecheck --error-exitcode 9 $B/posv.test -test.v -test.run 'TestPosv/float32/Upper/^n=(31|32|64)$'
run mem32 70 $CS --tool memcheck --error-exitcode 9 $B/posv.test -test.v -test.run 'TestPosv/float32/Upper/^n=(31|32|64)$'
run race64 60 $CS --tool racecheck --error-exitcode 9 $B/posv.test -test.v -test.run 'TestPosv/float64/Upper/^n=48$'
cd $R
step done; pack
tar -cf - -C build/kcache . | xz -6 -T0 > $OUT/kcache.txz
cat $L/stages.txt; grep -H "^rc " $L/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic" $L/posv.log $L/warp.log | sort | uniq -c
grep -hE "^## |ratio" $L/ab-head.log $L/ab-new.log
grep -hE " [1-9][0-9]* B local" $L/posv.log $L/warp.log | head -3; grep -hc "0 B local" $L/posv.log $L/warp.log
grep -h "posv_warp<[a-z]*, [0-9]*, true, true>" $L/warp.log | cut -c1-160
grep -h "SUMMARY\|^--- FAIL\|^ok\|^PASS\|^FAIL" $L/race32.log $L/mem32.log $L/race64.log | tail -12
