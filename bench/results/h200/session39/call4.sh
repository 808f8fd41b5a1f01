#!/usr/bin/env bash
# Session 39 call 4: the potrf tables' missing rows in the small and medium range. Their run (session 30, --max-mib 256)
# left out every point over 256 MiB, and the nearest row then came from another order: batchlas route sent float32
# n = 48 with 65,536 matrices to native:tiled:occ=4 (the row n = 32) and float64 n = 48 with 16,384 or 65,536 to
# native:blocked (the row n = 32, 16,384 or the row n = 48, 4,096's tie). The same tune as those rows (--inputs
# gpumode, 20 ms, 3 repetitions), both triangles, only the points the tables lack, the most used first; each grid in
# its own folder, so a cut step leaves the others whole. build/gpu/batchlas: the working tree's CLI.
set -u
R=$PWD; W=/tmp/s39; L=$W/logs4; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache; B=$R/build/gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
pack() { for d in build/p39*; do [ -d $d ] && mkdir -p $L/${d#build/} && cp $d/* $L/${d#build/}/ 2>/dev/null; done; tar cJf $OUT/s39c4.tar.xz -C $W logs4; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
T="--uplo L,U --inputs gpumode --max-mib 4096 --time 20ms --count 3"
tune() { local name=$1 limit=$2; shift 2; step $name; run $name $limit $B/batchlas tune potrf --device cuda:0 $T "$@" --out build/$name; }
tune p39a 80  --dtype float32 --n 48,56,64 --batch 65536
tune p39b 130 --dtype float64 --n 48,56,64 --batch 16384,65536
tune p39c 30  --dtype float64 --n 32 --batch 65536
tune p39d 120 --dtype float32 --n 96,128 --batch 16384,65536
tune p39e 170 --dtype float64 --n 96,128 --batch 4096,16384,65536
step done; pack
cat $L/stages.txt; grep -H "^rc " $L/*.log
for f in $L/p39*/potrf.float*.sm_90.txt; do grep -E "^[LU] " $f | cut -c1-110; done
grep -h " - \| -$" $L/p39*/potrf.float*.sm_90.txt | head
