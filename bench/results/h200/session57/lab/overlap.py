# Lab variant of blocked.cu (session 57): factor_rows' inverse overlapped with its factor, in warp 1. lab/stamps.py
# (H100, calls 4 and 5): without the inverse a tile step of the one-block 3xTF32 kernels is 1.0–1.5 µs shorter;
# lab/early.py, which takes the inverse off the chain by a substitution in the next diagonal task, gained nothing
# (the substitution and the early store's fence cost what the inverse did). Here the inverse stays where it is,
# with the same operations in the same order (so the bits of L and X are factor_rows'), but warp 1 forms it while
# warp 0 factors: after each step of 8 columns warp 0 publishes s_l[p] and the step's pivots in s_rd (a counter in
# shared memory, release at CTA scope), and warp 1 forms those 8 pivots of every column of X as soon as it sees
# them, so only the last step's follow the factor (as factor_quarters' warp 0 does). Warps 2 and 3 store tile
# (j, j − 1) during the factor (warps 1 to 3 until now). Float only: chol_tiled's ROWS kernels (factor_rows).
# It edits a7e50e5's blocked.cu (stamps.py's BLOCKED); the tree has had overlap's change since 5fbd2c6.


def edit(s, old, new):
    assert s.count(old) == 1, (old, s.count(old))
    return s.replace(old, new)


def with_overlap(s):
    # The counter, its release and its wait.
    s = edit(s, "template <int NT, bool BOUND = false>\n__device__ __forceinline__ void factor_rows(",
             r'''__shared__ unsigned ovl_steps; // factor_rows' steps published in this call (chol_tiled zeroes it before)
__device__ __forceinline__ void ovl_publish(unsigned v) {
    asm volatile("st.release.cta.shared::cta.u32 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(&ovl_steps)), "r"(v) : "memory");
}
__device__ __forceinline__ void ovl_wait(unsigned v) {
    unsigned got;
    do {
        asm volatile("ld.acquire.cta.shared::cta.u32 %0, [%1];" : "=r"(got) : "r"((unsigned)__cvta_generic_to_shared(&ovl_steps)) : "memory");
    } while (got < v);
}
template <int NT, bool BOUND = false>
__device__ __forceinline__ void factor_rows(''')
    # Warp 0 publishes each step once its columns are in s_l and its pivots in s_rd.
    s = edit(s, """            for (int t = 0; t < S; ++t)
                if (c0 + t <= li) s_a[li][c0 + t] = r[c0 + t];
            if (p + 1 < P) {
""", """            for (int t = 0; t < S; ++t)
                if (c0 + t <= li) s_a[li][c0 + t] = r[c0 + t];
            __syncwarp(); // the warp's s_l and s_rd writes before lane 0 publishes them
            if (li == 0) ovl_publish(p + 1);
            if (p + 1 < P) {
""")
    # The inverse moves to warp 1, each step's pivots after warp 0 has published the step.
    s = edit(s, """        if (inverse) {
            __syncwarp(); // s_l and s_rd are complete
            // Column j = li of X""", """    } else if (threadIdx.x < 64) {
        const int li = threadIdx.x - 32;
        if (inverse) {
            // Column j = li of X""")
    s = edit(s, """                if (BOUND && k4 > 0 && k4 % 8 == 0) __syncwarp(); // bounds how far ptxas hoists the reads (BOUND below)
                // Four pivots at a time.
                inverse_pivots4(s_l, s_rd, s_x, li, k4, acc);
            }
        }
    }
    __syncthreads();
    fail_out = s_fail;""", """                if (k4 % 8 == 0) ovl_wait(k4 / 8 + 1); // step k4/8 published (and bounds ptxas' hoisting, as BOUND)
                // Four pivots at a time.
                inverse_pivots4(s_l, s_rd, s_x, li, k4, acc);
            }
        }
    }
    __syncthreads();
    fail_out = s_fail;""")
    # chol_tiled: the counter zeroed before the barrier ahead of the factor; warps 2 and 3 store tile (j, j − 1).
    s = edit(s, "            __syncthreads();\n            P(3);\n            int fail;\n",
             "            if (tid == 0) ovl_steps = 0;\n            __syncthreads();\n            P(3);\n            int fail;\n")
    s = edit(s, "                if (defer && tid >= 32) {", "                if (defer && tid >= 64) {")
    s = edit(s, "for (int sl = tid / 32 - 1; sl < TS; sl += NT / 32 - 1) {", "for (int sl = tid / 32 - 2; sl < TS; sl += NT / 32 - 2) {")
    s = edit(s, "count_in(&s_stored, NT / 32 - 2) == NT / 32 - 2", "count_in(&s_stored, NT / 32 - 3) == NT / 32 - 3")
    return s
