# Lab (GPU machine): the block that factored L(j − 1, j − 1) goes on to L(j, j) ("walk"), a prototype of the lever
# lab/handover.py points to (README, call 6): of a 7.25–8 µs step of the suite's chains, 2.0–2.25 µs pass X_{j−1}
# from one block to the next (X out and the flag, the hand-over, X's reads after the flag).
#
# In the one-block 3xTF32 whole-matrix kernel (WALK), diagonal task j ≥ 1, once its own loop has its sums (tiles
# (j, j − 1) and (j, j)), posts them to a slot in x and offers the step: an atomic compare-and-swap 0 → 1 on a word
# per (matrix, step) after the tickets' flags. If the swap succeeds it leaves (takes another ticket); if it finds 2
# (the block that ended step j − 1 has been and gone) it goes on as today, with its sums still in registers. Every
# diagonal task, at its end, swaps the next step's word 0 → 2; if it finds 1 (the sums are posted) it does not take
# a ticket but runs diagonal task j + 1 itself: the sums from the slot, X_j still in s_b (store_inverse and
# store_block only read it), no wait for flag (j, j) (its own) and no reads of X, info as thread 0 read it. Whichever comes second does the
# work, so no block ever waits for another to arrive: no deadlock at any batch. X_j, L and the flags are written as
# today, so the other tasks are unchanged. The same operations on the same values: the factors must be head's bit for
# bit (SPD matrices, and a failing one, whose later diagonal tasks run their failure path either way).
#
# Usage, from the repository root: python3 bench/results/h200/session58/lab/walk.py
# Env: CASES ("512x16,1024x4,2048x2,4096x1,256x64,256x1024"), REPS (7), UPLO (U), COMPILE_ONLY=1.
import os, sys

sys.path.insert(0, "bench/lab")
import tiledlab as tl

head = open("internal/gpu/cholblocked/blocked.cu").read()


def edit(s, old, new):
    assert s.count(old) == 1, (old, s.count(old))
    return s.replace(old, new)


s = head
# The walk's state in shared memory: the step this block goes on to (0: none), its matrix, and the swap's result.
s = edit(s, "    __shared__ int s_ticket;\n",
         "    __shared__ int s_ticket;\n    __shared__ int s_cont_j, s_cont_m, s_cont_f, s_walk;\n")
s = edit(s, "    __shared__ long long s_tasks;\n    if (tid == 0) s_tasks = tasks;\n",
         "    __shared__ long long s_tasks;\n    if (tid == 0) s_tasks = tasks;\n    if (tid == 0) s_cont_j = 0;\n"
         "    constexpr bool WALK = ROWS && SPLIT && !PANEL;\n"
         "    // The word of step j of matrix m, after the tiles' and the prefix tasks' flags; its sums after the prefix\n"
         "    // tasks' (x has room for them in the lab).\n"
         "    auto walk_state = [&](int j, int m) { return flags + 2 * ((long long)nt * (nt + 1) / 2 * count) + (long long)j * count + m; };\n")
s = edit(s, "        if (tid == 0) s_ticket = atomicAdd(tickets, 1);\n        __syncthreads();\n"
            "        const int t = s_ticket; // an int32 counter: PotrfTiled and the panels keep tasks plus the grid below 2³¹\n"
            "        if (t >= s_tasks) return; // uniform (s_tasks is set before the first barrier)\n",
         "        if (tid == 0 && s_cont_j == 0) s_ticket = atomicAdd(tickets, 1);\n        __syncthreads();\n"
         "        const int cont_j = WALK ? s_cont_j : 0; // this block goes on down the diagonal\n"
         "        const int t = s_ticket;\n"
         "        if (cont_j == 0 && t >= s_tasks) return;\n")
s = edit(s, "        const int m = t - pos * count;\n", "        int m = t - pos * count;\n")
s = edit(s, "            pos -= size;\n            ++g;\n        }\n",
         "            pos -= size;\n            ++g;\n        }\n        if (cont_j > 0) g = cont_j, pos = 0, m = s_cont_m;\n")
s = edit(s, "        const int k0 = diag && j >= Pre::ahead",
         "        const int k0 = cont_j > 0 ? c : diag && j >= Pre::ahead")
