#!/usr/bin/env bash
# session 24 call 2: wip/posv-columns (warp_columns for nrhs >= WC_FROM): resources, checks, timing variants, posv vs vendor
set -u
R=$PWD; L=$OUT/logs; mkdir -p $L
mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu --format=csv > $L/gpu.txt
B=$R/build/gpu41
st() { echo "=== $1 $(date +%T)" >> $L/stages.txt; }
cd $R/internal/gpu/potrf
st res; timeout 100 $B/potrf.test -test.run 'TestWarpKernelResources|TestWarpArguments' -test.v > $L/c2-resources.log 2>&1; echo "rc $?" >> $L/c2-resources.log
st t8; timeout 80 $B/potrf.test -test.run 'TestPosvWarpTiming' -test.v > $L/c2-timing-from8.log 2>&1
cd $R/internal/gpu/posv
st check; timeout 150 $B/posv.test -test.skip Timing -test.v > $L/c2-posv-check.log 2>&1; echo "rc $?" >> $L/c2-posv-check.log
st check1; ZZ_OPTS=-DWC_FROM=1 timeout 60 $B/posv.test -test.run 'TestPosv$/float32' -test.v > $L/c2-posv-check-from1.log 2>&1; echo "rc $?" >> $L/c2-posv-check-from1.log
st vendor; timeout 60 $B/posv.test -test.run 'TestPosvTiming/float32/n=(48|64)' -test.v > $L/c2-posv-timing.log 2>&1
cd $R/internal/gpu/potrf
st t4; ZZ_OPTS=-DWC_FROM=4 timeout 80 $B/potrf.test -test.run 'TestPosvWarpTiming' -test.v > $L/c2-timing-from4.log 2>&1
st f16; ZZ_OPTS=-DWC_FENCE=16 timeout 80 $B/potrf.test -test.run 'TestPosvWarpTiming' -test.v > $L/c2-timing-fence16.log 2>&1
st done
cd $OUT && tar cJf c2.tar.xz logs && rm -rf logs && ls -la $OUT
