#!/usr/bin/env bash
# Session 38 call 5 (the session's last device seconds): the complex Upper rows n = 4…32 of posv and potrs again, with
# call 3's kernels (call 2 measured them with HEAD's), into build/t38f. build/gpu as in call 3; call 3's kernel cache.
set -u
R=$PWD; W=/tmp/s38; L=$W/logs5; mkdir -p $L build/kcache build/t38f; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache; B=$R/build/gpu
pack() { cp build/t38f/* $L/ 2>/dev/null; tar cJf $OUT/s38c5.tar.xz -C $W logs5; }
for op in posv potrs; do
  lim=100; [ $op = potrs ] && lim=75
  timeout -s INT -k 10 $lim $B/batchlas tune $op --device cuda:0 --dtype complex64,complex128 --uplo U --n 4,8,16,32 \
    --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 1024 --out build/t38f --time 20ms --count 3 > $L/tune-$op.log 2>&1
  echo "rc $? ${SECONDS}s" >> $L/tune-$op.log; pack
done
grep -h "points\|^rc" $L/*.log
