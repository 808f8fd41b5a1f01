#!/usr/bin/env bash
# Session 44 call 8: the final Go launchers (solveArgs shared by posv_warp, potrs_warp and posv_split): potrf's
# TestPosvSplit (-short), TestPotrsCTAMatchesWarp float64; posv's TestPosvApart.
set -u
R=$PWD; L=$OUT/logs8; mkdir -p $L build/kcache; export XDG_CACHE_HOME=$R/build/kcache
B=$R/build/gpu
run() { local name=$1 limit=$2; shift 2; timeout -s INT -k 10 $limit "$@" > $L/$name.log 2>&1; echo "rc $?" >> $L/$name.log; }
(cd internal/gpu/potrf && run warp 150 $B/potrf.test -test.v -test.short -test.run '^TestPosvSplit$' &&
  run cta 100 $B/potrf.test -test.v -test.run '^TestPotrsCTAMatchesWarp$/^float64$') &
(sleep 2; cd internal/gpu/posv && run apart 150 $B/posv.test -test.v -test.run '^TestPosvApart$') &
wait
grep -H "^rc " $L/*.log
grep -hE "^(--- FAIL|FAIL|ok|PASS)|panic|^--- PASS: Test[A-Za-z]* " $L/*.log | sort | uniq -c
