#!/usr/bin/env bash
# Session 19 call 7: blocked.cu variants compiled as the engine does (ptx.py): local memory of chol_tiled, and times from the cubins.
set -u
stage() { echo "=== $1 $(date +%T)"; }
stage ptx; timeout 400 python3 build/lab19/ptx.py 2>&1 | tee $OUT/ptx.log | cut -c1-900
stage done
