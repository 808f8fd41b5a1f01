#!/usr/bin/env bash
# session 23 call 2: posv_warp's solve through the warp's buffer, not inlined (lab variants by ZZ_OPTS)
set -u
R=$PWD; O=$OUT
mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu --format=csv > $O/gpu.txt
cd $R/internal/gpu/potrf
timeout 150 $R/build/gpu30/potrf.test -test.run 'TestWarpKernelResources|TestWarpArguments' -test.v > $O/c2-warp-resources.log 2>&1
for v in "" "-DWS_SMEM=99" "-DWS_MAX=8 -DWS_UNROLL=2" "-DZZ_INLINE"; do
  echo "== $v" >> $O/c2-posvwarp-timing.log
  ZZ_OPTS="$v" timeout 100 $R/build/gpu30/potrf.test -test.run 'TestPosvWarpTiming' -test.v >> $O/c2-posvwarp-timing.log 2>&1
done
cd $R/internal/gpu/posv
timeout 200 $R/build/gpu30/posv.test -test.run 'TestPosv$/float32|TestConformance|TestKernelResources' > $O/c2-posv-check.log 2>&1; echo "rc $?" >> $O/c2-posv-check.log
timeout 120 $R/build/gpu30/posv.test -test.run 'TestPosvTiming/float32/n=(48|64)' -test.v > $O/c2-posv-timing.log 2>&1
ls -la $O
