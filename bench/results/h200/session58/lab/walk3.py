# Lab (GPU machine): walk3, the diagonal walker of lab/walk.py made deterministic and taken off the chain's
# communication. walk.py's offers (a compare-and-swap per step) put an atomic round trip and a fence on every step,
# and the block that went on read the posted sums after it: correct, 20–32 % slower (calls 7 and 8).
#
# Here, when a launch has at least two blocks per matrix (count · 2 ≤ the grid, so that blocks are always free for
# the other tasks and nobody waits on a block that cannot come), the block that takes diagonal task 0 of a matrix
# walks down that matrix's whole diagonal: after each factor it writes X_j, info and flag (j, j) and L(j, j) as
# today, then runs diagonal task j + 1 itself, with X_j still in s_b and no wait for a flag. Diagonal task j ≥ 1's
# ticket only sums its tiles (j, j − 1) and (j, j) over the finished columns, as today, posts them to a slot and
# releases a flag of its own, and leaves. During the walker's factor j, warp 2 (idle after storing tile (j, j − 1))
# waits for task j + 1's flag and copies its sums by cp.async into the split loop's buffers (free outside it), so
# that the next step starts from them at once. A step's chain is then the factor, X out and the flag, and the two
# products, without the hand-over and X's reads (lab/handover.py: 1.25–1.5 µs of 7.25–8). The same operations on
# the same values: the factors must be head's bit for bit, failing matrices too (the walker runs the later steps'
# failure path as their tasks would).
#
# Usage, from the repository root: python3 bench/results/h200/session58/lab/walk3.py
# Env: CASES ("512x16,1024x4,2048x2,4096x1,256x64,256x1024"), REPS (7), UPLO (U), STAMP=1 (walk3s and walk4s, below), COMPILE_ONLY=1.
import os, sys

sys.path.insert(0, "bench/lab")
import tiledlab as tl

head = open("internal/gpu/cholblocked/blocked.cu").read()

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # walking.py
from walking import continued, edit, poster, run, split

s = continued(head, "s_pref", "        const int cont_j = s_cont_j; // this block goes on down the diagonal (WALK)\n")
s = edit(s, "    __shared__ long long s_tasks;\n    if (tid == 0) s_tasks = tasks;\n", """    __shared__ long long s_tasks;
    if (tid == 0) s_tasks = tasks;
    if (tid == 0) s_cont_j = 0;
    // WALK: this launch's diagonals are walked (two blocks a matrix at least).
    // (Computed where used: held through the task loop it would take a register.)
#define WALK (ROWS && SPLIT && !PANEL && 2 * (long long)count <= gridDim.x)
    // The posted sums' flag of step j of matrix m, after the tiles' and the prefix tasks' flags; the sums after the
    // prefix tasks' (x has room for them in the lab).
    auto walk_flag = [&](int j, int m) { return flags + 2 * ((long long)nt * (nt + 1) / 2 * count) + (long long)j * count + m; };
""")
s = edit(s, "        auto pre_sum = [&] { return s_pre_sums + pre_slot() * (2 * TS * TS); };\n",
         "        auto pre_sum = [&] { return s_pre_sums + pre_slot() * (2 * TS * TS); };\n"
         "        auto walk_sum = [&](int jj) { return s_pre_sums + ((long long)Pre::count(nt) * count + (long long)jj * count + m) * (2 * TS * TS); };\n")