s = edit(s, "        auto pre_sum = [&] { return s_pre_sums + pre_slot() * (2 * TS * TS); };\n",
         "        auto pre_sum = [&] { return s_pre_sums + pre_slot() * (2 * TS * TS); };\n"
         "        auto walk_sum = [&] { return s_pre_sums + ((long long)Pre::count(nt) * count + (long long)j * count + m) * (2 * TS * TS); };\n")
# The sums: from the slot (cont), both through s_a, so that s_b keeps X_{j−1}.
OLD_SUMS = "        if (k0 > 0) {\n            // Both sums from the prefix task.\n"
i0 = s.index(OLD_SUMS)
END = "        if (c >= 0) cc.from(s_a);\n        if (pair || (PAIRS && !diag)) cd.from(s_b);\n        __syncthreads();\n"
i1 = s.index(END, i0) + len(END)
s = s[:i0] + """        if (cont_j > 0) {
            const T* const ws = walk_sum();
#pragma unroll 4
            for (int e = tid; e < TS * TS; e += NT) s_a[e / TS][e % TS] = ld_cg(ws + e);
            __syncthreads();
            cc.from(s_a);
            __syncthreads();
#pragma unroll 4
            for (int e = tid; e < TS * TS; e += NT) s_a[e / TS][e % TS] = ld_cg(ws + TS * TS + e);
            __syncthreads();
            cd.from(s_a);
            __syncthreads();
        } else {
""" + s[i0:i1] + "        }\n" + s[i1:]
# The offer.
s = edit(s, "        int f = j0 > 0 ? ld_cg(info + m) : 0;\n", """        if (WALK && diag && c >= 0 && cont_j == 0) {
            T* const ws = walk_sum();
            cc.to(s_a);
            cd.to(s_b);
            __syncthreads();
#pragma unroll 4
            for (int e = tid; e < TS * TS; e += NT) {
                ws[e] = s_a[e / TS][e % TS];
                ws[TS * TS + e] = s_b[e / TS][e % TS];
            }
            __syncthreads();
            if (tid == 0) {
                __threadfence();
                s_walk = atomicCAS(walk_state(j, m), 0, 1);
            }
            __syncthreads();
            if (s_walk == 0) continue; // the block ending step j − 1 takes it
        }
        int f = j0 > 0 ? ld_cg(info + m) : 0;
""")
# cont: no wait for its own flag, no reads of X (s_b has it).
s = edit(s, """            wait_flags(flag(c, c, m), flag(c, c, m));
            f = ld_cg(info + m);
""", """            if (cont_j == 0) wait_flags(flag(c, c, m), flag(c, c, m));
            f = cont_j > 0 ? s_cont_f : ld_cg(info + m);
""")
X = "for (int e = tid; e < TS * TS; e += NT) s_b[e % TS][e / TS] = ld_cg(xm + e);\n"
s = edit(s, X, "if (cont_j == 0)\n            " + X)
# The swap at the end of every diagonal task.
s = edit(s, """        } else if (diag) {
            publish(flag(j, j, m));
        }
    }
}""", """        } else if (diag) {
            publish(flag(j, j, m));
        }
        if (WALK && diag) {
            if (tid == 0) {
                const int jj = s_jm[0] + 1, mm = s_jm[1];
                int old = 2;
                if (jj < nt) {
                    old = atomicCAS(walk_state(jj, mm), 0, 2);
                    __threadfence();
                }
                s_cont_j = old == 1 ? jj : 0;
                s_cont_m = mm;
                s_cont_f = ld_cg(info + mm); // this thread wrote it, if this block did
            }
            __syncthreads();
        }
    }
}""")
# walk2 (after call 7, where walk was correct but 25–32 % slower): the swap before store_block (L(j, j) to the
# matrix, which walk put on the chain), the posted sums copied by cp.async into the split loop's buffers (free
# outside it) while store_block runs, and counters: offers made, offers taken, offers that came too late.
w2 = s.replace("""    constexpr bool WALK = ROWS && SPLIT && !PANEL;\n""", """    constexpr bool WALK = ROWS && SPLIT && !PANEL;\n""")
w2 = edit(w2, K2 := "template <typename T, int TS, int NT, bool UPPER, bool SPLIT, bool PANEL, int MIN_BLOCKS>\n__global__",
          "__device__ unsigned long long g_walk[4]; // offers, taken, too late\n" + K2)
