# Lab (GPU machine): where a tile step of chol_tiled's chain goes today, from globaltimer stamps. Session 56's
# lab/handoff.py put one hand-over between blocks at about 0.56 µs (0.47 through a cluster peer), and the suite's
# chains take 8.3–9.1 µs a tile step; session 21's stamps (n = 1024, one matrix, exact FP32, before factor_rows'
# present form, the hand-over orders of session 32 and the prefix tasks of session 31) are the last breakdown. This
# one is of the committed kernel: the one-block 3xTF32 kernels the tables route the suite's chains to.
#
# Thread 0 of each task writes, straight to global memory (no register held across the task), the globaltimer at
#   0 the task's start (after its ticket),
#   1 the end of its own loop (the products over the finished columns; a diagonal task's sums for its two tiles),
#   2 the previous diagonal task's flag seen (wait_flags on (c, c)),
#   3 the factor's start (L(j, j − 1) made from X_{j−1}, the diagonal tile updated and in shared memory),
#   4 the factor's end (factor_rows: the factor and the inverse X_j),
#   5 the flag (j, j) published (after X_j and info are stored),
# and the task's j, m and kind. For matrix 0's diagonal tasks j = 1 … nt − 1 it prints the medians of: hand-over
# (2 − the previous task's 5), X in and the two products (3 − 2), factor and inverse (4 − 3), X out and publish
# (5 − 4), the step (5 − the previous 5), and how often the task's own loop (1) ended after the previous publish.
# The stamped kernel is timed against the tree's, interleaved (tiledlab), to show what the stamps cost.
#
# Usage, from the repository root: python3 bench/results/h200/session57/lab/stamps.py
# Env: CASES ("512x16,1024x4,256x64,2048x2,4096x1"), REPS (7), UPLO (U), NOINV=1, EARLY=1, OVERLAP=1, FACTOR=1 and
# RSQ=1 (variants, below), BLOCKED (the blocked.cu to stamp; the tree's by default: EARLY and OVERLAP edit a7e50e5's, from
# before factor_rows' overlap landed, e.g. `git show a7e50e5:internal/gpu/cholblocked/blocked.cu > /tmp/b.cu`),
# COMPILE_ONLY=1 (resources only).
import os, sys

sys.path.insert(0, "bench/lab")
import tiledlab as tl

head = open(os.environ.get("BLOCKED", "internal/gpu/cholblocked/blocked.cu")).read()
# factor_rows' call in chol_tiled: a7e50e5's passed BOUND (PRE), 5fbd2c6's nothing, d8f6322's EAGER (SPLIT).
CALL = next(c for c in ("factor_rows<NT>(s_a, s_b, wj, j + 1 < nt, fail, dfail);",
                        "factor_rows<NT, PRE>(s_a, s_b, wj, j + 1 < nt, fail, dfail);",
                        "factor_rows<NT, SPLIT>(s_a, s_b, wj, j + 1 < nt, fail, dfail);") if c in head)


def edit(s, old, new):
    assert s.count(old) == 1, (old, s.count(old))
    return s.replace(old, new)


# P(k) stamps point k of the task whose ticket s_ticket holds (shared memory: nothing stays in registers).
K = "template <typename T, int TS, int NT, bool UPPER, bool SPLIT, bool PANEL, int MIN_BLOCKS>\n__global__"
s = edit(head, K, r'''#define STAMP_TASKS (1 << 18)
__device__ unsigned long long g_st[STAMP_TASKS * 6];
__device__ int g_meta[STAMP_TASKS];
__device__ __forceinline__ unsigned long long gtime() { unsigned long long v; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(v)); return v; }
#define P(k) do { if (threadIdx.x == 0 && s_ticket < STAMP_TASKS) g_st[(long long)s_ticket * 6 + (k)] = gtime(); } while (0)
''' + K)
s = edit(s, "        if (t >= s_tasks) return; // uniform (s_tasks is set before the first barrier)\n",
         "        if (t >= s_tasks) return; // uniform (s_tasks is set before the first barrier)\n        P(0);\n")
s = edit(s, "        int f = j0 > 0 ? ld_cg(info + m) : 0;\n",
         "        P(1);\n        if (tid == 0 && s_ticket < STAMP_TASKS) g_meta[s_ticket] = (diag ? 1 << 30 : 0) | (m << 12) | j;\n"
         "        int f = j0 > 0 ? ld_cg(info + m) : 0;\n")
