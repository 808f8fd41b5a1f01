#!/usr/bin/env bash
# Session 38 call 2: the Upper rows of the complex posv and potrs tables (call 1 did the float ones), on the committed
# tables' grid (the Lower rows stay), into build/t38c: A's strict other triangle NaN, so an arm that reads the wrong
# triangle fails its check. build/gpu as in call 1; build/kcache.txz: call 1's kernel cache.
# Everything goes into one tarball, packed after each step.
set -u
R=$PWD; W=/tmp/s38; L=$W/logs2; mkdir -p $L build/kcache build/t38c; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache; B=$R/build/gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
pack() { cp build/t38c/* $L/ 2>/dev/null; tar cJf $OUT/s38c2.tar.xz -C $W logs2; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step tune
run tune-posv 240 taskset -c 0-11 $B/batchlas tune posv --device cuda:0 --dtype complex64,complex128 --uplo U \
  --n 4,8,16,32,48,64,96,128 --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 1024 --out build/t38c --time 20ms --count 3
step potrs
run tune-potrs 170 taskset -c 0-11 $B/batchlas tune potrs --device cuda:0 --dtype complex64,complex128 --uplo U \
  --n 4,8,16,32,48,64 --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 1024 --out build/t38c --time 20ms --count 3
wait
step done; pack
tar -cf - -C build/kcache . | xz -6 -T0 > $OUT/kcache.txz
cat $L/stages.txt; grep -hE "^(--- FAIL|FAIL|ok|PASS)|^rc |points" $L/*.log | sort | uniq -c
grep -h " - \| -$" $L/*.sm_90.txt | head
