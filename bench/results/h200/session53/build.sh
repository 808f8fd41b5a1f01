#!/usr/bin/env bash
# Session 53: builds here, from the committed tree, what call.sh runs into build/gpu/s53 (about 44 MB; carry
# ["build/gpu/s53"]): the root package's tests and the CLI as committed (the fix-up failing NaN pivots only,
# TestRouteGPUInfinitePivot at one and three matrices, tiled panels routed up to n = 32768), and in cand/ the
# cholblocked tests and the CLI with session 50's quarters.patch and the TF32 split's hi truncated (session 47's
# "trunc", session 52's lab/trunc-accuracy.py), neither landed. Commit first: the worktree is HEAD's.
set -euo pipefail
R=$(git rev-parse --show-toplevel)
out=$R/build/gpu/s53
rm -rf "$out"
mkdir -p "$out/cand"
export CGO_ENABLED=0 GOOS=linux GOARCH=amd64
flags=(-trimpath -ldflags=-s\ -w)
W=$(mktemp -d)/tree
git -C "$R" worktree add -q --detach "$W" HEAD
trap 'git -C "$R" worktree remove --force "$W"' EXIT
(cd "$W" && go test -c "${flags[@]}" -o "$out/root.test" .)
(cd "$W" && go build "${flags[@]}" -o "$out/batchlas" ./cmd/batchlas)
git -C "$W" rev-parse HEAD > "$out/commit"
git -C "$W" apply "$R/bench/results/h200/session50/quarters.patch"
grep -q "factor_quarters<NT>" "$W/internal/gpu/cholblocked/blocked.cu"
old='return (__float_as_uint(v) + 0x1000u) \& 0xffffe000u; }'
new='return __float_as_uint(v) \& 0xffffe000u; }'
sed -i "s/$old/$new/" "$W/internal/gpu/cholblocked/blocked.cu"
grep -q "$new" "$W/internal/gpu/cholblocked/blocked.cu"
(cd "$W" && go test -c "${flags[@]}" -o "$out/cand/cholblocked.test" ./internal/gpu/cholblocked)
(cd "$W" && go build "${flags[@]}" -o "$out/cand/batchlas" ./cmd/batchlas)
echo "$(cat "$out/commit") + session50/quarters.patch + trunc" > "$out/cand/commit"
ls -la "$out" "$out/cand"
du -sh "$out"
