#!/usr/bin/env bash
# session 24 call 4: lab variants of the s24 row solve (WS_PRED: masked multipliers instead of branches; WS_UNROLL)
set -u
R=$PWD; L=$OUT/logs; mkdir -p $L
mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu43
cd $R/internal/gpu/potrf
for v in "" "-DWS_PRED=1" "-DWS_UNROLL=8" "-DWS_PRED=1 -DWS_UNROLL=8"; do
  tag=$(echo "base $v" | tr -c 'A-Za-z0-9=\n' '_')
  echo "=== $v $(date +%T)" >> $L/stages.txt
  ZZ_OPTS="$v" timeout 40 $B/potrf.test -test.run 'TestZZRes' -test.v > $L/c4-res-$tag.log 2>&1
  ZZ_OPTS="$v" timeout 60 $B/potrf.test -test.run 'TestPosvWarpTiming' -test.v > $L/c4-timing-$tag.log 2>&1
done
cd $OUT && tar cJf c4.tar.xz logs && rm -rf logs && ls -la $OUT
