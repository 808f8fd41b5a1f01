# Lab (GPU machine): where the 1.75 µs between a diagonal task's wait and its factor go. Session 57's stamps
# (session57/lab/stamps.py) split a tile step of the suite's chains (7.0–8.0 µs with d8f6322) into the hand-over
# (0.75), "X in and the two products" (1.75), the factor and inverse (4.0) and X out and the flag (0.75). This lab
# stamps the second part finer, in thread 0 of each task (globaltimer, straight to global memory):
#   0 the previous diagonal task's flag seen (wait_flags),
#   1 thread 0's own reads of X_{j−1} arrived (its stores of them to s_b done),
#   2 every thread's in (the barrier after s_a takes tile (j, j − 1)'s sums),
#   3 L(j, j − 1) formed (the product with X, then s_lc and a barrier),
#   4 the diagonal tile's last update (the product L·Lᵀ, then a barrier),
#   5 the factor's start (the tile in s_a, a barrier),
#   6 the factor's end, 7 the flag (j, j) published,
# and prints, for matrix 0's diagonal tasks j = 1 … nt − 1, the medians of 1 − 0 … 7 − 6 and of the step (7 − the
# previous 7). The stamped kernel is timed against the tree's, interleaved, to show what the stamps cost.
#
# Usage, from the repository root: python3 bench/results/h200/session58/lab/handover.py
# Env: CASES ("512x16,1024x4,2048x2"), REPS (5), UPLO (U), COMPILE_ONLY=1 (resources only).
import os, sys

sys.path.insert(0, "bench/lab")
import tiledlab as tl

head = open("internal/gpu/cholblocked/blocked.cu").read()
edit = tl.edit


K = "template <typename T, int TS, int NT, bool UPPER, bool SPLIT, bool PANEL, int MIN_BLOCKS>\n__global__"
s = edit(head, K, r'''#define STAMP_TASKS (1 << 18)
__device__ unsigned long long g_st[STAMP_TASKS * 8];
__device__ int g_meta[STAMP_TASKS];
__device__ __forceinline__ unsigned long long gtime() { unsigned long long v; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(v)); return v; }
#define P(k) do { if (threadIdx.x == 0 && s_ticket < STAMP_TASKS) g_st[(long long)s_ticket * 8 + (k)] = gtime(); } while (0)
''' + K)
s = edit(s, "        int f = j0 > 0 ? ld_cg(info + m) : 0;\n",
         "        if (tid == 0 && s_ticket < STAMP_TASKS) g_meta[s_ticket] = (diag ? 1 << 30 : 0) | (m << 12) | j;\n"
         "        int f = j0 > 0 ? ld_cg(info + m) : 0;\n")
s = edit(s, "            wait_flags(flag(c, c, m), flag(c, c, m));\n", "            wait_flags(flag(c, c, m), flag(c, c, m));\n            P(0);\n")
X = "for (int e = tid; e < TS * TS; e += NT) s_b[e % TS][e / TS] = ld_cg(xm + e);\n"
s = edit(s, X, X + "            P(1);\n")
s = edit(s, "                    __syncthreads();\n                    TileT l;\n", "                    __syncthreads();\n                    P(2);\n                    TileT l;\n")
s = edit(s, "                    l.to(s_lc);\n                    __syncthreads();\n", "                    l.to(s_lc);\n                    __syncthreads();\n                    P(3);\n")
s = edit(s, "            if (c >= 0) cd.template mul<true>(s_lc, s_lc);\n            __syncthreads();\n",
         "            if (c >= 0) cd.template mul<true>(s_lc, s_lc);\n            __syncthreads();\n            P(4);\n")
s = edit(s, "            int fail;\n            R dfail;\n", "            P(5);\n            int fail;\n            R dfail;\n")
CALL = "factor_rows<NT, SPLIT>(s_a, s_b, wj, j + 1 < nt, fail, dfail);\n"
s = edit(s, CALL, CALL + "                P(6);\n")
s = edit(s, "                publish(flag(j, j, m));\n                store_block", "                publish(flag(j, j, m));\n                P(7);\n                store_block")
variants = {"head": head, "stamped": s}
uplo = os.environ.get("UPLO", "U")
kernels = tl.one_block_split(uplo)
results = tl.build(variants, kernels)
if os.environ.get("COMPILE_ONLY") == "1":
    sys.exit(0)

import cupy as cp
import numpy as np

fns = tl.functions(results, kernels)
mod = cp.RawModule(path=next(r[1] for r in results if r[0] == "stamped"))
g_st = cp.ndarray((8 << 18,), cp.uint64, mod.get_global("g_st"))
g_meta = cp.ndarray((1 << 18,), cp.int32, mod.get_global("g_meta"))
low = next(r[3] for r in results if r[0] == "stamped")
f = mod.get_function({v: k for k, v in low.items()}[kernels[(uplo, 1)]])
f.max_dynamic_shared_size_bytes = tl.split_shared_bytes(1)
fns[("stamped", (uplo, 1))] = f
bad = 0
names = ["X0 in", "all X in", "L(j,j-1)", "L·Lᵀ", "to s_a", "factor", "X out+flag"]
print("µs; medians over matrix 0's diagonal tasks j = 1 … nt − 1")
print(f"{'case':>9} {'head':>7} {'stamped':>7} {'step':>5} {'hand-over':>9} " + " ".join(f"{x:>10}" for x in names))
for spec in os.environ.get("CASES", "512x16,1024x4,2048x2").split(","):
    n, count = map(int, spec.split("x"))
    c = tl.Case(n, count, uplo)
    tl.roomy(c)
    checks = {}
    g_st.fill(0)
    g_meta.fill(-1)
    ts = tl.interleaved(c, fns, ["head", "stamped"], (uplo, 1), reps=int(os.environ.get("REPS", "5")),
                        after=lambda arm: checks.__setitem__(arm, c.check()))
    for arm, (info, resid) in checks.items():
        if info != 0 or resid >= 20:
            bad += 1
            print(f"{spec} {arm}: BAD (info {info}, residual {resid:.3f} n·eps)")
    meta = g_meta.get()
    st = g_st.get().reshape(-1, 8).astype(np.int64)
    tick = {int(meta[t]) & 0xFFF: t for t in np.nonzero(meta >= 0)[0] if meta[t] >> 30 and ((int(meta[t]) >> 12) & 0x3FFFF) == 0}
    diag = {j: st[t] / 1e3 for j, t in tick.items()}
    rows = []
    for j in sorted(diag)[1:]:
        p, q = diag.get(j - 1), diag[j]
        if p is None or p[7] == 0 or min(q) == 0:
            continue
        rows.append([q[7] - p[7], q[0] - p[7]] + [q[k + 1] - q[k] for k in range(7)])
    med = np.median(np.array(rows), axis=0)
    print(f"{spec:>9} {np.median(ts['head']):7.1f} {np.median(ts['stamped']):7.1f} {med[0]:5.2f} {med[1]:9.2f} "
          + " ".join(f"{x:10.2f}" for x in med[2:]) + f"   ({len(rows)} steps)", flush=True)
print("every result checked" if bad == 0 else f"{bad} BAD")
sys.exit(1 if bad else 0)
