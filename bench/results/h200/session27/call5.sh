#!/usr/bin/env bash
# Session 27 call 5: the rest of call 4's tune (--resume on call 4's journal).
set -u
R=$PWD; L=/tmp/c5/logs; mkdir -p $L
[ -x build/gpu27/batchlas ] || tar xJf build/gpu27.txz -C build
mkdir -p build/kcache; export XDG_CACHE_HOME=$R/build/kcache
timeout 170 build/gpu27/batchlas tune potrf --device cuda:0 --resume --dtype float32,float64 --n 8,16,32,48,64,96,128,256,512,1024,2048,4096,8192 --batch 1,2,4,8,16,64,256,1024,4096,16384,65536 --uplo L,U --max-mib 256 --inputs gpumode --out build/t27 --time 20ms --count 3 > $L/tune.log 2>&1; echo "rc $?" >> $L/tune.log
cp build/t27/* $L/; tar cJf $OUT/c5.tar.xz -C /tmp/c5 logs; tail -4 $L/tune.log
