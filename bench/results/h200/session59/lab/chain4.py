# Lab (GPU machine): the chain from one diagonal tile to the next in chol_tiled's four-block 3xTF32 kernel, against
# the one-block kernel's, at the suite's batched mid sizes where the chain is most of the time (n2048 b8: 64 steps
# of 12.0 µs make 768; n4096 b2: 128 of 11.3 make 1452, H100, session 59 call 2) while the one-block kernel's step is
# about 7.25 µs (session 58's handover.py). Stamps (globaltimer, thread 0 of each diagonal task, to global memory):
#   a the task's ticket, b its loop's first copies issued, c its loop done,
#   0 flag (j − 1, j − 1) seen, 1 X_{j−1} in, 2 tile (j, j − 1)'s sums in s_a, 3 L(j, j − 1) formed,
#   4 the diagonal tile's last update, 5 the factor's start, 6 its end, 7 flag (j, j) published;
# printed as medians over matrix 0's diagonal tasks j = 2 … nt − 1: the step (7 − the previous 7), when the task
# took its ticket and ended its loop against the previous 7, and 1 − 0 … 7 − 6. Both kernels' stamped forms are
# timed against the tree's, interleaved, to show what the stamps cost.
#
# Usage, from the repository root: python3 bench/results/h200/session59/lab/chain4.py
# Env: CASES ("2048x8,4096x2,1024x60"), REPS (5), UPLO (U), BLOCKS ("1,4"), COMPILE_ONLY=1 (resources only).
import os, sys

sys.path.insert(0, "bench/lab")
import tiledlab as tl

head = open("internal/gpu/cholblocked/blocked.cu").read()
edit = tl.edit
W = 12  # stamps a ticket

K = "template <typename T, int TS, int NT, bool UPPER, bool SPLIT, bool PANEL, int MIN_BLOCKS>\n__global__"
s = edit(head, K, r'''#define STAMP_TASKS (1 << 18)
__device__ unsigned long long g_st[STAMP_TASKS * 12];
__device__ int g_meta[STAMP_TASKS];
__device__ __forceinline__ unsigned long long gtime() { unsigned long long v; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(v)); return v; }
#define P(k) do { if (threadIdx.x == 0 && s_ticket < STAMP_TASKS) g_st[(long long)s_ticket * 12 + (k)] = gtime(); } while (0)
''' + K)
s = edit(s, "        const int m = t - pos * count;\n", "        const int m = t - pos * count;\n        P(8);\n")
s = edit(s, "        int f = j0 > 0 ? ld_cg(info + m) : 0;\n",
         "        if (tid == 0 && s_ticket < STAMP_TASKS) g_meta[s_ticket] = (diag ? 1 << 30 : 0) | (m << 12) | j;\n"
         "        int f = j0 > 0 ? ld_cg(info + m) : 0;\n")
s = edit(s, "                for (int k = 0; k < S - 1; ++k) copy(k0 + k);\n", "                for (int k = 0; k < S - 1; ++k) copy(k0 + k);\n                P(9);\n")
s = edit(s, "                __syncthreads(); // every thread is done reading s_p and s_q\n",
         "                __syncthreads(); // every thread is done reading s_p and s_q\n                P(10);\n")
s = edit(s, "            wait_flags(flag(c, c, m), flag(c, c, m));\n", "            wait_flags(flag(c, c, m), flag(c, c, m));\n            P(0);\n")
X = "for (int e = tid; e < TS * TS; e += NT) s_b[e % TS][e / TS] = ld_cg(xm + e);\n"
s = edit(s, X, X + "            P(1);\n")
s = edit(s, "                    __syncthreads();\n                    TileT l;\n", "                    __syncthreads();\n                    P(2);\n                    TileT l;\n")
s = edit(s, "                    l.to(s_lc);\n                    __syncthreads();\n", "                    l.to(s_lc);\n                    __syncthreads();\n                    P(3);\n")
s = edit(s, "            if (c >= 0) cd.template mul<true>(s_lc, s_lc);\n            __syncthreads();\n",
         "            if (c >= 0) cd.template mul<true>(s_lc, s_lc);\n            __syncthreads();\n            P(4);\n")
