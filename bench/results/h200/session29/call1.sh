#!/usr/bin/env bash
# Session 29 call 1: re-tune the float32 rows at n = 8, 16, 32, 48, 64 (session 27's journal with those rows
# removed, build/t28), on session 28's build; --resume measures only the missing points. The journal comes back
# in $OUT and is carried again by the next call.
set -u
R=$PWD; L=/tmp/c1/logs; mkdir -p $L
mkdir -p build/kcache; export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu29
timeout ${TUNE_S:-530} $B/batchlas tune potrf --device cuda:0 --resume --dtype float32,float64 --n 8,16,32,48,64,96,128,256,512,1024,2048,4096,8192 --batch 1,2,4,8,16,64,256,1024,4096,16384,65536 --uplo L,U --max-mib 256 --inputs gpumode --out build/t28 --time 20ms --count 3 > $L/tune.log 2>&1; echo "rc $?" >> $L/tune.log
cp build/t28/* $L/; tar cJf $OUT/c1.tar.xz -C /tmp/c1 logs; tail -4 $L/tune.log; wc -l build/t28/potrf.sm_90.journal
