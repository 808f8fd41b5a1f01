#!/usr/bin/env bash
# Session 41 call 4: the posv and potrs tables' rows that session 39's change concerns, with its final kernels (session
# 39's own tunes of them were lost with their logs). posv Upper n = 48 and 64, float32 and float64, on the tables' grid
# (posv_warp's aligned Upper through the wide tile; the committed rows are session 38's, in place); then the float64
# points the tables lack (over their runs' --max-mib 1024): posv Lower n = 48, 64 at 65,536 systems and n = 96, 128 at
# 16,384; potrs Upper n = 48, 64 and Lower n = 48 at 65,536. tune as those tables' runs (20 ms, 3 repetitions), one
# deadline for the call (SIGINT lets tune finish its point). build/kcache.txz: call 1's kernel cache.
set -u
R=$PWD; W=/tmp/s41; L=$W/logs4; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache; B=$R/build/gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.used --format=csv > $L/gpu.txt 2>&1
pack() { for d in build/q41*; do [ -d $d ] && mkdir -p $L/${d#build/} && cp $d/* $L/${d#build/}/ 2>/dev/null; done; tar cJf $OUT/s41c4.tar.xz -C $W logs4; }
step() { pack; echo "=== $1 $(date +%T) ${SECONDS}s" >> $L/stages.txt; }
DEADLINE=360
T="--nrhs 1,4,16 --max-mib 2048 --time 20ms --count 3"
tune() {
  local name=$1; shift; step $name
  local left=$((DEADLINE - SECONDS)); [ $left -gt 5 ] || return
  timeout -s INT -k 20 $left $B/batchlas tune "$@" --device cuda:0 $T --out build/$name > $L/$name.log 2>&1
  echo "rc $?" >> $L/$name.log
}
tune q41u posv --dtype float32,float64 --uplo U --n 48,64 --batch 1024,16384,65536
tune q41l posv --dtype float64 --uplo L --n 48,64 --batch 65536
tune q41m posv --dtype float64 --uplo L --n 96,128 --batch 16384
tune q41p potrs --dtype float64 --uplo U --n 48,64 --batch 65536
tune q41q potrs --dtype float64 --uplo L --n 48 --batch 65536
step done; pack
cat $L/stages.txt; grep -H "^rc \|points" $L/*.log
for f in $L/q41*/*.sm_90.txt; do echo "# $f"; grep -E "^[LU] " $f | cut -c1-110; done
grep -h " - \| -$" $L/q41*/*.sm_90.txt | head -3