s = edit(s, "            int fail;\n            R dfail;\n", "            P(5);\n            int fail;\n            R dfail;\n")
for call in ("factor_rows<NT, SPLIT>(s_a, s_b, wj, j + 1 < nt, fail, dfail);\n",
             "else factor_subblocks<T, TS, NT>(s_a, s_b, wj, j + 1 < nt, fail, dfail);\n"):
    s = edit(s, call, call + "                P(6);\n")
s = edit(s, "                publish(flag(j, j, m));\n                store_block", "                publish(flag(j, j, m));\n                P(7);\n                store_block")
variants = {"head": head, "stamped": s}
uplo = os.environ.get("UPLO", "U")
# BLOCKS: the kernels stamped, "1,4" by default (call 3); the three-block one (d8e1912 on) as "1,3,4" (call 12).
blocks = [int(b) for b in os.environ.get("BLOCKS", "1,4").split(",")]
kernels = {k: v for b in blocks for k, v in tl.split_kernel(uplo, b).items()}
results = tl.build(variants, kernels)
if os.environ.get("COMPILE_ONLY") == "1":
    sys.exit(0)

import cupy as cp
import numpy as np

fns = tl.functions(results, kernels)
mod = cp.RawModule(path=next(r[1] for r in results if r[0] == "stamped"))
g_st = cp.ndarray((W << 18,), cp.uint64, mod.get_global("g_st"))
g_meta = cp.ndarray((1 << 18,), cp.int32, mod.get_global("g_meta"))
low = next(r[3] for r in results if r[0] == "stamped")
for key, expr in kernels.items():
    f = mod.get_function({v: k for k, v in low.items()}[expr])
    f.max_dynamic_shared_size_bytes = tl.split_shared_bytes(key[-1])
    fns[("stamped", key)] = f
bad = 0
names = ["X in", "sums in", "L(j,j-1)", "L·Lᵀ", "to s_a", "factor", "X out+flag"]
print("µs; medians over matrix 0's diagonal tasks j = 2 … nt − 1; ticket and loop end against the previous flag")
print(f"{'case':>9} {'blocks':>6} {'head':>7} {'stamped':>7} {'step':>5} {'ticket':>7} {'loop':>6} {'loop end':>8} {'hand-over':>9} "
      + " ".join(f"{x:>10}" for x in names))
for spec in os.environ.get("CASES", "2048x8,4096x2,1024x60").split(","):
    n, count = map(int, spec.split("x"))
    for mb in blocks:
        key = (uplo, mb)
        c = tl.Case(n, count, uplo)
        tl.roomy(c)
        checks = {}
        g_st.fill(0)
        g_meta.fill(-1)
        ts = tl.interleaved(c, fns, ["head", "stamped"], key, reps=int(os.environ.get("REPS", "5")),
                            after=lambda arm: checks.__setitem__(arm, c.check()))
        for arm, (info, resid) in checks.items():
            if info != 0 or resid >= 20:
                bad += 1
                print(f"{spec} {mb} {arm}: BAD (info {info}, residual {resid:.3f} n·eps)")
        meta = g_meta.get()
        st = g_st.get().reshape(-1, W).astype(np.int64)
        tick = {int(meta[t]) & 0xFFF: t for t in np.nonzero(meta >= 0)[0] if meta[t] >> 30 and ((int(meta[t]) >> 12) & 0x3FFFF) == 0}
        diag = {j: st[t] / 1e3 for j, t in tick.items()}
        rows = []
        for j in sorted(diag)[2:]:
            p, q = diag.get(j - 1), diag[j]
            if p is None or p[7] == 0 or min(q[:11]) == 0:
                continue
            rows.append([q[7] - p[7], q[8] - p[7], q[10] - q[9], q[10] - p[7], q[0] - p[7]] + [q[k + 1] - q[k] for k in range(7)])
        if not rows:
            print(f"{spec:>9} {mb:>6}: no stamped steps")
            continue
        med = np.median(np.array(rows), axis=0)
        print(f"{spec:>9} {mb:>6} {np.median(ts['head']):7.1f} {np.median(ts['stamped']):7.1f} {med[0]:5.2f} {med[1]:7.2f} "
              f"{med[2]:6.2f} {med[3]:8.2f} {med[4]:9.2f} " + " ".join(f"{x:10.2f}" for x in med[5:]) + f"   ({len(rows)} steps)",
              flush=True)
print("every result checked" if bad == 0 else f"{bad} BAD")
sys.exit(1 if bad else 0)
