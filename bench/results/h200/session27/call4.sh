#!/usr/bin/env bash
# Session 27 call 4: the whole cholesky-gpumode suite (vendor arms and auto, embedded tables: the Upper rows of
# n = 32 and 64 already route to native:tiny and native:warp, which now take the cp.async tile), then the tune of
# the journal's removed rows (float32 Upper n = 16, 32, 48, 64; float64 Upper n = 16, 32) with --resume.
set -u
R=$PWD; L=/tmp/c4/logs; mkdir -p $L
[ -x build/gpu27/batchlas ] || tar xJf build/gpu27.txz -C build
mkdir -p build/kcache; export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu27
pack() { cp build/t27/* $L/ 2>/dev/null; tar cJf $OUT/c4.tar.xz -C /tmp/c4 logs; }
step() { echo "=== $1 $(date +%T)" >> $L/stages.txt; }
step suite; timeout 345 $B/batchlas bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto > $L/suite.log 2>&1; echo "rc $?" >> $L/suite.log; pack
step tune; timeout 200 $B/batchlas tune potrf --device cuda:0 --resume --dtype float32,float64 --n 8,16,32,48,64,96,128,256,512,1024,2048,4096,8192 --batch 1,2,4,8,16,64,256,1024,4096,16384,65536 --uplo L,U --max-mib 256 --inputs gpumode --out build/t27 --time 20ms --count 3 > $L/tune.log 2>&1; echo "rc $?" >> $L/tune.log; pack
step done; pack
tail -20 $L/suite.log; tail -5 $L/tune.log; cat $L/stages.txt
