#!/usr/bin/env bash
# Session 46, call 2 (prepared, not run: no machine was lent): the lab on the committed tree (lab/cta.py reads
# its kernels from lab/*.cu.xz and brings the cp.async group helpers itself); then, where build-call2.sh left
# them in build/gpu/s46 (carry build/gpu), the potrf package's CTA tests (TestPotrfCTATiming against the vendor
# included) and TestPosv's complex cases (posv_cta) on cta-steps.patch's kernels.
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
L=$OUT/logs; mkdir -p $L
timeout 330 python3 bench/results/h200/session46/lab/cta.py > $L/lab-cta.log 2>&1; echo "lab rc $?" >> $L/lab-cta.log
tar -C $OUT -czf $OUT/logs.tgz logs
B=$R/build/gpu/s46
if [ -x $B/potrf.test ]; then
  (cd internal/gpu/potrf && timeout 120 $B/potrf.test -test.v -test.run 'TestCTA|TestPotrfCTA' > $L/potrf-cta.log 2>&1; echo "rc $?" >> $L/potrf-cta.log)
  tar -C $OUT -czf $OUT/logs.tgz logs
  (cd internal/gpu/posv && timeout 90 $B/posv.test -test.v -test.run '^TestPosv$/^complex' > $L/posv-complex.log 2>&1; echo "rc $?" >> $L/posv-complex.log)
  tar -C $OUT -czf $OUT/logs.tgz logs
fi
grep -E "BAD|DIFFERS|WRITTEN|RESIDUAL|ALL OK|SOME|rc " $L/lab-cta.log | head; sed -n '/^times/,$p' $L/lab-cta.log | head -80
grep -hE "^(--- FAIL|FAIL|ok|PASS|rc)|cta_test.go:4" $L/potrf-cta.log $L/posv-complex.log 2>/dev/null | head -30
