#!/usr/bin/env bash
# Session 30 call 3, after the review: the landed code with the warp tier's order rule written once
# (checkWarpOrder), comments, and TestRouteGPUCandidates run for float64 too (its native:warp pin up to n = 56; the
# refusal of native:warp now asserted for complex only). Binaries build/gpu30b. Runs the root package's
# TestRouteGPUCandidates and TestStatusesWritten, TestWarpArguments, TestPotrfWarp float64 and TestPosv float64.
set -u
R=$PWD; L=/tmp/s30c3/logs; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
tar xJf build/kcache.txz -C build/kcache 2>/dev/null
B=$R/build/gpu30b
pack() { tar cJf $OUT/s30c3.tar.xz -C /tmp/s30c3 logs; }
run() { local name=$1 limit=$2; shift 2; echo "=== $name ${SECONDS}s" >> $L/stages.txt; timeout $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; pack; }
run root 200 $B/batchlas.test -test.run 'TestRouteGPUCandidates|TestStatusesWritten' -test.v
cd $R/internal/gpu/potrf; run potrf 120 $B/potrf.test -test.run 'TestWarpArguments|TestPotrfWarp$/float64' -test.v
cd $R/internal/gpu/posv; run posv 120 $B/posv.test -test.run 'TestPosv$/float64' -test.v
cat $L/stages.txt; grep -H "^rc " $L/*.log; grep -hE "^(--- FAIL|    --- FAIL|--- PASS|ok|PASS|FAIL)" $L/*.log | head -30; grep -hE "native:warp|float64" $L/root.log | grep -E "FAIL|Error|differs" | head
