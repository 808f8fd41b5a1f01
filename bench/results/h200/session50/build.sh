#!/usr/bin/env bash
# Session 50: builds here what call.sh runs, into build/gpu/s50 (about 30 MB; carry ["build/gpu/s50"]): the
# cholblocked test binary, the root package's and the CLI, from the committed tree with quarters.patch applied
# (chol_tiled's float kernels factoring their diagonal tiles with factor_quarters; not landed: it has not run on a
# GPU in this form, see README.md). Commit first: the worktree is HEAD's.
set -euo pipefail
R=$(git rev-parse --show-toplevel)
out=$R/build/gpu/s50
rm -rf "$out"
mkdir -p "$out"
export CGO_ENABLED=0 GOOS=linux GOARCH=amd64
W=$(mktemp -d)/tree
git -C "$R" worktree add -q --detach "$W" HEAD
trap 'git -C "$R" worktree remove --force "$W"' EXIT
git -C "$W" apply "$R/bench/results/h200/session50/quarters.patch"
grep -q "factor_quarters<NT>" "$W/internal/gpu/cholblocked/blocked.cu"
for p in root:. cholblocked:./internal/gpu/cholblocked; do
	(cd "$W" && go test -c -trimpath -ldflags='-s -w' -o "$out/${p%%:*}.test" "${p#*:}")
done
(cd "$W" && go build -trimpath -ldflags='-s -w' -o "$out/batchlas" ./cmd/batchlas)
echo "$(git -C "$W" rev-parse HEAD) + session50/quarters.patch" > "$out/commit"
ls -la "$out"