s = edit(s, "            wait_flags(flag(c, c, m), flag(c, c, m));\n            f = ld_cg(info + m);\n",
         "            wait_flags(flag(c, c, m), flag(c, c, m));\n            P(2);\n            f = ld_cg(info + m);\n")
s = edit(s, "            int fail;\n            R dfail;\n", "            P(3);\n            int fail;\n            R dfail;\n")
s = edit(s, "                " + CALL + "\n", "                " + CALL + "\n                P(4);\n")
s = edit(s, "                publish(flag(j, j, m));\n                store_block",
         "                publish(flag(j, j, m));\n                P(5);\n                store_block")

# noinv (NOINV=1): the stamped kernel with factor_rows' inverse left out. Its factors are wrong (every X is 0) and
# it is not checked; its steps bound what taking the inverse off the chain could save (the next diagonal task would
# then solve with L(j, j) instead of multiplying by X_j, which costs something of its own).
variants = {"head": head, "stamped": s}
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # early.py, overlap.py
if os.environ.get("NOINV") == "1":
    variants["noinv"] = edit(s, CALL, CALL.replace("j + 1 < nt", "false"))
# early (EARLY=1): the stamped kernel with lab/early.py's change (L(j, j) published before X_j; the next diagonal
# task solves against it). Checked by residual.
if os.environ.get("EARLY") == "1":
    from early import with_early
    variants["early"] = with_early(s)
# overlap (OVERLAP=1): the stamped kernel with lab/overlap.py's change (factor_rows' inverse in warp 1, overlapped with
# the factor; the same bits as head's).
if os.environ.get("OVERLAP") == "1":
    from overlap import with_overlap
    variants["overlap"] = with_overlap(s)
# factor (FACTOR=1; the tree's blocked.cu since 5fbd2c6): the stamped kernel with clock64 stamps inside factor_rows
# as well, for where the diagonal factor's 4 µs go: warp 0 at its start (F0) and after each step's publication
# (F1–F4) and its loop (F5), warp 1 after the inverse (F6), thread 0 after the final barrier (F7), and the storing
# warp that releases tile (j, j − 1)'s flag (F8). Cycles on the block's multiprocessor.
if os.environ.get("FACTOR") == "1":
    # factor_rows' template: <int NT> up to 45376e5, <int NT, bool EAGER> since d8f6322 (session 58).
    T = next(t for t in ("template <int NT>\n", "template <int NT, bool EAGER>\n") if t + "__device__ __forceinline__ void factor_rows(" in s)
    f = edit(s, T + "__device__ __forceinline__ void factor_rows(",
             "__shared__ long long lab_slot; // the task's ticket, for the F stamps\n"
             "__device__ long long g_fst[(1 << 18) * 10];\n"
             "#define F(k) do { if (lab_slot < (1 << 18)) g_fst[lab_slot * 10 + (k)] = clock64(); } while (0)\n"
             + T + "__device__ __forceinline__ void factor_rows(")
    f = edit(f, "        if (li == 0) {\n            s_fail = fail;\n            s_dfail = dfail;\n        }\n    } else if (threadIdx.x < 64) {",
             "        if (li == 0) F(5);\n        if (li == 0) {\n            s_fail = fail;\n            s_dfail = dfail;\n        }\n    } else if (threadIdx.x < 64) {")
    f = edit(f, "            bar_arrive(&rows_bars[p]); // s_l[p] and (lane 0) s_rd's step p, to warp 1\n",
             "            bar_arrive(&rows_bars[p]); // s_l[p] and (lane 0) s_rd's step p, to warp 1\n            if (li == 0) F(1 + p);\n")
    f = edit(f, "        float r[N]; // row li: A's",
             "        if (li == 0) F(0);\n        float r[N]; // row li: A's")
    f = edit(f, "    __syncthreads();\n    fail_out = s_fail;\n    dfail_out = s_dfail;\n    // The next call reads the phase",
             "    if (threadIdx.x == 32) F(6);\n    __syncthreads();\n    if (threadIdx.x == 0) F(7);\n    fail_out = s_fail;\n    dfail_out = s_dfail;\n    // The next call reads the phase")
    f = edit(f, "            __syncthreads();\n            P(3);\n", "            if (tid == 0) lab_slot = s_ticket;\n            __syncthreads();\n            P(3);\n")
    f = edit(f, "== NT / 32 - 3) release(flag(i, c, m));", "== NT / 32 - 3) { release(flag(i, c, m)); F(8); }")
    variants["factor"] = f
