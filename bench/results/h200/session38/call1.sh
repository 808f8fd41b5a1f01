#!/usr/bin/env bash
# Session 38 call 1: the Upper rows of the float posv and potrs tables, the first GPU run of bench's solve inputs with
# A's strict other triangle NaN (b59e369: an arm that reads the wrong triangle fails its check), and
# TestWarpKernelResources on warp.cu as it is since the move of the solve steps into sweeps.cu (fcfeb5b).
# build/gpu: batchlas, potrf.test, root.test of 11ff258; build/kcache.txz: session 37 call 1's kernel cache.
#  1. TestRouteGPUPosv (the routing tests of Posv and Potrs on the GPU).
#  2. tune posv and tune potrs, float32 and float64, Upper only, on the committed tables' grid (the Lower rows stay),
#     into build/t38; in parallel, on 4 other cores, TestWarpKernelResources (it compiles the 106 warp kernels anew).
# Everything goes into one tarball, packed after each step.
set -u
R=$PWD; W=/tmp/s38; L=$W/logs1; mkdir -p $L build/kcache build/t38; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache; B=$R/build/gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
pack() { cp build/t38/* $L/ 2>/dev/null; tar cJf $OUT/s38c1.tar.xz -C $W logs1; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step route
run route 90 $B/root.test -test.v -test.run 'TestRouteGPUPosv'
step tune
(cd internal/gpu/potrf && GOMAXPROCS=4 run resources 420 taskset -c 12-15 $B/potrf.test -test.v -test.run 'TestWarpKernelResources') &
run tune-posv 240 taskset -c 0-11 $B/batchlas tune posv --device cuda:0 --dtype float32,float64 --uplo U \
  --n 4,8,16,32,48,64,96,128 --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 1024 --out build/t38 --time 20ms --count 3
step potrs
run tune-potrs 170 taskset -c 0-11 $B/batchlas tune potrs --device cuda:0 --dtype float32,float64 --uplo U \
  --n 4,8,16,32,48,64 --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 1024 --out build/t38 --time 20ms --count 3
wait
step done; pack
tar -cf - -C build/kcache . | xz -6 -T0 > $OUT/kcache.txz
cat $L/stages.txt; grep -hE "^(--- FAIL|FAIL|ok|PASS)|^rc |points" $L/*.log | sort | uniq -c
grep -hcE "B local" $L/resources.log; grep -hE " [1-9][0-9]* B local" $L/resources.log | head
grep -h " - \| -$" $L/*.sm_90.txt | head
