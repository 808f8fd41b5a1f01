#!/usr/bin/env bash
# Session 72, call 5 (the same H200, warm): call 4's racecheck again with 300 s. Run as this file's line, given inline.
[ -d build/gpu/s72 ] || tar -C build/gpu -xJf build/gpu/s72.tar.xz; export BUDGET=320 RACE_LIMIT=300; . scripts/device-steps.sh; record "$PWD/build/gpu/s72"; potrf_race "$B"; grep -hE "RACECHECK SUMMARY|^(--- FAIL|FAIL|ok|PASS)|^rc " "$L/racecheck.log"; grep -c -- "--- PASS" "$L/racecheck.log"; tail -3 "$L/racecheck.log"
