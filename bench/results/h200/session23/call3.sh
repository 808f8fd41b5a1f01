#!/usr/bin/env bash
# session 23 call 3: posv_warp with the solve inlined at n = 64 only; checks, timing, posv tune rows n = 48, 64
set -u
R=$PWD; O=$OUT
mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu --format=csv > $O/gpu.txt
opts="-DWS_INLINE_FROM=64"
cd $R/internal/gpu/potrf
ZZ_OPTS="$opts" timeout 150 $R/build/gpu30/potrf.test -test.run 'TestWarpKernelResources|TestWarpArguments' -test.v > $O/c3-warp-resources.log 2>&1
if grep -q "posv_warp<float, 64> uses" $O/c3-warp-resources.log; then opts=""; echo "inline spilled: default options" >> $O/c3-warp-resources.log; fi
echo "options: $opts" > $O/c3-options.txt
ZZ_OPTS="$opts" timeout 100 $R/build/gpu30/potrf.test -test.run 'TestPosvWarpTiming' -test.v > $O/c3-posvwarp-timing.log 2>&1
cd $R/internal/gpu/posv
ZZ_OPTS="$opts" timeout 200 $R/build/gpu30/posv.test -test.run 'TestPosv$/float32|TestConformance|TestKernelResources' > $O/c3-posv-check.log 2>&1; echo "rc $?" >> $O/c3-posv-check.log
ZZ_OPTS="$opts" timeout 120 $R/build/gpu30/posv.test -test.run 'TestPosvTiming/float32/n=(48|64)' -test.v > $O/c3-posv-timing.log 2>&1
cd $R
ZZ_OPTS="$opts" timeout 200 build/gpu30/batchlas tune posv --device cuda --dtype float32 --n 48,64 --nrhs 1,4,16 --batch 1024,16384,65536 --max-mib 1024 --out $O/tuned --time 20ms --count 3 > $O/c3-tune-posv.log 2>&1
ls -la $O $O/tuned
