#!/usr/bin/env bash
# Session 41 call 2: the potrf tables' missing rows (session 39's call 4 again; its step limits cut three of its five
# grids and its logs were lost). The tables' run (session 30's grid, --max-mib 256) left out every point over 256 MiB,
# and the nearest row then came from another order: batchlas route sent float32 n = 48 with 65,536 matrices to
# native:tiled:occ=4 (the row n = 32) and float64 n = 48 with 16,384 or 65,536 to native:blocked. The same tune as
# those rows (--inputs gpumode, 20 ms, 3 repetitions), both triangles, only the points the tables lack, the most used
# first, each grid in its own folder. Every arm runs at every point, vendor:loop (a cuSOLVER call per matrix, about
# a second per call at 65,536) too, so one point takes tens of seconds: one deadline for the whole call instead of
# a limit per grid; SIGINT lets tune finish its point, so each journal ends on whole points.
# build/gpu/batchlas: the working tree's CLI; build/kcache.txz: call 1's kernel cache.
set -u
R=$PWD; W=/tmp/s41; L=$W/logs2; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache; B=$R/build/gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
pack() { for d in build/p41*; do [ -d $d ] && mkdir -p $L/${d#build/} && cp $d/* $L/${d#build/}/ 2>/dev/null; done; tar cJf $OUT/s41c2.tar.xz -C $W logs2; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
DEADLINE=565
T="--uplo L,U --inputs gpumode --max-mib 4096 --time 20ms --count 3"
tune() {
  local name=$1; shift; step $name
  local left=$((DEADLINE - SECONDS)); [ $left -gt 5 ] || return
  timeout -s INT -k 20 $left $B/batchlas tune potrf --device cuda:0 $T "$@" --out build/$name > $L/$name.log 2>&1
  echo "rc $?" >> $L/$name.log
}
tune p41a --dtype float32 --n 48,56,64 --batch 65536
tune p41b --dtype float64 --n 48,56,64 --batch 16384,65536
tune p41c --dtype float64 --n 32 --batch 65536
tune p41d --dtype float32 --n 96,128 --batch 16384,65536
step done; pack
cat $L/stages.txt; grep -H "^rc \|points" $L/*.log
for f in $L/p41*/potrf.float*.sm_90.txt; do grep -E "^[LU] " $f | cut -c1-120; done
wc -l $L/p41*/*.journal
