#!/usr/bin/env bash
# Session 29 call 2: the rest of the re-tune (--resume on call 1's journal, carried in build/t28), which writes the
# tables into build/t28; then the whole cholesky-gpumode suite routed by those tables (BATCHLAS_TUNED_DIR).
set -u
R=$PWD; L=/tmp/c2/logs; mkdir -p $L
mkdir -p build/kcache; export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu29
pack() { cp build/t28/* $L/ 2>/dev/null; tar cJf $OUT/c2.tar.xz -C /tmp/c2 logs; }
step() { echo "=== $1 $(date +%T)" >> $L/stages.txt; }
step tune; timeout ${TUNE_S:-230} $B/batchlas tune potrf --device cuda:0 --resume --dtype float32,float64 --n 8,16,32,48,64,96,128,256,512,1024,2048,4096,8192 --batch 1,2,4,8,16,64,256,1024,4096,16384,65536 --uplo L,U --max-mib 256 --inputs gpumode --out build/t28 --time 20ms --count 3 > $L/tune.log 2>&1; echo "rc $?" >> $L/tune.log; pack
step suite; BATCHLAS_TUNED_DIR=$R/build/t28 timeout 345 $B/batchlas bench -suite cholesky-gpumode -arms vendor,vendor:transposed,auto > $L/suite.log 2>&1; echo "rc $?" >> $L/suite.log; pack
step done; pack
tail -4 $L/tune.log; tail -22 $L/suite.log; cat $L/stages.txt; ls build/t28
