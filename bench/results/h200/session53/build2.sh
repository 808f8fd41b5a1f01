#!/usr/bin/env bash
# Session 53's call 3 build: into build/gpu/s53q (carry ["build/gpu/s53q"], about 36 MB), the committed CLI
# (head/batchlas) and, from the working tree with factor_quarters in chol_tiled's Upper 3xTF32 kernel for four
# blocks only (session 50's quarters.patch less its one-block half; no trunc), cand/batchlas and
# cand/cholblocked.test. Run from the repository root with that change uncommitted.
set -euo pipefail
R=$(git rev-parse --show-toplevel)
out=$R/build/gpu/s53q
rm -rf "$out"
mkdir -p "$out/head" "$out/cand"
export CGO_ENABLED=0 GOOS=linux GOARCH=amd64
flags=(-trimpath -ldflags=-s\ -w)
grep -q "constexpr bool QUARTERS" "$R/internal/gpu/cholblocked/blocked.cu"
(cd "$R" && go test -c "${flags[@]}" -o "$out/cand/cholblocked.test" ./internal/gpu/cholblocked)
(cd "$R" && go build "${flags[@]}" -o "$out/cand/batchlas" ./cmd/batchlas)
W=$(mktemp -d)/tree
git -C "$R" worktree add -q --detach "$W" HEAD
trap 'git -C "$R" worktree remove --force "$W"' EXIT
(cd "$W" && go build "${flags[@]}" -o "$out/head/batchlas" ./cmd/batchlas)
echo "head $(git -C "$R" rev-parse HEAD); cand the working tree: $(git -C "$R" diff --stat | tail -1)" > "$out/commit"
du -sh "$out"
