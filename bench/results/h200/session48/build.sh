#!/usr/bin/env bash
# Session 48: builds here what call2.sh runs: cholblocked's test binary from the committed tree with factor_quarters
# in chol_tiled (lab/variant.py's text edit of blocked.cu, in a worktree under /tmp) in each of its four forms,
# named, mbar, full and mbar4, into build/gpu/s48/<form>, and the root package's test binary with its guard (below). Carry
# build/gpu/s48 with call 2 (about 34 MB; call 1 needs nothing built). Commit first: the worktree is HEAD's.
set -euo pipefail
R=$(git rev-parse --show-toplevel)
out=$R/build/gpu/s48
rm -rf "$out"
export CGO_ENABLED=0 GOOS=linux GOARCH=amd64
W=$(mktemp -d)/tree
git -C "$R" worktree add -q --detach "$W" HEAD
trap 'git -C "$R" worktree remove --force "$W"' EXIT
for form in named mbar full mbar4; do
	git -C "$W" checkout -q -- internal/gpu/cholblocked/blocked.cu
	python3 "$W/bench/results/h200/session48/lab/variant.py" "$W/internal/gpu/cholblocked/blocked.cu" $form
	grep -q "factor_quarters<NT, true" "$W/internal/gpu/cholblocked/blocked.cu"
	mkdir -p "$out/$form"
	(cd "$W" && go test -c -trimpath -ldflags='-s -w' -o "$out/$form/cholblocked.test" ./internal/gpu/cholblocked)
done
# The root package: TestStatusesWritten now covers the native:tiled candidates (storesEveryStatus), and
# TestCallOverhead times two tiled cases; and its guard, a build whose chol_tiled stores only failing statuses, on
# which TestStatusesWritten's native:tiled cases must FAIL.
git -C "$W" checkout -q -- internal/gpu/cholblocked/blocked.cu
(cd "$W" && go test -c -trimpath -ldflags='-s -w' -o "$out/root.test" .)
old='if (tid == 0 \&\& ((j0 == 0 \&\& j == 0) || fail != 0)) info\[m\]'
new='if (tid == 0 \&\& fail != 0) info[m] \/* guard build: successes not stored *\/'
sed -i "s/$old/$new/" "$W/internal/gpu/cholblocked/blocked.cu"
grep -q 'guard build: successes not stored' "$W/internal/gpu/cholblocked/blocked.cu"
(cd "$W" && go test -c -trimpath -ldflags='-s -w' -o "$out/root-guard.test" .)
ls -la "$out" "$out"/*
