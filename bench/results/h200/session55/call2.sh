#!/usr/bin/env bash
# Session 55, call 2 (carry ["build/gpu/s55"], built by session54/next-build.sh): call 1 (session54/next-call.sh)
# ran out of its 200 s in posv's TestPosv on a cold kernel cache (n = 1…32 compile per order) before reaching
# the orders above MaxN; this call runs TestPosv at posvCTASizes only (where posv_cta and potrs_cta run), then
# TestConformance.
R=$PWD
export XDG_CACHE_HOME=$R/build/kcache
. scripts/device-steps.sh
B=$R/build/gpu/s55
nvidia-smi --query-gpu=name,driver_version --format=csv > $L/gpu.txt 2>&1
cp $B/commit $L/commit.txt
step posv-cta 330 $R/internal/gpu/posv $B/posv.test -test.v -test.run '^TestPosv$/.*/.*/^n=(33|40|44|45|47|48|49|55|56|57|63|64)$'
step posv-conformance 200 $R/internal/gpu/posv $B/posv.test -test.v -test.run '^TestConformance$'
cat $L/gpu.txt $L/stages.txt; grep -H "^rc " $L/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic|worst" $L/*.log | head -30
