#!/usr/bin/env bash
# Session 35 call 3 (the command as run, on one line there): TestWarpKernelResources to the end with call 2's kernel
# cache (kc35b.txz; call 2's run was cut by its 200 s limit after 71 of the 106 kernels).
set -u; R=$PWD; mkdir -p build/kcache $OUT/logs3; export XDG_CACHE_HOME=$R/build/kcache
for c in kcache kc34b kc35b; do tar xJf build/$c.txz -C build/kcache 2>/dev/null; done
cd internal/gpu/potrf; SECONDS=0
timeout 280 $R/build/gpu35/potrf.test -test.v -test.run 'TestWarpKernelResources' > $OUT/logs3/resources.log 2>&1
echo "rc $? ${SECONDS}s" >> $OUT/logs3/resources.log; tail -2 $OUT/logs3/resources.log; grep -c registers $OUT/logs3/resources.log
grep -E " [1-9][0-9]* B local" $OUT/logs3/resources.log | head
