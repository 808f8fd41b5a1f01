#!/usr/bin/env bash
# Session 26 call 1: chol_tiled's diagonal task g ticketed right after tile (g, g − 2) (build/gpu61; build/gpu60 is
# main at d7f34d2, the previous order). The suite's cases that take the tiled driver, arm auto, old and new builds
# interleaved twice; the tiled driver's tests and TestPotrf's tiled panels on the new order; then a mutant order
# (build/gpu62: diagonal task g + 1 before tile (g + 1, g − 1), which it reads) on one case with a one-block grid,
# which should hang. Each step re-packs the logs, so a call cut short still brings back what ran.
set -u
R=$PWD; L=/tmp/c1/logs; mkdir -p $L
tar xJf build/gpu6x.txz -C build; mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
pack() { tar cJf $OUT/c1.tar.xz -C /tmp/c1 logs; }
step() { echo "=== $1 $(date +%T)" >> $L/stages.txt; }
C='n=(256/batch=64|512/batch=(16|640)|1024/batch=(4|60)|2048/batch=[28]|4096/batch=[12]|8192/batch=1)$'
for b in gpu60 gpu61 gpu60 gpu61; do
  step "suite $b"; timeout 120 build/$b/batchlas bench -suite cholesky-gpumode -cases "$C" -arms auto >> $L/suite-$b.log 2>&1; echo "rc $?" >> $L/suite-$b.log; pack
done
cd $R/internal/gpu/cholblocked
B=$R/build/gpu61/blocked.test
step tiled; timeout 200 $B -test.run 'TestKernelResources|TestPotrfTiled$|TestConformanceTiled|TestTiledArguments' -test.v > $L/tiled.log 2>&1; echo "rc $?" >> $L/tiled.log; pack
step panels; timeout 150 $B -test.run 'TestPotrf$/./././././tiled=true' -test.v > $L/panels.log 2>&1; echo "rc $?" >> $L/panels.log; pack
step mutant; timeout 40 $R/build/gpu62/blocked.test -test.run 'TestPotrfTiled/^float32$/^Lower$/^n=97$' -test.v > $L/mutant.log 2>&1; echo "rc $?" >> $L/mutant.log; pack
step done; pack
