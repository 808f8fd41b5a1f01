#!/usr/bin/env bash
# Session 42 call 5, on the final kernels (potrf_split by panels of 16 columns, as lab/panels.cu's potrf_panels).
# build/gpu: batchlas, posv.test, potrf.test of the working tree; build/kcache.txz: the earlier calls' caches.
#  1. lab/final.py: potrf_split at NC = 52, 56 against potrf_warp (bits, info), registers, times.
#  2. potrf's TestWarpKernelResources, TestPotrfWarp, TestPotrfWarpFailures, TestWarpConformance, TestSplitBytes;
#     posv's TestPosv float64; memcheck and racecheck on TestPotrfWarp float64 n = 57, 64, memcheck on TestPosv float64
#     n = 57, 64.
#  3. tune as call 3: potrf float64 n = 64 (the tables' grid, both triangles) and posv float64 n = 64.
set -u
R=$PWD; W=/tmp/s42; L=$W/logs5; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache; touch $W/start5
B=$R/build/gpu; CS=/usr/local/cuda/bin/compute-sanitizer
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
pack() { for d in build/u42*; do [ -d $d ] && mkdir -p $L/${d#build/} && cp $d/* $L/${d#build/}/ 2>/dev/null; done; tar cJf $OUT/s42c5.tar.xz -C $W logs5; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step lab; run final 120 python3 bench/results/h200/session42/lab/final.py
step tests
(cd internal/gpu/potrf && run warp 150 $B/potrf.test -test.v -test.run '^(TestWarpKernelResources|TestPotrfWarp|TestPotrfWarpFailures|TestWarpConformance|TestSplitBytes)$') &
(sleep 10; cd internal/gpu/posv && run posv 150 $B/posv.test -test.v -test.run '^TestPosv$/^float64$') &
wait
step sanitize
(cd internal/gpu/potrf && P='^TestPotrfWarp$/^float64$/^(Lower|Upper)$/^n=(57|64)$' &&
 run memf 50 $CS --tool memcheck --error-exitcode 9 $B/potrf.test -test.v -test.run "$P" &&
 run racef 60 $CS --tool racecheck --error-exitcode 9 $B/potrf.test -test.v -test.run "$P")
(cd internal/gpu/posv && run mem 60 $CS --tool memcheck --error-exitcode 9 $B/posv.test -test.v -test.run '^TestPosv$/^float64$/^(Lower|Upper)$/^n=(57|64)$')
DEADLINE=560
tune() {
  local name=$1; shift; step $name
  local left=$((DEADLINE - SECONDS)); [ $left -gt 5 ] || return
  timeout -s INT -k 20 $left $B/batchlas tune "$@" --device cuda:0 --out build/$name > $L/$name.log 2>&1
  echo "rc $?" >> $L/$name.log
}
tune u42a potrf --dtype float64 --n 64 --batch 65536,16384,4096,1024,256,64,16,8,4,2,1 --uplo L,U --inputs gpumode --max-mib 4096 --time 20ms --count 3
tune u42b posv --dtype float64 --n 64 --uplo L,U --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 2048 --time 20ms --count 3
step done; pack
cat $L/stages.txt; grep -H "^rc \|points" $L/*.log
grep -v "^ok " $L/final.log | tail -22
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic|^--- PASS: Test[A-Za-z]* " $L/posv.log $L/warp.log | sort | uniq -c
grep -hE " [1-9][0-9]* B local" $L/warp.log | head -3; grep -hc "0 B local" $L/warp.log; grep -h "potrf_split" $L/warp.log | cut -c1-170
grep -h "SUMMARY\|^--- FAIL\|^ok\|^PASS\|^FAIL" $L/memf.log $L/racef.log $L/mem.log
for f in $L/u42*/*.sm_90.txt; do echo "# $f"; grep -E "^[LU] " $f | cut -c1-150; done
