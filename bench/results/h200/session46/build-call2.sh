#!/usr/bin/env bash
# Session 46: builds here what call2.sh runs after its lab, the potrf and posv test binaries and the CLI of
# the committed tree with cta-steps.patch applied (in a worktree under /tmp), into build/gpu/s46. Carry
# build/gpu with the call. Without them call2.sh runs the lab alone.
set -euo pipefail
R=$(git rev-parse --show-toplevel)
W=$(mktemp -d)/tree
git -C "$R" worktree add -q --detach "$W" HEAD
trap 'git -C "$R" worktree remove --force "$W"' EXIT
git -C "$W" apply "$R/bench/results/h200/session46/cta-steps.patch"
out=$R/build/gpu/s46
rm -rf "$out"
mkdir -p "$out"
export CGO_ENABLED=0 GOOS=linux GOARCH=amd64
(cd "$W" && go build -trimpath -ldflags='-s -w' -o "$out/batchlas" ./cmd/batchlas)
(cd "$W/internal/gpu/potrf" && go test -c -trimpath -ldflags='-s -w' -o "$out/potrf.test" .)
(cd "$W/internal/gpu/posv" && go test -c -trimpath -ldflags='-s -w' -o "$out/posv.test" .)
ls -la "$out"
