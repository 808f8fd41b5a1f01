#!/usr/bin/env bash
# Prepared in session 73, not run (no machine came; then loans paused). Racecheck on TestPotrf's one case that
# session 72's calls 4 and 5 did not finish, complex128 Upper n = 32 (its 300 s ran out there), alone with 540 s, by a
# build of the potrf package at the HEAD it is run from, on any card:
#   scripts/device-build build/gpu/s73p potrf:./internal/gpu/potrf; tar -C build/gpu -cJf build/gpu/s73p.tar.xz s73p
# carry ["build/gpu/s73p.tar.xz"]. A warm machine keeps build/kcache from the calls before.
[ -d build/gpu/s73p ] || tar -C build/gpu -xJf build/gpu/s73p.tar.xz
export BUDGET=${BUDGET:-560}
. scripts/device-steps.sh
record "$PWD/build/gpu/s73p"
step racecheck 540 "$PWD/internal/gpu/potrf" /usr/local/cuda/bin/compute-sanitizer --tool racecheck \
	--error-exitcode 9 "$B/potrf.test" -test.v -test.run '^TestPotrf$/^complex128$/^Upper$/^n=32$'
grep -hE "RACECHECK SUMMARY|^(--- FAIL|FAIL|ok|PASS)|^rc |^    --- PASS" "$L/racecheck.log"
call_report