# rsq (RSQ=1; ran in session 58's call 1 and landed as d8f6322, so it applies to trees before that one, e.g. BLOCKED=
# from `git show 45376e5:internal/gpu/cholblocked/blocked.cu`): factor_step_block's rsqrt computed whatever fail is and selected after, so that
# the pivot's chain does not wait for the failure test (the tree's predicates MUFU.RSQ on it). The same values: its
# factors are compared with the stamped kernel's bit for bit.
if os.environ.get("RSQ") == "1":
    variants["rsq"] = edit(s, "        const float sc = fail == 0 ? rsqrtf(dv) : 0.0f;\n",
                           "        const float rs = rsqrtf(dv); // whatever fail is: off the failure test's chain\n"
                           "        const float sc = fail == 0 ? rs : 0.0f;\n")
uplo = os.environ.get("UPLO", "U")
kernels = {(uplo, 1): f"chol_tiled<float, 32, 128, {'true' if uplo == 'U' else 'false'}, true, false, 1>"}
results = tl.build(variants, kernels)
if os.environ.get("COMPILE_ONLY") == "1":
    sys.exit(0)

import cupy as cp
import numpy as np

fns = tl.functions(results, kernels)
# The stamped kernels from the modules whose g_st and g_meta are read (tl.functions loads modules of its own).
stamped = [v for v in variants if v != "head"]
g_st, g_meta = {}, {}
for name, path, _, low, _ in results:
    if name not in stamped:
        continue
    mod = cp.RawModule(path=path)
    for key, expr in kernels.items():
        f = mod.get_function({v: k for k, v in low.items()}[expr])
        f.max_dynamic_shared_size_bytes = tl.split_shared_bytes(key[-1])
        fns[(name, key)] = f
    g_st[name] = cp.ndarray((6 << 18,), cp.uint64, mod.get_global("g_st"))
    if name == "factor":
        g_fst = cp.ndarray((10 << 18,), cp.int64, mod.get_global("g_fst"))
    g_meta[name] = cp.ndarray((1 << 18,), cp.int32, mod.get_global("g_meta"))
reps = int(os.environ.get("REPS", "7"))
bad = 0
print("µs; medians over matrix 0's diagonal tasks j = 1 … nt − 1 (head: the tree's kernel, timed only)")
print(f"{'case':>10} {'variant':>8} {'time':>8} {'steps':>5} {'step':>6} {'hand-over':>9} {'X+products':>10} "
      f"{'factor+inv':>10} {'X out+flag':>10} {'own loop late':>13}")
