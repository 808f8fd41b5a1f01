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
RACE_LIMIT=540 potrf_race "$B" '^TestPotrf$/^complex128$/^Upper$/^n=32$'
call_report
