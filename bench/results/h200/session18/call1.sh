#!/usr/bin/env bash
# Session 18 call 1: chol_tiled's per-task stamps (two ticket orders), then the landed build's checks.
set -u
R=$PWD; B=$R/build/gpu1
mkdir -p build/kcache && tar xJf build/kc1.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
stage() { echo "=== $1 $(date +%T)"; }
stage lab; timeout ${LT:-200} python3 build/lab/tiledprof.py > $OUT/prof.log 2>&1; echo rc $?; cat $OUT/prof.log | cut -c1-300
[ "${TESTS:-1}" = 1 ] || exit 0
stage tests
(cd internal/gpu/cholblocked && timeout 280 $B/blocked.test -test.run 'TestKernelResources|TestPotrf$/float32|TestPotrfTiled' -test.v > $OUT/blocked.log 2>&1; echo "blocked rc $?" >> $OUT/rc.txt) &
(timeout 280 $B/batchlas kernels > $OUT/kernels.txt 2> $OUT/kernels.err; echo "kernels rc $?" >> $OUT/rc.txt) &
wait
cat $OUT/rc.txt
grep -E '^(--- FAIL|FAIL|ok|PASS)|panic|local' $OUT/blocked.log | head -20; grep -c -- '--- PASS' $OUT/blocked.log
grep -E 'chol_tiled<float' $OUT/kernels.txt | cut -c1-100; grep -ciE ' [1-9][0-9]* B local|local [1-9]' $OUT/kernels.txt
stage done
