#!/usr/bin/env bash
# Session 50, call 2, as run (carry ["build/gpu/s49"], timeout_s 600; logs1/): session 48's call 1 (the factor lab,
# chol_tiled with each form of factor_quarters, racecheck), then `batchlas run` against NumPy on the GPU with the
# working tree's scripts/run-numpy-check (square and rectangular getrf) and session 49's CLI.
bash bench/results/h200/session48/call1.sh
mkdir -p $OUT/logs1
(timeout 120 python3 scripts/run-numpy-check build/gpu/s49/batchlas -device cuda > $OUT/logs1/run-numpy.log 2>&1; echo "rc $?" >> $OUT/logs1/run-numpy.log)
tar -C $OUT -czf $OUT/logs1.tgz logs1
grep -c "^ok" $OUT/logs1/run-numpy.log; grep -v "^ok" $OUT/logs1/run-numpy.log | head
