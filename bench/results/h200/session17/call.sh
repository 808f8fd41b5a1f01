#!/usr/bin/env bash
# Call script: lab, blocked tests, suite. Logs under $OUT.
set -u
R=$PWD; B=$R/build/gpu1
mkdir -p build/kcache && tar xJf build/kc1.txz -C build/kcache 2>/dev/null
export XDG_CACHE_HOME=$R/build/kcache
stage() { echo "=== $1 $(date +%T)"; }
if [ "${LAB:-1}" = 1 ]; then
  stage lab; timeout 120 python3 build/lab/fb.py . > $OUT/lab.log 2>&1; echo rc $?; grep -v '^ *$' $OUT/lab.log | grep -iv 'res-usage\|^Resource\|Function\|REG:' | tail -60
  grep -B1 -A1 'new_\|old_\|fb_' $OUT/lab.log | grep -i 'REG\|Function' | head -20
fi
if [ -n "${TESTS:-}" ]; then
  stage tests; (cd internal/gpu/cholblocked && timeout ${TT:-240} $B/blocked.test -test.run "$TESTS" ${TARGS:-} > $OUT/tests.log 2>&1; echo rc $?); grep -E '^(--- FAIL|FAIL|ok|PASS)|panic' $OUT/tests.log | head -40; tail -5 $OUT/tests.log
fi
if [ -n "${SUITE:-}" ]; then
  stage suite; timeout ${ST:-300} $B/batchlas bench -suite cholesky-gpumode -arms $SUITE ${SARGS:-} > $OUT/suite.log 2>&1; echo rc $?; tail -25 $OUT/suite.log
fi
if [ -n "${ROOT:-}" ]; then
  stage root; timeout ${RT:-200} $B/root.test -test.run "$ROOT" ${RARGS:-} > $OUT/root.log 2>&1; echo rc $?; grep -E '^(--- FAIL|FAIL|ok|PASS)|panic' $OUT/root.log | head -30
fi
stage pack; tar cJf $OUT/kcache.txz -C build/kcache . ; stage done
