#!/usr/bin/env bash
# Session 41 call 1: session 39's posv_warp change again, its logs having been lost before they were copied in (the
# sandbox's /tmp and build/ were wiped between sessions). build/gpu: batchlas, posv.test, potrf.test of the working
# tree, batchlas-head: HEAD 911b689's CLI. No kernel cache: NVRTC compiles everything; the cache comes back in $OUT.
#  1. A/B, HEAD's CLI then this tree's: posv Upper, 65,536 systems, native:fused (posv_warp): float32 n = 36, 40, 48,
#     56, 64 (wide tile here, in place at HEAD) and n = 64 with 16 rhs; float64 n = 40, 44 (in place both), 45 (16-byte
#     columns impossible: the tile both), 48 (wide here) and n = 48 with 16 rhs.
#  2. posv: TestPosv (every type, both triangles) and TestKernelResources; potrf: the warp tests and
#     TestWarpKernelResources (posv_warp's shared memory as posvWide says), in parallel.
#  3. compute-sanitizer memcheck and racecheck on TestPosv Upper, float32 and float64, n = 44, 45, 48, 64.
set -u
R=$PWD; W=/tmp/s41; L=$W/logs1; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu; CS=/usr/local/cuda/bin/compute-sanitizer
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
pack() { tar cJf $OUT/s41c1.tar.xz -C $W logs1; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
ab() { # ab BIN
  for s in "float32 36 1" "float32 40 1" "float32 48 1" "float32 56 1" "float32 64 1" "float32 64 16" \
           "float64 40 1" "float64 44 1" "float64 45 1" "float64 48 1" "float64 48 16"; do
    set -- $s
    echo "## posv $1 uplo=U n=$2 nrhs=$3 batch=65536"
    timeout 40 $B/$BIN bench posv -device cuda:0 -dtype $1 -uplo U -n $2 -nrhs $3 -batch 65536 -arms native:fused -time 50ms -count 5
  done
}
step ab
run ab-head 80 bash -c "$(declare -f ab); B=$B BIN=batchlas-head ab"
run ab-new 80 bash -c "$(declare -f ab); B=$B BIN=batchlas ab"
step tests
(cd internal/gpu/posv && run posv 270 $B/posv.test -test.v -test.run '^(TestPosv|TestKernelResources)$') &
(cd internal/gpu/potrf && run warp 270 $B/potrf.test -test.v -test.run '^(TestPotrfWarp|TestPotrfWarpFailures|TestPotrfWarpWide|TestWarpConformance|TestWarpKernelResources)$') &
wait
step sanitize
S='^TestPosv$/^(float32|float64)$/^Upper$/^n=(44|45|48|64)$'
cd internal/gpu/posv
run mem 75 $CS --tool memcheck --error-exitcode 9 $B/posv.test -test.v -test.run "$S"
run race 75 $CS --tool racecheck --error-exitcode 9 $B/posv.test -test.v -test.run "$S"
cd $R
step done; pack
tar cJf $OUT/kcache.txz -C build/kcache .
cat $L/stages.txt; grep -H "^rc " $L/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic" $L/posv.log $L/warp.log | sort | uniq -c
grep -hE " [1-9][0-9]* B local" $L/posv.log $L/warp.log | head -3; grep -hc "0 B local" $L/posv.log $L/warp.log
grep -h "posv_warp<[a-z]*, [0-9]*, true, true>" $L/warp.log | cut -c1-150
paste <(grep -hE "^## |arm=native" $L/ab-head.log | awk '{print $2,$3,$4,$5,$6,$9}') <(grep -hE "^## |arm=native" $L/ab-new.log | awk '{print $9}')
grep -h "SUMMARY\|^--- FAIL\|^ok\|^PASS\|^FAIL\|--- PASS: TestPosv/" $L/mem.log $L/race.log | tail -20