s = split(s, """            // The walker: task j's sums, copied during the last factor by warp 2 (s_pref), else now.
            extern __shared__ __align__(16) float s_split[];
            float (*const s_w)[TS + 4] = reinterpret_cast<float (*)[TS + 4]>(s_split);
            if (!s_pref) {
                wait_flags(walk_flag(j, m), walk_flag(j, m));
                const T* const ws = walk_sum(j);
#pragma unroll 4
                for (int e = tid; e < 2 * TS * TS; e += NT) s_w[e / TS][e % TS] = ld_cg(ws + e);
            }
            wait_async<0>();
            __syncthreads();
            cc.from(s_w);
            cd.from(s_w + TS);
            __syncthreads();
""")
# Diagonal task j ≥ 1 in a walked launch: post the sums, release their flag, leave.
s = poster(s, "walk_sum(j)", """            publish(walk_flag(j, m));
            continue;
""")
# During the factor: warp 2 fetches the next step's sums (after its part of tile (j, j − 1)'s store).
CALL = "                factor_rows<NT, SPLIT>(s_a, s_b, wj, j + 1 < nt, fail, dfail);\n"
s = edit(s, CALL, """                if (WALK && tid >= 64 && tid < 96 && s_jm[0] + 1 < nt) {
                    // j and m from shared memory: held through the factor they take registers (Prefix tasks).
                    const int lane = tid % 32, jn = s_jm[0] + 1, mm = s_jm[1];
                    if (lane == 0)
                        while (ld_acquire(walk_flag(jn, mm)) == 0) {
                        }
                    __syncwarp();
                    extern __shared__ __align__(16) float s_split[];
                    float (*const s_w)[TS + 4] = reinterpret_cast<float (*)[TS + 4]>(s_split);
                    const float* const ws = reinterpret_cast<const float*>(s_pre_sums) +
                                            ((long long)Pre::count(nt) * count + (long long)jn * count + mm) * (2 * TS * TS);
#pragma unroll
                    for (int e = lane; e < 2 * TS * TS / 4; e += 32) cp_async16(&s_w[e / (TS / 4)][4 * (e % (TS / 4))], ws + 4 * e, true);
                    commit_async();
                    if (lane == 0) s_pref = 1;
                }
""" + CALL)
# The walker's prefetch flag is cleared before the factor (a full barrier comes between).
s = edit(s, "            __syncthreads();\n            int fail;\n            R dfail;\n",
         "            if (tid == 0) s_pref = 0;\n            __syncthreads();\n            int fail;\n            R dfail;\n")
# The end of a walked diagonal task: go on to the next step (no ticket).
s = edit(s, """        } else if (diag) {
            publish(flag(j, j, m));
        }
    }
}""", """        } else if (diag) {
            publish(flag(j, j, m));
            if (tid == 0) s_pref = 0; // no factor ran: nothing fetched
        }
        if (WALK && diag) {
            if (tid == 0) {
                const int jj = s_jm[0] + 1;
                s_cont_j = jj < nt ? jj : 0;
                s_cont_m = s_jm[1];
                s_cont_f = ld_cg(info + s_jm[1]); // this thread wrote it, if this block did
            }
            __syncthreads();
        }
    }
}""")
variants = {"head": head, "walk3": s}
# walk4 (after call 10's stamps: in walk3 the next step's sums reach the walker 1.25–1.75 µs after its factor's end,
# because the poster's last step, k = j − 2 for step j, needs tile (j − 1, j − 2), which the walker itself stores
# during factor j − 1, and then the posting and the fetch follow): the poster sums k < j − 2 only, and warp 2 fetches,
# during factor j − 1, the partial sums and the tiles (j, j − 2) and (j − 1, j − 2) into the split buffers; the
# walker takes step k = j − 2 itself (the same mul_pair as the own loop's, in the same order) before its products.
w4 = edit(s, "        const int k1 = pair && !diag ? kp : c;\n",
          "        const int k1 = pair && !diag ? kp : WALK && diag && cont_j == 0 && c >= 1 ? c - 1 : c;\n")