# The sums from the split buffers (cp.async'd at the end of step j − 1).
w2 = edit(w2, """        if (cont_j > 0) {
            const T* const ws = walk_sum();
#pragma unroll 4
            for (int e = tid; e < TS * TS; e += NT) s_a[e / TS][e % TS] = ld_cg(ws + e);
            __syncthreads();
            cc.from(s_a);
            __syncthreads();
#pragma unroll 4
            for (int e = tid; e < TS * TS; e += NT) s_a[e / TS][e % TS] = ld_cg(ws + TS * TS + e);
            __syncthreads();
            cd.from(s_a);
            __syncthreads();
        } else {""", """        if (cont_j > 0) {
            extern __shared__ __align__(16) float s_split[];
            float (*const s_w)[TS + 4] = reinterpret_cast<float (*)[TS + 4]>(s_split);
            wait_async<0>();
            __syncthreads();
            cc.from(s_w);
            cd.from(s_w + TS);
            __syncthreads();
        } else {""")
w2 = edit(w2, """            if (s_walk == 0) continue; // the block ending step j − 1 takes it""",
          """            if (tid == 0) atomicAdd(&g_walk[s_walk == 0 ? 0 : 2], 1ull);
            if (s_walk == 0) continue; // the block ending step j − 1 takes it""")
# The swap moves before store_block (and after the failure path's publish); the sums go to the split buffers.
SWAP = """        if (WALK && diag) {
            if (tid == 0) {
                const int jj = s_jm[0] + 1, mm = s_jm[1];
                int old = 2;
                if (jj < nt) {
                    old = atomicCAS(walk_state(jj, mm), 0, 2);
                    __threadfence();
                }
                s_cont_j = old == 1 ? jj : 0;
                s_cont_m = mm;
                s_cont_f = ld_cg(info + mm); // this thread wrote it, if this block did
            }
            __syncthreads();
        }
"""
w2 = edit(w2, SWAP, "")
SWAP2 = """                if (WALK) {
                    if (tid == 0) {
                        const int jj = j + 1;
                        int old = 2;
                        if (jj < nt) {
                            old = atomicCAS(walk_state(jj, m), 0, 2);
                            __threadfence();
                        }
                        s_cont_j = old == 1 ? jj : 0;
                        s_cont_m = m;
                        s_cont_f = ld_cg(info + m); // this thread wrote it, if this block did
                        if (old == 1) atomicAdd(&g_walk[1], 1ull);
                    }
                    __syncthreads();
                    if (s_cont_j > 0) {
                        extern __shared__ __align__(16) float s_split[];
                        float (*const s_w)[TS + 4] = reinterpret_cast<float (*)[TS + 4]>(s_split);
                        const float* const ws = reinterpret_cast<const float*>(s_pre_sums) +
                                                ((long long)Pre::count(nt) * count + (long long)(j + 1) * count + m) * (2 * TS * TS);
#pragma unroll
                        for (int e = tid; e < 2 * TS * TS / 4; e += NT) cp_async16(&s_w[e / (TS / 4)][4 * (e % (TS / 4))], ws + 4 * e, true);
                        commit_async();
                    }
                }
"""
w2 = edit(w2, """                publish(flag(j, j, m));
                store_block""", """                publish(flag(j, j, m));
""" + SWAP2 + """                store_block""")
w2 = edit(w2, """        } else if (diag) {
            publish(flag(j, j, m));
        }
    }
}""", """        } else if (diag) {
            publish(flag(j, j, m));
            if (WALK) {
                if (tid == 0) {
                    const int jj = j + 1;
                    int old = 2;
                    if (jj < nt) {
                        old = atomicCAS(walk_state(jj, m), 0, 2);
                        __threadfence();
                    }
                    s_cont_j = old == 1 ? jj : 0;
                    s_cont_m = m;
                    s_cont_f = ld_cg(info + m);
                }
                __syncthreads();
                if (s_cont_j > 0) {
                    extern __shared__ __align__(16) float s_split[];
                    float (*const s_w)[TS + 4] = reinterpret_cast<float (*)[TS + 4]>(s_split);
                    const float* const ws = reinterpret_cast<const float*>(s_pre_sums) +
                                            ((long long)Pre::count(nt) * count + (long long)(j + 1) * count + m) * (2 * TS * TS);
#pragma unroll
                    for (int e = tid; e < 2 * TS * TS / 4; e += NT) cp_async16(&s_w[e / (TS / 4)][4 * (e % (TS / 4))], ws + 4 * e, true);
                    commit_async();
                }
            }
        }
    }
}""")
variants = {"head": head, "walk": s, "walk2": w2}
uplo = os.environ.get("UPLO", "U")
kernels = {(uplo, 1): f"chol_tiled<float, 32, 128, {'true' if uplo == 'U' else 'false'}, true, false, 1>"}
results = tl.build(variants, kernels)
if os.environ.get("COMPILE_ONLY") == "1":
    sys.exit(0)

