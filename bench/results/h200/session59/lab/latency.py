# Lab (GPU machine): a row-pair task's round trips in chol_tiled's four-block 3xTF32 kernel (the suite's batched mid
# sizes, n512 b640 … n8192 b1, native:tiled:occ=4). Session 53's ablate put half of those cases' time outside the
# split loop at n512 b640 and n1024 b60: per task, one after the other, the ticket's atomic, the loads of C, the
# loop's first copies, flag (c, c), info and X_c, and two releases, each waiting for the block's stores. Variants of
# the tree's blocked.cu, each the same products in the same order (bit for bit):
#   publish2  a pair's two tiles released together after both are stored: one release waits for both tiles' stores;
#   ticket    the next task's ticket taken at the start of this one (its atomic in flight during the task; written
#             to shared memory after the loads' barrier). Tickets stay in order, so the lowest unfinished one is
#             always some block's current task, whose inputs all have lower tickets: nothing can wait forever;
#   casync    a pair task's two C tiles copied by cp.async, a group before the loop's first copies, so that their
#             loads are in flight during the flags' wait and those copies (loaded straight into the accumulators,
#             they gave the kernel a 40 B stack frame under NVRTC 12.4);
#   tp        ticket and publish2;
#   all       the three.
# Each is timed against the tree's kernel, interleaved (tiledlab), and must give its factors bit for bit, on SPD
# matrices and on failing ones (n = 512, four matrices).
#
# Usage, from the repository root: python3 bench/results/h200/session59/lab/latency.py
# Env: CASES ("512x640,1024x60,2048x8,4096x2,8192x1"), REPS (7), UPLO (U), COMPILE_ONLY=1 (resources only).
import os, sys

sys.path.insert(0, "bench/lab")
import tiledlab as tl

head = open("internal/gpu/cholblocked/blocked.cu").read()
edit = tl.edit


def publish2(s):
    return edit(s, "                if (!defer) publish(flag(row, c, m)); // its barrier also frees s_a for a second tile\n",
                """                if (!defer) {
                    __syncthreads(); // every store of the tile done; also frees s_a for a second tile
                    if (tid == 0 && !(two && row == i)) {
                        if (two) release(flag(i, c, m));
                        release(flag(row, c, m));
                    }
                }
""")


def ticket(s):
    s = edit(s, """#pragma unroll 1
    for (;;) {
        if (tid == 0) s_ticket = atomicAdd(tickets, 1);
        __syncthreads();
        const int t = s_ticket; // an int32 counter: PotrfTiled and the panels keep tasks plus the grid below 2³¹
        if (t >= s_tasks) return; // uniform (s_tasks is set before the first barrier)
""", """    if (tid == 0) s_ticket = atomicAdd(tickets, 1);
#pragma unroll 1
    for (;;) {
        __syncthreads();
        const int t = s_ticket; // an int32 counter: PotrfTiled and the panels keep tasks plus the grid below 2³¹
        if (t >= s_tasks) return; // uniform (s_tasks is set before the first barrier)
        int next = 0;
        if (tid == 0) next = atomicAdd(tickets, 1);
""")
    return edit(s, """        __syncthreads();
        if (c >= 0) cc.from(s_a);
""", """        __syncthreads();
        if (tid == 0) s_ticket = next; // every thread has read t
        if (c >= 0) cc.from(s_a);
""")


CASYNC = """template <typename T, int TS, int NT, bool UPPER>
__device__ __forceinline__ void load_tile_async(T (*s)[TS + 1], const T* a, long long lda, long long r0, long long c0, int nr) {
#pragma unroll
    for (int e = threadIdx.x; e < TS * TS; e += NT) {
        const int fast = e % TS, slow = e / TS;
        const int r = UPPER ? slow : fast, c = UPPER ? fast : slow;
        cp_async4(&s[r][c], a + (r < nr ? nat<UPPER>(r0 + r, c0 + c, lda) : 0), r < nr);
    }
}

"""


def casync(s):
    s = edit(s, "// split_stages is the number of shared buffers", CASYNC + "// split_stages is the number of shared buffers")
    s = edit(s, """        if (k0 > 0) {
            // Both sums from the prefix task.""", """        bool in_regs = false;
        if constexpr (PAIRS) in_regs = !diag;
        if (in_regs) {
            if constexpr (PAIRS) {
                load_tile_async<T, TS, NT, UPPER>(s_a, am, lda, (long long)i * TS, (long long)c * TS, nr);
                load_tile_async<T, TS, NT, UPPER>(s_b, am, lda, (long long)(i + 1) * TS, (long long)c * TS, nr2);
                commit_async();
            }
        } else if (k0 > 0) {
            // Both sums from the prefix task.""")
    s = edit(s, """        if (c >= 0) cc.from(s_a);
        if (pair || (PAIRS && !diag)) cd.from(s_b);
""", """        if (c >= 0 && !in_regs) cc.from(s_a);
        if (pair) cd.from(s_b);
""")
    s = edit(s, """                for (int k = 0; k < S - 1; ++k) copy(k0 + k);
""", """                for (int k = 0; k < S - 1; ++k) copy(k0 + k);
                if (in_regs) {
                    wait_async<S - 1>(); // C's group, before the steps'
                    __syncthreads();
                    cc.from(s_a), cd.from(s_b);
                }
""")
    return edit(s, """                __syncthreads(); // every thread is done reading s_p and s_q
            }
""", """                __syncthreads(); // every thread is done reading s_p and s_q
            } else if (in_regs) {
                wait_async<0>();
                __syncthreads();
                cc.from(s_a), cd.from(s_b);
            }
""")


variants = {
    "head": head,
    "publish2": publish2(head),
    "ticket": ticket(head),
    "casync": casync(head),
    "tp": ticket(publish2(head)),
    "all": casync(ticket(publish2(head))),
}
tl.run_lab(variants, os.environ.get("UPLO", "U"), os.environ.get("CASES", "512x640,1024x60,2048x8,4096x2,8192x1").split(","),
           fails=((1, 71), (3, 300)), blocks=4)