# The tiles' copy (4-byte cp.async, rows past the matrix zero): tile (R, K) of matrix mm into buffer d, by the
# threads lane = first … step.
COPY = """                    auto walk_tile = [&](float (*d)[TS + 4], int R, int K, int mm, int first, int step) {
                        const float* const am2 = reinterpret_cast<const float*>(a) + mm * stride;
                        for (int e = first; e < TS * TS; e += step) {
                            const int r = UPPER ? e / TS : e % TS, q = UPPER ? e % TS : e / TS;
                            cp_async4(&d[r][q], am2 + nat<UPPER>((long long)R * TS + r, (long long)K * TS + q, lda), R * TS + r < n);
                        }
                    };
"""
w4 = edit(w4, """#pragma unroll
                    for (int e = lane; e < 2 * TS * TS / 4; e += 32) cp_async16(&s_w[e / (TS / 4)][4 * (e % (TS / 4))], ws + 4 * e, true);
                    commit_async();
                    if (lane == 0) s_pref = 1;
""", """#pragma unroll
                    for (int e = lane; e < 2 * TS * TS / 4; e += 32) cp_async16(&s_w[e / (TS / 4)][4 * (e % (TS / 4))], ws + 4 * e, true);
                    if (jn >= 2) {
""" + COPY + """                        if (lane == 0)
                            while (ld_acquire(flag(jn, jn - 2, mm)) == 0 || ld_acquire(flag(jn - 1, jn - 2, mm)) == 0) {
                            }
                        __syncwarp();
                        walk_tile(s_w + 2 * TS, jn, jn - 2, mm, lane, 32);
                        walk_tile(s_w + 3 * TS, jn - 1, jn - 2, mm, lane, 32);
                    }
                    commit_async();
                    if (lane == 0) s_pref = 1;
""")
READ = "                for (int e = tid; e < 2 * TS * TS; e += NT) s_w[e / TS][e % TS] = ld_cg(ws + e);\n"
w4 = edit(w4, READ, READ + """                if (j >= 2) {
                    wait_flags(flag(j, j - 2, m), flag(j - 1, j - 2, m));
""" + COPY + """                    walk_tile(s_w + 2 * TS, j, j - 2, m, tid, NT);
                    walk_tile(s_w + 3 * TS, j - 1, j - 2, m, tid, NT);
                    commit_async();
                }
""")
w4 = edit(w4, "            cd.from(s_w + TS);\n", "            cd.from(s_w + TS);\n"
          "            if (j >= 2) cc.template mul_pair<true>(cd, s_w + 2 * TS, s_w + 3 * TS); // step k = j − 2, the loop's last\n")
variants["walk4"] = w4
# walk5 (after call 12's stamps: walk4's 2 µs from flag (j, j) to the next step's sums in held an L2 read of info on
# the chain): the next step's info from the factor's fail (0 unless this step failed) or, where no factor ran, from
# the task's own f, through shared memory.
w5 = edit(w4, "                if (tid == 0 && ((j0 == 0 && j == 0) || fail != 0)) info[m] = fail != 0 ? j0 + j * TS + fail : 0;\n",
          "                if (tid == 0 && ((j0 == 0 && j == 0) || fail != 0)) info[m] = fail != 0 ? j0 + j * TS + fail : 0;\n"
          "                if (tid == 0) s_cont_f = fail != 0 ? j0 + j * TS + fail : 0;\n")
w5 = edit(w5, "            if (tid == 0) s_pref = 0; // no factor ran: nothing fetched\n",
          "            if (tid == 0) s_pref = 0; // no factor ran: nothing fetched\n            if (tid == 0) s_cont_f = f;\n")
