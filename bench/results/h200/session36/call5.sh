#!/usr/bin/env bash
# Session 36 call 5: the complex tables of calls 1, 2 and 4 embedded (tuned/, build/gpu36/batchlas rebuilt): auto
# against the vendor where the tables end or nearly tie, one process per case, every timed result checked:
#  1. complex128 n = 4096, one matrix (the row where native:blocked is within the router's 3 % of the vendor);
#  2. complex128 and complex64 n = 8192, one matrix (past the tables: the 4096 row decides), one repetition.
set -u
R=$PWD; L=/tmp/s36/logs5; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kc36a.txz -C build/kcache; B=$R/build/gpu36
pack() { tar cJf $OUT/s36c5.tar.xz -C /tmp/s36 logs5; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
step z4096; run z4096 100 $B/batchlas bench potrf -device cuda:0 -dtype complex128 -n 4096 -batch 1 -arms vendor,auto -count 3
step z8192; run z8192 150 $B/batchlas bench potrf -device cuda:0 -dtype complex128 -n 8192 -batch 1 -arms vendor,auto -count 1
step c8192; run c8192 150 $B/batchlas bench potrf -device cuda:0 -dtype complex64 -n 8192 -batch 1 -arms vendor,auto -count 1
step done; pack
cat $L/stages.txt; grep -hE "^Benchmark|^# arm|^ratio|^# check|^rc|rror" $L/*.log | cut -c1-230
