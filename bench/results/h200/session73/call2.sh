#!/usr/bin/env bash
# Session 73, call 2: racecheck on TestPotrf's one case that session 72's calls 4 and 5 did not finish, complex128
# Upper n = 32 (its 300 s ran out there), alone with 500 s, by a build of the potrf package at 53dab8a (no kernel
# change since aa20f08, which session 72 checked):
#   scripts/device-build build/gpu/s73p potrf:./internal/gpu/potrf; tar -C build/gpu -cJf build/gpu/s73p.tar.xz s73p
# carry ["build/gpu/s73p.tar.xz"]. The warm machine of call 1 keeps build/kcache.
[ -d build/gpu/s73p ] || tar -C build/gpu -xJf build/gpu/s73p.tar.xz
export BUDGET=${BUDGET:-560}
. scripts/device-steps.sh
record "$PWD/build/gpu/s73p"
step racecheck 540 "$PWD/internal/gpu/potrf" /usr/local/cuda/bin/compute-sanitizer --tool racecheck \
	--error-exitcode 9 "$B/potrf.test" -test.v -test.run '^TestPotrf$/^complex128$/^Upper$/^n=32$'
grep -hE "RACECHECK SUMMARY|^(--- FAIL|FAIL|ok|PASS)|^rc |^    --- PASS" "$L/racecheck.log"
call_report
