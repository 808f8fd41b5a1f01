#!/usr/bin/env bash
# Session 38 call 4: posv's TestConformance for float64 and the complex types (call 3 cut it by its step's limit at
# float64 Potrs Upper n = 30, every case before it passed). build/gpu as in call 3; build/kcache.txz: call 3's cache.
set -u
R=$PWD; W=/tmp/s38; L=$W/logs4; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache; B=$R/build/gpu
cd internal/gpu/posv && timeout -s INT -k 10 200 $B/posv.test -test.v -test.run 'TestConformance/(float64|complex64|complex128)' > $L/conformance.log 2>&1
echo "rc $?" >> $L/conformance.log; tar cJf $OUT/s38c4.tar.xz -C $W logs4
grep -hE "^(--- FAIL|FAIL|ok|PASS)|^rc |^    --- " $L/conformance.log | head -20
