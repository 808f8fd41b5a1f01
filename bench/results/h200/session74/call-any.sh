#!/usr/bin/env bash
# Session 74, for any card, by builds of the HEAD it is run from: the cuda package's vendor tests (cublas.go's gemmCodes
# and pinPair, session 74, under GemmStridedBatched, its Ex form, Syrk and Herk); potrf's timing tests (TestPotrfTiming,
# TestPotrfCTATiming, TestPotrfWarpTiming) and posv's (TestPosvTiming), where the potrf ones share timeAgainstVendor
# (the same arms, order and checks) and all take gputest.Solver; then session73/next-race.sh's racecheck of TestPotrf
# complex128 Upper n = 32 with what is left. Built here:
#   scripts/device-build build/gpu/s74c cuda:./internal/cuda
#   scripts/device-build build/gpu/s73p potrf:./internal/gpu/potrf
#   scripts/device-build build/gpu/s73 posv:./internal/gpu/posv
#   for b in s74c s73 s73p; do tar -C build/gpu -cJf build/gpu/$b.tar.xz $b; done
# carry ["build/gpu/s74c.tar.xz", "build/gpu/s73.tar.xz", "build/gpu/s73p.tar.xz"].
for b in s74c s73 s73p; do [ -d "build/gpu/$b" ] || tar -C build/gpu -xJf "build/gpu/$b.tar.xz"; done
export BUDGET=${BUDGET:-570}
. scripts/device-steps.sh
record "$PWD/build/gpu/s73p"
vendor_tests "$PWD/build/gpu/s74c"
timing_and_race "$B" "$PWD/build/gpu/s73"
call_report
