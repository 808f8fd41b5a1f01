#!/usr/bin/env bash
# Session 72, call 4 (the same H200, warm): racecheck on TestPotrf (potrf_race, which ran out of its 120 s), then the
# float32 potrf rows n = 32 and 128 on GPU MODE's inputs, both triangles (tune_gpumode; --max-mib 256 keeps n = 128 to
# 4,096 matrices), by HEAD's build s72 (call1.sh). Run as this file's line, given inline.
[ -d build/gpu/s72 ] || tar -C build/gpu -xJf build/gpu/s72.tar.xz; export BUDGET=470; . scripts/device-steps.sh; record "$PWD/build/gpu/s72"; potrf_race "$B"; tune_gpumode float32 32 128; call_report