w5 = edit(w5, "                s_cont_f = ld_cg(info + s_jm[1]); // this thread wrote it, if this block did\n", "")
variants["walk5"] = w5
# STAMP=1: walk3s and walk4s, walk3 and walk4 with globaltimer stamps of step (j, m), thread 0 unless said: 0 the
# walker's step start, 1 its sums in (and, walk4, step j − 2 taken), 2 the factor's start, 3 its end, 4 flag (j, j)
# published, 5 warp 2 saw step j's posted sums (during factor j − 1), 6 the poster's flag released, 7 the poster's
# own loop done, 8 (walk4s) warp 2 saw the flags of tiles (j, j − 2) and (j − 1, j − 2).
def stamped(w):
    w = edit(w, "template <typename T, int TS, int NT, bool UPPER, bool SPLIT, bool PANEL, int MIN_BLOCKS>\n__global__",
             "__device__ unsigned long long g_ws[1 << 20];\n"
             "__device__ __forceinline__ unsigned long long gtime() { unsigned long long v; asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(v)); return v; }\n"
             "#define WS(jj, mm, k) do { if ((((long long)(mm) * nt + (jj)) * 10 + (k)) < (1 << 20)) g_ws[((long long)(mm) * nt + (jj)) * 10 + (k)] = gtime(); } while (0)\n"
             "template <typename T, int TS, int NT, bool UPPER, bool SPLIT, bool PANEL, int MIN_BLOCKS>\n__global__")
    w = edit(w, "        if (cont_j > 0) {\n            // The walker: task j's sums",
             "        if (cont_j > 0) {\n            if (tid == 0) WS(j, m, 0);\n            // The walker: task j's sums")
    w = edit(w, "        if (WALK && diag && c >= 0 && cont_j == 0) {\n",
             "        if (cont_j > 0 && tid == 0) WS(j, m, 1);\n        if (WALK && diag && c >= 0 && cont_j == 0) {\n            if (tid == 0) WS(j, m, 7);\n")
    w = edit(w, "            if (tid == 0) s_pref = 0;\n            __syncthreads();\n            int fail;\n",
             "            if (tid == 0) s_pref = 0;\n            __syncthreads();\n            if (tid == 0) WS(j, m, 2);\n            int fail;\n")
    w = edit(w, CALL, CALL + "                if (tid == 0) WS(s_jm[0], s_jm[1], 3);\n")
    w = edit(w, "                publish(flag(j, j, m));\n                store_block", "                publish(flag(j, j, m));\n                if (tid == 0) WS(j, m, 4);\n                store_block")
    w = edit(w, "                        while (ld_acquire(walk_flag(jn, mm)) == 0) {\n                        }\n",
             "                        while (ld_acquire(walk_flag(jn, mm)) == 0) {\n                        }\n                    if (lane == 0) WS(jn, mm, 5);\n")
    w = edit(w, "            publish(walk_flag(j, m));\n            continue;\n", "            publish(walk_flag(j, m));\n            if (tid == 0) WS(j, m, 6);\n            continue;\n")
    if "flag(jn - 1, jn - 2, mm)) == 0) {" in w:
        w = edit(w, """                            while (ld_acquire(flag(jn, jn - 2, mm)) == 0 || ld_acquire(flag(jn - 1, jn - 2, mm)) == 0) {
                            }
""", """                            while (ld_acquire(flag(jn, jn - 2, mm)) == 0 || ld_acquire(flag(jn - 1, jn - 2, mm)) == 0) {
                            }
                        if (lane == 0) WS(jn, mm, 8);
""")
    return w


if os.environ.get("STAMP") == "1":
    variants["walk3s"] = stamped(s)
    variants["walk4s"] = stamped(w4)
    variants["walk5s"] = stamped(w5)


def stamps(spec, mods):
    import cupy as cp
    import numpy as np
    n = int(spec.split("x")[0])
    nt = (n + 31) // 32
    for v in mods:
        g = cp.ndarray((1 << 20,), cp.uint64, mods[v].get_global("g_ws"))
        st = g.get()[: nt * 10].reshape(nt, 10).astype(np.int64) / 1e3
        rows = [(st[j, 4] - st[j - 1, 4], st[j, 1] - st[j - 1, 4], st[j, 2] - st[j, 1], st[j, 3] - st[j, 2], st[j, 4] - st[j, 3],
                 st[j + 1, 7] - st[j, 2], st[j + 1, 6] - st[j, 2], st[j + 1, 5] - st[j, 2], st[j + 1, 8] - st[j, 2]) for j in range(2, nt - 1)]
        med = np.median(np.array(rows), axis=0)
        print(f"{'':>10} {v}, matrix 0, medians over steps 2 … nt − 2 (µs): step {med[0]:.2f}; from the last flag: sums in "
              f"{med[1]:.2f}, to the factor {med[2]:.2f}, factor {med[3]:.2f}, X out + flag {med[4]:.2f}; from this factor's "
              f"start, the next step's own loop done {med[5]:.2f}, its sums' flag {med[6]:.2f}, seen by warp 2 {med[7]:.2f}"
              + (f", its tiles' flags seen {med[8]:.2f}" if v in ("walk4s", "walk5s") else ""), flush=True)
        g.fill(0)


run(variants, keep=("walk3s", "walk4s", "walk5s"), after_case=stamps)
