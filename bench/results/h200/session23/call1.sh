#!/usr/bin/env bash
# session 23 call 1: posv_warp's shuffle solve, n = 33…64 (lab variants by ZZ_OPTS)
set -u
R=$PWD; O=$OUT
mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu --format=csv > $O/gpu.txt
cd $R/internal/gpu/potrf
timeout 150 $R/build/gpu30/potrf.test -test.run 'TestWarpKernelResources|TestWarpArguments' -test.v > $O/c1-warp-resources.log 2>&1
for v in "" "-DWS_MAX=8 -DWS_UNROLL=2" "-DWS_UNROLL=1" "-DZZ_LB=6"; do
  tag=$(echo "base$v" | tr -d ' =-' ); echo "== $v" >> $O/c1-posvwarp-timing.log
  ZZ_OPTS="$v" timeout 100 $R/build/gpu30/potrf.test -test.run 'TestPosvWarpTiming' -test.v >> $O/c1-posvwarp-timing.log 2>&1
done
ZZ_OPTS="-DZZ_LB=6" timeout 60 $R/build/gpu30/potrf.test -test.run 'TestWarpKernelResources' -test.v > $O/c1-lb6-resources.log 2>&1
for v in "" "-DZZ_LB=6"; do
  echo "== $v" >> $O/c1-potrfwarp-timing.log
  ZZ_OPTS="$v" timeout 60 $R/build/gpu30/potrf.test -test.run 'TestPotrfWarpTiming' -test.v >> $O/c1-potrfwarp-timing.log 2>&1
done
cd $R/internal/gpu/posv
timeout 200 $R/build/gpu30/posv.test -test.run 'TestPosv$/float32|TestConformance|TestKernelResources' > $O/c1-posv-check.log 2>&1; echo "rc $?" >> $O/c1-posv-check.log
timeout 120 $R/build/gpu30/posv.test -test.run 'TestPosvTiming/float32/n=(48|64)' -test.v > $O/c1-posv-timing.log 2>&1
ls -la $O
