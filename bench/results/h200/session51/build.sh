#!/usr/bin/env bash
# Session 51: builds here, from the committed tree, what call.sh runs into build/gpu/s51 (about 20 MB; carry
# ["build/gpu/s51"]): the matbatch and posv test binaries and the CLI. Commit first: the worktree is HEAD's.
set -euo pipefail
R=$(git rev-parse --show-toplevel)
out=$R/build/gpu/s51
rm -rf "$out"
mkdir -p "$out"
export CGO_ENABLED=0 GOOS=linux GOARCH=amd64
W=$(mktemp -d)/tree
git -C "$R" worktree add -q --detach "$W" HEAD
trap 'git -C "$R" worktree remove --force "$W"' EXIT
for p in matbatch:./matbatch posv:./internal/gpu/posv; do
	(cd "$W" && go test -c -trimpath -ldflags='-s -w' -o "$out/${p%%:*}.test" "${p#*:}")
done
(cd "$W" && go build -trimpath -ldflags='-s -w' -o "$out/batchlas" ./cmd/batchlas)
git -C "$W" rev-parse HEAD > "$out/commit"
ls -la "$out"
