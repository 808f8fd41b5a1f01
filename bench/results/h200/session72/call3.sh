#!/usr/bin/env bash
# Session 72, call 3 (the H200 of calls 1 and 2, warm): potrf's tests again, call 2's having run out of their 200 s
# compiling a cold kernel cache; build and carry as in call1.sh. Run as this file's lines, given inline.
[ -d build/gpu/s72 ] || tar -C build/gpu -xJf build/gpu/s72.tar.xz; . scripts/device-steps.sh; record "$PWD/build/gpu/s72"; step potrf-tests 420 "$PWD/internal/gpu/potrf" "$B/potrf.test" -test.v -test.skip 'Timing$|^TestRegVariants$'; grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic|^rc " "$L"/potrf-tests.log; grep -c "^--- PASS\|^    --- PASS" "$L"/potrf-tests.log; tar -C "$OUT" -czf "$OUT/logs.tgz" logs