for spec in os.environ.get("CASES", "512x16,1024x4,256x64,2048x2,4096x1").split(","):
    n, count = map(int, spec.split("x"))
    c = tl.Case(n, count, uplo)
    # Room for early.py's slots after X and the prefix tasks' sums (tiledlab's Case has 3·count·nt·TS²).
    c.x = cp.zeros(5 * count * ((n + 31) // 32) * 1024 + 4096, np.float32)
    checks, keep = {}, {}
    for v in stamped:
        g_st[v].fill(0)
        g_meta[v].fill(-1)
    ts = tl.interleaved(c, fns, list(variants), (uplo, 1), reps=reps, after=lambda arm: (checks.__setitem__(arm, c.check()), keep.__setitem__(arm, c.a.get())))
    print(f"{spec:>10} {'head':>8} {np.median(ts['head']):8.1f}")
    for v in [v for v in ("overlap", "rsq") if v in variants]:
        same = np.array_equal(keep["stamped"].view(np.uint32), keep[v].view(np.uint32))
        bad += not same
        print(f"{spec:>10} {v}'s factors {'equal' if same else 'DIFFER FROM'} the stamped kernel's bit for bit")
    for arm, (info, resid) in checks.items():
        if arm != "noinv" and (info != 0 or resid >= 20):
            bad += 1
            print(f"{spec} {arm}: BAD (info {info}, residual {resid:.3f} n·eps)")
    for v in stamped:
        # Each stamped module's g_st holds its kernel's last launch.
        meta = g_meta[v].get()
        st = g_st[v].get().reshape(-1, 6).astype(np.int64)
        # Matrix 0's diagonal tasks: their tickets by j.
        tick = {int(meta[t]) & 0xFFF: t for t in np.nonzero(meta >= 0)[0] if meta[t] >> 30 and ((int(meta[t]) >> 12) & 0x3FFFF) == 0}
        diag = {j: st[t] / 1e3 for j, t in tick.items()}
        js = sorted(diag)
        rows = []
        for j in js[1:]:
            p, q = diag[j - 1], diag[j]
            if p[5] == 0 or min(q[1:6]) == 0:
                continue
            rows.append((q[5] - p[5], q[2] - p[5], q[3] - q[2], q[4] - q[3], q[5] - q[4], q[1] > p[5]))
        r = np.array(rows)
        med = np.median(r[:, :5], axis=0)
        print(f"{spec:>10} {v:>8} {np.median(ts[v]):8.1f} {len(r):5d} {med[0]:6.2f} {med[1]:9.2f} {med[2]:10.2f} {med[3]:10.2f} "
              f"{med[4]:10.2f} {int(r[:, 5].sum()):6d} of {len(r)}", flush=True)
        np.save(f"{os.environ.get('OUT', '/tmp')}/stamps-{uplo}-{v}-{spec}.npy", np.array([[j, *diag[j]] for j in js]))
        if v == "factor":
            # Matrix 0's diagonal tasks that factored (every F stamp but F8, which only deferring tasks take).
            fs = g_fst.get().reshape(-1, 10)
            F = np.array([fs[t] for t in tick.values() if fs[t][0] > 0 and fs[t][7] > 0], dtype=np.int64)
            d = lambda a, b: np.median(F[:, a] - F[:, b])
            st8 = F[F[:, 8] > 0]
            print(f"{spec:>10}   factor_rows, cycles (median of {len(F)} diagonal tasks): warp 0's steps {d(1, 0):.0f}, "
                  f"{d(2, 1):.0f}, {d(3, 2):.0f}, {d(4, 3):.0f}, then {d(5, 4):.0f}; warp 1 done at {d(6, 0):.0f}; "
                  f"the barrier passed at {d(7, 0):.0f}; tile (j, j − 1) released at "
                  f"{np.median(st8[:, 8] - st8[:, 0]) if len(st8) else float('nan'):.0f}", flush=True)
for v in [v for v in ("early", "overlap", "rsq") if v in variants]:
    # A failing matrix: matrix 1 of 4 (n = 512) with A(70, 70) = −100 fails at column 71, in tile 2; the others are
    # SPD. The variant must report the same info as head and leave matrix 1 as head does (bit for bit, but early
    # within rounding: its tile (j + 1, j) comes from another formula), and must not hang (early: a diagonal task of a
    # failed matrix releases the early flag).
    n, count = 512, 4
    c = tl.Case(n, count, uplo)
    c.x = cp.zeros(5 * count * 16 * 1024 + 4096, np.float32)
    c.A0[n * n + 70 + 70 * n] = -100
    out = {}
    tl.interleaved(c, fns, ["head", v], (uplo, 1), reps=1,
                   after=lambda arm: out.__setitem__(arm, (c.info.get().copy(), c.a.get().copy())))
    (ih, ah), (ie, ae) = out["head"], out[v]
    m1 = slice(n * n, 2 * n * n)
    if v == "early":
        same = np.array_equal(ih, ie) and np.allclose(ah[m1], ae[m1], rtol=1e-4, atol=1e-5, equal_nan=True)
    else:
        same = np.array_equal(ih, ie) and np.array_equal(ah.view(np.uint32), ae.view(np.uint32))
    others = max(abs(ah[k * n * n:(k + 1) * n * n] - ae[k * n * n:(k + 1) * n * n]).max() for k in (0, 2, 3))
    bad += not same
    print(f"failing matrix, {v}: info head {ih.tolist()}, {v} {ie.tolist()}; matrix 1 {'agrees' if same else 'DIFFERS'}; "
          f"largest difference in the others {others:.2e}")
print("BAD" if bad else "every result checked (info 0, residual under 20 n·eps; the failing matrix as head's)")
sys.exit(1 if bad else 0)
