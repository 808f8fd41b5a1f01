#!/usr/bin/env bash
# Session 39 call 3: posv_warp's aligned Upper keeps the wide tile for float32 and for float64 from NC = 48, and moves
# float64 below NC = 48 in place again (warp.cu's posv_wide; call 2's A/B). build/gpu: batchlas, posv.test, potrf.test
# of the working tree, batchlas-head: HEAD 911b689's CLI; build/kcache.txz: session 38 call 3's kernel cache.
#  1. posv: TestPosv (every type, both triangles, Upper above 32 also on 16-byte columns), TestKernelResources;
#     potrf: the warp tests and TestWarpKernelResources (posv_warp's shared memory as posvWide says).
#  2. A/B, HEAD's CLI and this tree's: posv float64 Upper n = 36, 40, 44 (in place both), 45, 48 (the wide tile here),
#     65,536 systems, 1 rhs; n = 44 and 48 with 16.
#  3. compute-sanitizer memcheck and racecheck on TestPosv float64 Upper n = 44, 45, 48 (either side of NC = 48).
set -u
R=$PWD; W=/tmp/s39; L=$W/logs3; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache; B=$R/build/gpu; CS=/usr/local/cuda/bin/compute-sanitizer
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
pack() { tar cJf $OUT/s39c3.tar.xz -C $W logs3; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
ab() { # ab BIN
  for s in "36 1" "40 1" "44 1" "45 1" "48 1" "44 16" "48 16"; do
    set -- $s
    echo "## posv float64 uplo=U n=$1 nrhs=$2 batch=65536"
    timeout 60 $B/$BIN bench posv -device cuda:0 -dtype float64 -uplo U -n $1 -nrhs $2 -batch 65536 -arms native:fused -time 50ms -count 5
  done
}
step tests
(cd internal/gpu/posv && run posv 200 $B/posv.test -test.v -test.run '^(TestPosv|TestKernelResources)$') &
(cd internal/gpu/potrf && run warp 200 $B/potrf.test -test.v -test.run '^(TestPotrfWarp|TestPotrfWarpFailures|TestPotrfWarpWide|TestWarpConformance|TestWarpKernelResources)$') &
wait
step ab
run ab-head 100 bash -c "$(declare -f ab); B=$B BIN=batchlas-head ab"
run ab-new 100 bash -c "$(declare -f ab); B=$B BIN=batchlas ab"
step sanitize
cd internal/gpu/posv
run mem64 80 $CS --tool memcheck --error-exitcode 9 $B/posv.test -test.v -test.run '^TestPosv$/float64/Upper/^n=(44|45|48)$'
run race64 80 $CS --tool racecheck --error-exitcode 9 $B/posv.test -test.v -test.run '^TestPosv$/float64/Upper/^n=(44|45|48)$'
cd $R
step done; pack
cat $L/stages.txt; grep -H "^rc " $L/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic" $L/posv.log $L/warp.log | sort | uniq -c
grep -hE " [1-9][0-9]* B local" $L/posv.log $L/warp.log | head -3; grep -hc "0 B local" $L/posv.log $L/warp.log
grep -h "posv_warp<double, [0-9]*, true, true>" $L/warp.log | cut -c1-160
paste <(grep -hE "^## |arm=native" $L/ab-head.log | awk '{print $2,$3,$4,$5,$6,$9}') <(grep -hE "^## |arm=native" $L/ab-new.log | awk '{print $9}')
grep -h "SUMMARY\|^--- FAIL\|^ok\|^PASS\|^FAIL" $L/mem64.log $L/race64.log | tail -12
