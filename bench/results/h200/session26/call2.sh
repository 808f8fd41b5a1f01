#!/usr/bin/env bash
# Session 26 call 2: main at d7f34d2 (c7e6511's warp.cu, never run on the GPU before; build/gpu63, posv.test with
# session25/zz_tile_test.go.txt added): the posv package's tests without the timing, the warp tier's resources and
# arguments, Posv Upper through posv_warp's tile against posv_cta (session25/next-tile.sh), racecheck and memcheck
# on TestPosv float32 n = 33, 48, 64 both triangles, then TestPosvTiming float32 n = 48, 64 both triangles.
set -u
R=$PWD; L=/tmp/c2/logs; mkdir -p $L
tar xJf build/gpu63.txz -C build; mkdir -p build/kcache && tar xJf build/kc5.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu63; CS=/usr/local/cuda/bin/compute-sanitizer
pack() { tar cJf $OUT/c2.tar.xz -C /tmp/c2 logs; }
step() { echo "=== $1 $(date +%T)" >> $L/stages.txt; }
cd $R/internal/gpu/posv
step check; timeout 200 $B/posv.test -test.skip 'Timing|ZZ' -test.v > $L/posv-check.log 2>&1; echo "rc $?" >> $L/posv-check.log; pack
cd $R/internal/gpu/potrf
step resources; timeout 150 $B/potrf.test -test.run 'TestWarpKernelResources|TestWarpArguments' -test.v > $L/resources.log 2>&1; echo "rc $?" >> $L/resources.log; pack
cd $R/internal/gpu/posv
step tile; timeout 90 $B/posv.test -test.run 'TestZZPosvUpperTile' -test.v > $L/posv-upper-tile.log 2>&1; echo "rc $?" >> $L/posv-upper-tile.log; pack
for tool in racecheck memcheck; do
  step $tool; timeout 80 $CS --tool $tool $B/posv.test -test.run 'TestPosv$/float32/(Lower|Upper)/n=(33|48|64)(/vectors)?$' > $L/$tool.log 2>&1; echo "rc $?" >> $L/$tool.log; pack
done
step timing; timeout 50 $B/posv.test -test.run 'TestPosvTiming/float32/n=(48|64)' -test.v > $L/posv-timing.log 2>&1; pack
timeout 50 $B/posv.test -test.run 'TestPosvTiming/float32/Upper' -test.v > $L/posv-timing-upper.log 2>&1; pack
step done; pack
