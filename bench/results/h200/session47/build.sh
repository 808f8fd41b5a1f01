#!/usr/bin/env bash
# Session 47: builds here the test binaries call2.sh runs, into build/gpu/s47 (carry build/gpu): from the
# committed tree the root package's (TestStatusesWritten, TestPosvOverhead), potrf's, posv's and cholblocked's; and
# root-guard.test, the root package with posv_reg storing only the statuses of matrices that fail (a worktree
# under /tmp, posv.cu changed by sed), on which TestStatusesWritten's Posv cases must fail where posv_reg runs
# (n ≤ 32). Session 46's build-call2.sh builds call1.sh's binaries (cta-steps.patch) into build/gpu/s46.
set -euo pipefail
R=$(git rev-parse --show-toplevel)
out=$R/build/gpu/s47
rm -rf "$out"
mkdir -p "$out"
export CGO_ENABLED=0 GOOS=linux GOARCH=amd64
flags=(-trimpath -ldflags=-s\ -w)
(cd "$R" && go test -c "${flags[@]}" -o "$out/root.test" .)
(cd "$R" && go test -c "${flags[@]}" -o "$out/potrf.test" ./internal/gpu/potrf)
(cd "$R" && go test -c "${flags[@]}" -o "$out/posv.test" ./internal/gpu/posv)
(cd "$R" && go test -c "${flags[@]}" -o "$out/cholblocked.test" ./internal/gpu/cholblocked)
W=$(mktemp -d)/tree
git -C "$R" worktree add -q --detach "$W" HEAD
trap 'git -C "$R" worktree remove --force "$W"' EXIT
old='    if (active \&\& lane == 0) info\[m\] = fail;'
new='    if (active \&\& lane == 0 \&\& fail != 0) info[m] = fail; \/\/ guard build: successes not stored'
sed -i "s/^$old\$/$new/" "$W/internal/gpu/posv/posv.cu"
grep -q 'guard build: successes not stored' "$W/internal/gpu/posv/posv.cu"
(cd "$W" && go test -c "${flags[@]}" -o "$out/root-guard.test" .)
ls -la "$out"
