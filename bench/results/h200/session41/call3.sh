#!/usr/bin/env bash
# Session 41 call 3: the last of the potrf tables' missing rows, float64 n = 96 and 128 at 4,096 and 16,384 matrices
# (65,536 is over --max-mib 4096), as call 2 (see there). build/kcache.txz: call 1's kernel cache.
set -u
R=$PWD; W=/tmp/s41; L=$W/logs3; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache; B=$R/build/gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
pack() { for d in build/p41e*; do [ -d $d ] && mkdir -p $L/${d#build/} && cp $d/* $L/${d#build/}/ 2>/dev/null; done; tar cJf $OUT/s41c3.tar.xz -C $W logs3; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
DEADLINE=400
T="--uplo L,U --inputs gpumode --max-mib 4096 --time 20ms --count 3"
tune() {
  local name=$1; shift; step $name
  local left=$((DEADLINE - SECONDS)); [ $left -gt 5 ] || return
  timeout -s INT -k 20 $left $B/batchlas tune potrf --device cuda:0 $T "$@" --out build/$name > $L/$name.log 2>&1
  echo "rc $?" >> $L/$name.log
}
tune p41e --dtype float64 --n 96,128 --batch 4096,16384
step done; pack
cat $L/stages.txt; grep -H "^rc \|points" $L/*.log
for f in $L/p41e*/potrf.float*.sm_90.txt; do grep -E "^[LU] " $f | cut -c1-120; done
wc -l $L/p41e*/*.journal
