#!/usr/bin/env bash
# Session 50: builds here, from the committed tree, two test binaries (root, cholblocked) and the CLI that call.sh runs into
# build/gpu/s50 (about 35 MB; carry ["build/gpu/s50"]). Commit first: the worktree is HEAD's.
set -euo pipefail
R=$(git rev-parse --show-toplevel)
out=$R/build/gpu/s50
rm -rf "$out"
mkdir -p "$out"
export CGO_ENABLED=0 GOOS=linux GOARCH=amd64
W=$(mktemp -d)/tree
git -C "$R" worktree add -q --detach "$W" HEAD
trap 'git -C "$R" worktree remove --force "$W"' EXIT
for p in root:. cholblocked:./internal/gpu/cholblocked; do
	(cd "$W" && go test -c -trimpath -ldflags='-s -w' -o "$out/${p%%:*}.test" "${p#*:}")
done
(cd "$W" && go build -trimpath -ldflags='-s -w' -o "$out/batchlas" ./cmd/batchlas)
git -C "$W" rev-parse HEAD > "$out/commit"
ls -la "$out"