import cupy as cp
import numpy as np

fns = tl.functions(results, kernels)
arms = [v for v in variants if (v, (uplo, 1)) in fns]
# walk2's counters: its function from a module whose globals are read here.
mods = {}
for name, path, _, low, _ in results:
    if name == "walk2" and path is not None:
        mods[name] = cp.RawModule(path=path)
        f = mods[name].get_function({v: k for k, v in low.items()}[kernels[(uplo, 1)]])
        f.max_dynamic_shared_size_bytes = tl.split_shared_bytes(1)
        fns[(name, (uplo, 1))] = f
reps = int(os.environ.get("REPS", "7"))


def room(c, n, count):
    nt = (n + 31) // 32
    c.x = cp.zeros(5 * count * nt * 1024 + 4096, np.float32)  # X, the prefix tasks' sums, the walk's
    c.tickets = cp.zeros(1 + 3 * c.tiles + count * nt + 64, cp.int32)  # flags, the prefix tasks', the walk's words


bad = 0
print("µs, the median of the interleaved repetitions; every result checked (info 0, residual under 20 n·eps, walk's bits as head's)")
print(f"{'case':>10} " + " ".join(f"{a:>10}" for a in arms))
for spec in os.environ.get("CASES", "512x16,1024x4,2048x2,4096x1,256x64,256x1024").split(","):
    n, count = map(int, spec.split("x"))
    c = tl.Case(n, count, uplo)
    room(c, n, count)
    checks, keep = {}, {}
    ts = tl.interleaved(c, fns, arms, (uplo, 1), reps=reps,
                        after=lambda arm: (checks.__setitem__(arm, c.check()), keep.__setitem__(arm, c.a.get())))
    counts = ""
    if "walk2" in arms:
        g = cp.ndarray((4,), cp.uint64, mods["walk2"].get_global("g_walk")).get()
        counts = f"   walk2 over all launches: {g[0]} offers, {g[1]} taken, {g[2]} too late"
        cp.ndarray((4,), cp.uint64, mods["walk2"].get_global("g_walk")).fill(0)
    print(f"{spec:>10} " + " ".join(f"{np.median(ts[a]):10.1f}" for a in arms) + counts, flush=True)
    for a in arms:
        info, resid = checks[a]
        same = np.array_equal(keep["head"].view(np.uint32), keep[a].view(np.uint32))
        if info != 0 or resid >= 20 or not same:
            bad += 1
            print(f"{spec} {a}: BAD (info {info}, residual {resid:.3f} n·eps, bits {'equal' if same else 'DIFFER'})")
# Failing matrices: matrix 1 of 4 fails at column 71 (tile 2), matrix 3 at column 300 (tile 9).
n, count = 512, 4
c = tl.Case(n, count, uplo)
room(c, n, count)
c.A0[n * n + 70 + 70 * n] = -100
c.A0[3 * n * n + 299 + 299 * n] = -100
out = {}
for r in range(3):
    tl.interleaved(c, fns, arms, (uplo, 1), reps=1, after=lambda arm: out.__setitem__(arm, (c.info.get().copy(), c.a.get().copy())))
    for a in arms[1:]:
        same = np.array_equal(out["head"][0], out[a][0]) and np.array_equal(out["head"][1].view(np.uint32), out[a][1].view(np.uint32))
        bad += not same
        print(f"failing matrices, run {r}, {a}: info {out[a][0].tolist()} (head {out['head'][0].tolist()}), {'bit-equal' if same else 'DIFFERENT'}")
print("every result checked" if bad == 0 else f"{bad} BAD")
sys.exit(1 if bad else 0)
