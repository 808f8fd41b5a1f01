#!/usr/bin/env bash
# Session 55, call 6 (kind nvidia-h200, which may lend an H100; BUDGET=440, timeout_s 480; carry ["build/gpu/s55",
# "build/gpu/s55h"]): calls 4 and 5 were refused. On an H200, call4.sh (the patch's tests, then call 3's tunes
# again, Upper-heavy orders first); on an H100, call5.sh (the tests, then native:cta by 4d91435 and by the patch in
# turns), whose times cannot go into the H200's tables.
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
	exec bash bench/results/h200/session55/call4.sh
fi
exec bash bench/results/h200/session55/call5.sh
