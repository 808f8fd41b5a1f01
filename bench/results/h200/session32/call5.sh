#!/usr/bin/env bash
# Session 32 call 5: the committed tree's (build/gpu32b) two tiled split kernels side by side where the tables route
# to the one built for four blocks a multiprocessor: the suite's cases n512 b640, n1024 b60, n2048 b8.
set -u
R=$PWD; L=/tmp/s32/logs5; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
for c in kcache kc32c; do tar xJf build/$c.txz -C build/kcache 2>/dev/null; done
timeout 150 build/gpu32b/batchlas bench -suite cholesky-gpumode -cases 'n=(512/batch=640|1024/batch=60|2048/batch=8)$' \
  -arms auto,native:tiled:prec=tf32x3,native:tiled:occ=4:prec=tf32x3 > $L/arms.log 2>&1; echo "rc $?" >> $L/arms.log
tar cJf $OUT/s32c5.tar.xz -C /tmp/s32 logs5; grep -E "^\| |^rc" $L/arms.log
