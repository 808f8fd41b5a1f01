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
import os, sys, textwrap

sys.path.insert(0, "bench/lab")
import tiledlab as tl

head = open("internal/gpu/cholblocked/blocked.cu").read()

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # walking.py
from walking import continued, edit, poster, run, split

# The walk's state in shared memory: the step this block goes on to (0: none), its matrix, its info, and the swap's
# result.
s = continued(head, "s_walk", "        const int cont_j = WALK ? s_cont_j : 0; // this block goes on down the diagonal\n")
s = edit(s, "    __shared__ long long s_tasks;\n    if (tid == 0) s_tasks = tasks;\n",
         "    __shared__ long long s_tasks;\n    if (tid == 0) s_tasks = tasks;\n    if (tid == 0) s_cont_j = 0;\n"
         "    constexpr bool WALK = ROWS && SPLIT && !PANEL;\n"
         "    // The word of step j of matrix m, after the tiles' and the prefix tasks' flags; its sums after the prefix\n"
         "    // tasks' (x has room for them in the lab).\n"
         "    auto walk_state = [&](int j, int m) { return flags + 2 * ((long long)nt * (nt + 1) / 2 * count) + (long long)j * count + m; };\n")
s = edit(s, "        auto pre_sum = [&] { return s_pre_sums + pre_slot() * (2 * TS * TS); };\n",
         "        auto pre_sum = [&] { return s_pre_sums + pre_slot() * (2 * TS * TS); };\n"
         "        auto walk_sum = [&] { return s_pre_sums + ((long long)Pre::count(nt) * count + (long long)j * count + m) * (2 * TS * TS); };\n")
# The sums: from the slot (cont), both through s_a, so that s_b keeps X_{j−1}.
SUMS = """            const T* const ws = walk_sum();
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
"""
s = split(s, SUMS)
# The offer.
s = poster(s, "walk_sum()", """            __syncthreads();
            if (tid == 0) {
                __threadfence();
                s_walk = atomicCAS(walk_state(j, m), 0, 1);
            }
            __syncthreads();
            if (s_walk == 0) continue; // the block ending step j − 1 takes it
""")
# The swap at the end of every diagonal task.
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
s = edit(s, """        } else if (diag) {
            publish(flag(j, j, m));
        }
    }
}""", """        } else if (diag) {
            publish(flag(j, j, m));
        }
""" + SWAP + """    }
}""")
# walk2 (after call 7, where walk was correct but 25–32 % slower): the swap before store_block (L(j, j) to the
# matrix, which walk put on the chain), the posted sums copied by cp.async into the split loop's buffers (free
# outside it) while store_block runs, and counters: offers made, offers taken, offers that came too late.
w2 = edit(s, K2 := "template <typename T, int TS, int NT, bool UPPER, bool SPLIT, bool PANEL, int MIN_BLOCKS>\n__global__",
          "__device__ unsigned long long g_walk[4]; // offers, taken, too late\n" + K2)
# The sums from the split buffers (cp.async'd at the end of step j − 1).
w2 = edit(w2, "        if (cont_j > 0) {\n" + SUMS + "        } else {", """        if (cont_j > 0) {
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
w2 = edit(w2, SWAP, "")
def swap2(pad, factor_ran):
    """walk2's swap and copy at the end of a diagonal task, indented by pad; where its factor ran, this thread may
    have written info, and a taken step is counted."""
    f = " // this thread wrote it, if this block did" if factor_ran else ""
    taken = "\n        if (old == 1) atomicAdd(&g_walk[1], 1ull);" if factor_ran else ""
    return textwrap.indent(f"""if (WALK) {{
    if (tid == 0) {{
        const int jj = j + 1;
        int old = 2;
        if (jj < nt) {{
            old = atomicCAS(walk_state(jj, m), 0, 2);
            __threadfence();
        }}
        s_cont_j = old == 1 ? jj : 0;
        s_cont_m = m;
        s_cont_f = ld_cg(info + m);{f}{taken}
    }}
    __syncthreads();
    if (s_cont_j > 0) {{
        extern __shared__ __align__(16) float s_split[];
        float (*const s_w)[TS + 4] = reinterpret_cast<float (*)[TS + 4]>(s_split);
        const float* const ws = reinterpret_cast<const float*>(s_pre_sums) +
                                ((long long)Pre::count(nt) * count + (long long)(j + 1) * count + m) * (2 * TS * TS);
#pragma unroll
        for (int e = tid; e < 2 * TS * TS / 4; e += NT) cp_async16(&s_w[e / (TS / 4)][4 * (e % (TS / 4))], ws + 4 * e, true);
        commit_async();
    }}
}}
""", " " * pad, lambda line: not line.startswith("#"))


w2 = edit(w2, """                publish(flag(j, j, m));
                store_block""", """                publish(flag(j, j, m));
""" + swap2(16, True) + """                store_block""")
w2 = edit(w2, """        } else if (diag) {
            publish(flag(j, j, m));
        }
    }
}""", """        } else if (diag) {
            publish(flag(j, j, m));
""" + swap2(12, False) + """        }
    }
}""")
variants = {"head": head, "walk": s, "walk2": w2}


def counters(spec, mods):
    import cupy as cp
    g = cp.ndarray((4,), cp.uint64, mods["walk2"].get_global("g_walk"))
    n = g.get()
    print(f"{spec:>10} walk2 over all launches: {n[0]} offers, {n[1]} taken, {n[2]} too late", flush=True)
    g.fill(0)


run(variants, keep=("walk2",), after_case=counters)
