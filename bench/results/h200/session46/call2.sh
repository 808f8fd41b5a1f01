#!/usr/bin/env bash
# Session 46, call 2 (prepared, not run: no machine was lent): the lab alone, on the tree as committed
# (lab/cta.py reads its kernels from lab/*.cu.xz and brings the cp.async group helpers itself).
# A later session that applies cta-steps.patch or cta-staged.patch builds the test binaries
# first (scripts/gpu-bundle --gpu) and adds their CTA tests, as call 1 did.
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
L=$OUT/logs; mkdir -p $L
timeout 400 python3 bench/results/h200/session46/lab/cta.py > $L/lab-cta.log 2>&1; echo "lab rc $?" >> $L/lab-cta.log
tar -C $OUT -czf $OUT/logs.tgz logs
grep -E "BAD|DIFFERS|WRITTEN|RESIDUAL|ALL OK|SOME|rc " $L/lab-cta.log | head; sed -n '/^times/,$p' $L/lab-cta.log | head -80
