#!/usr/bin/env bash
# Prepared in session 53 for the next device session (an H200 wanted): builds here, from the committed tree, into
# build/gpu/s54 (about 33 MB; carry ["build/gpu/s54"]) the CLI and the root, potrf and cholblocked packages' tests, for
# next-call.sh. Commit first: the worktree is HEAD's.
set -euo pipefail
R=$(git rev-parse --show-toplevel)
out=$R/build/gpu/s54
rm -rf "$out"
mkdir -p "$out"
export CGO_ENABLED=0 GOOS=linux GOARCH=amd64
flags=(-trimpath -ldflags=-s\ -w)
W=$(mktemp -d)/tree
git -C "$R" worktree add -q --detach "$W" HEAD
trap 'git -C "$R" worktree remove --force "$W"' EXIT
for p in root:. potrf:./internal/gpu/potrf cholblocked:./internal/gpu/cholblocked; do
	(cd "$W" && go test -c "${flags[@]}" -o "$out/${p%%:*}.test" "${p#*:}")
done
(cd "$W" && go build "${flags[@]}" -o "$out/batchlas" ./cmd/batchlas)
git -C "$W" rev-parse HEAD > "$out/commit"
du -sh "$out"
