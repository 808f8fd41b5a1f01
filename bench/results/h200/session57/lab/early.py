# Lab variant of blocked.cu (session 57): the inverse off the chain. lab/stamps.py's NOINV bound (H100, call 4):
# without factor_rows' inverse a tile step of the one-block 3xTF32 kernels is 1.0–1.5 µs shorter and the suite's
# chains 7–15 % faster. So here the diagonal task j publishes L(j, j) as soon as it is factored, before it forms
# X_j, and the next diagonal task, the only task of the chain that waits for it, solves its tile (j + 1, j) against
# L(j, j) by substitution instead of multiplying by X_j. Every other task still multiplies by X_j behind flag (j, j).
#
#   * factor_rows takes a hook, called in warp 0 between the factor and the inverse: there each lane writes its row
#     of L(j, j) (column-major, so the writes of a column are one line) and its reciprocal pivot to the early slot of
#     (j, m), lane 0 info where the factor failed (or j = 0, as the kernel does), and after a fence lane 0 releases
#     the early flag (j, m). A diagonal task whose matrix failed before releases it too (it factors nothing).
#   * The next diagonal task waits for that flag instead of flag (c, c), loads L(c, c) and its pivots, and in warp 0
#     solves row r of L(j, c)·L(c, c)ᵀ = C (lane r) by forward substitution: y_u = y_u·(1/L(u, u)), then
#     y_q −= y_u·L(q, u) for q > u (column u of L in 16-byte broadcast reads), columns from lim on zero.
#
# Workspace (the lab's Case makes x and the tickets larger): the early slots after the prefix tasks' sums,
# TS² + TS floats each, (j, m) at j·count + m; the early flags after the prefix tasks' flags, j·count + m.
# Other bits than the tree's in tile (j + 1, j) (FP32 substitution instead of a 3xTF32 product), so checked by
# residual, not bit for bit. Float only: the one-block float split kernel (EARLY below).
# It edits a7e50e5's blocked.cu (stamps.py's BLOCKED); the tree has had overlap's change since 5fbd2c6.


def edit(s, old, new):
    assert s.count(old) == 1, (old, s.count(old))
    return s.replace(old, new)


def with_early(s):
    # factor_rows' hook.
    s = edit(s, "template <int NT, bool BOUND = false>\n__device__ __forceinline__ void factor_rows(float (*s_a)[33], float (*s_x)[33], int w, bool inverse, int& fail_out,\n                                            float& dfail_out) {",
             "struct NoHook {\n    __device__ void operator()(int, const float (&)[32], int, const float*) const {}\n};\n"
             "template <int NT, bool BOUND = false, typename Hook = NoHook>\n__device__ __forceinline__ void factor_rows(float (*s_a)[33], float (*s_x)[33], int w, bool inverse, int& fail_out,\n                                            float& dfail_out, Hook hook = Hook()) {")
    s = edit(s, "        if (li == 0) {\n            s_fail = fail;\n            s_dfail = dfail;\n        }\n        if (inverse) {\n            __syncwarp(); // s_l and s_rd are complete\n",
             "        __syncwarp(); // s_rd is complete\n        hook(li, r, fail, s_rd);\n"
             "        if (li == 0) {\n            s_fail = fail;\n            s_dfail = dfail;\n        }\n        if (inverse) {\n            __syncwarp(); // s_l and s_rd are complete\n")
    # The substitution, warp 0, lane r.
    K = "template <typename T, int TS, int NT, bool UPPER, bool SPLIT, bool PANEL, int MIN_BLOCKS>\n__global__"
    s = edit(s, K, r'''template <int TS>
__device__ __forceinline__ void early_solve(const float (*s_c)[TS + 1], const float (*s_lt)[TS + 4], const float* s_ri,
                                            float (*out)[TS + 1], int lim, int r) {
    float y[TS];
#pragma unroll
    for (int u = 0; u < TS; ++u) y[u] = s_c[r][u];
#pragma unroll
    for (int u = 0; u < TS; ++u) {
        const float v = u < lim ? y[u] * s_ri[u] : 0.0f;
        y[u] = v;
#pragma unroll
        for (int q4 = (u + 1) & ~3; q4 < TS; q4 += 4) {
            const float4 w = *reinterpret_cast<const float4*>(&s_lt[u][q4]);
            const float wv[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
            for (int e = 0; e < 4; ++e)
                if (q4 + e > u) y[q4 + e] = fmaf(-v, wv[e], y[q4 + e]);
        }
    }
#pragma unroll
    for (int u = 0; u < TS; ++u) out[r][u] = y[u];
}
''' + K)
    s = edit(s, "    constexpr bool QUARTERS = sizeof(T) == 4 && MIN_BLOCKS == 4 && SPLIT && UPPER;\n",
             "    constexpr bool QUARTERS = sizeof(T) == 4 && MIN_BLOCKS == 4 && SPLIT && UPPER;\n"
             "    constexpr bool EARLY = ROWS && SPLIT && !PANEL; // the lab's early L(j, j)\n"
             "    __shared__ __align__(16) float s_lt[EARLY ? TS : 1][TS + 4]; // L(c, c): L(q, u) at [u][q]\n"
             "    __shared__ float s_ri[EARLY ? TS : 1];                       // 1/L(u, u)\n")
    # Where the early slots and flags are: after the prefix tasks' sums and flags.
    s = edit(s, "    auto flag = [&](int i, int k, int m) {\n",
             "    auto early_flag = [&](int j, int m) { return s_pre_flags + (long long)Prefix<PRE>::count(nt) * count + (long long)j * count + m; };\n"
             "    auto early_slot = [&](int j, int m) {\n"
             "        return reinterpret_cast<float*>(s_pre_sums) + (long long)Prefix<PRE>::count(nt) * count * (2 * TS * TS) +\n"
             "               ((long long)j * count + m) * (TS * TS + TS);\n"
             "    };\n"
             "    auto flag = [&](int i, int k, int m) {\n")
    # s_pre_flags and s_pre_sums are declared after flag: move their declarations before it.
    s = edit(s, "    __shared__ int* s_pre_flags;\n    __shared__ T* s_pre_sums;\n", "")
    s = edit(s, "    int* const flags = tickets + 1;\n", "    int* const flags = tickets + 1;\n    __shared__ int* s_pre_flags;\n    __shared__ T* s_pre_sums;\n")
    # The next diagonal task: the early flag, L(c, c) and its pivots.
    s = edit(s, "            wait_flags(flag(c, c, m), flag(c, c, m));\n",
             "            if (EARLY && diag) wait_flags(early_flag(c, m), early_flag(c, m));\n"
             "            else wait_flags(flag(c, c, m), flag(c, c, m));\n")
    s = edit(s, "#pragma unroll\n            for (int e = tid; e < TS * TS; e += NT) s_b[e % TS][e / TS] = ld_cg(xm + e);\n",
             "            if (EARLY && diag) {\n"
             "                const float* const lb = early_slot(c, m);\n"
             "#pragma unroll\n"
             "                for (int e = tid; e < TS * TS; e += NT) s_lt[e / TS][e % TS] = ld_cg(lb + e);\n"
             "                if (tid < TS) s_ri[tid] = ld_cg(lb + TS * TS + tid);\n"
             "            } else {\n"
             "#pragma unroll\n"
             "            for (int e = tid; e < TS * TS; e += NT) s_b[e % TS][e / TS] = ld_cg(xm + e);\n"
             "            }\n")
    s = edit(s, """                    __syncthreads();
                    TileT l;
#pragma unroll
                    for (int r = 0; r < l.RI; ++r)
#pragma unroll
                        for (int q = 0; q < l.CQ; ++q) l.v[r][q] = zero;
                    l.template mul<false>(s_a, s_b);
                    if (!ROWS) __syncthreads(); // every thread is done reading s_a
                    l.to(s_lc);
""", """                    __syncthreads();
                    bool solved = false;
                    if constexpr (EARLY) {
                        if (diag) {
                            if (tid < 32) early_solve<TS>(s_a, s_lt, s_ri, s_lc, lim, tid);
                            solved = true;
                        }
                    }
                    if (!solved) {
                    TileT l;
#pragma unroll
                    for (int r = 0; r < l.RI; ++r)
#pragma unroll
                        for (int q = 0; q < l.CQ; ++q) l.v[r][q] = zero;
                    l.template mul<false>(s_a, s_b);
                    if (!ROWS) __syncthreads(); // every thread is done reading s_a
                    l.to(s_lc);
                    }
""")
    # The hook: L(j, j) and the pivots out, info, the early flag.
    call = "factor_rows<NT, PRE>(s_a, s_b, wj, j + 1 < nt, fail, dfail);"
    s = edit(s, call, """if constexpr (EARLY) {
                    factor_rows<NT, PRE>(s_a, s_b, wj, j + 1 < nt, fail, dfail, [&](int li, const float (&r)[32], int fl, const float* rd) {
                        const int jj = s_jm[0], mm = s_jm[1];
                        if (jj + 1 < nt) {
                            float* const lb = early_slot(jj, mm);
#pragma unroll
                            for (int u = 0; u < TS; ++u) lb[u * TS + li] = r[u];
                            lb[TS * TS + li] = rd[li];
                            if (li == 0 && (jj == 0 || fl != 0)) info[mm] = fl != 0 ? jj * TS + fl : 0;
                            __threadfence();
                            __syncwarp();
                            if (li == 0) release(early_flag(jj, mm));
                        }
                    });
                } else {
                    """ + call + """
                }""")
    # A diagonal task of a matrix that failed before factors nothing: it releases the early flag too.
    s = edit(s, "        } else if (diag) {\n            publish(flag(j, j, m));\n",
             "        } else if (diag) {\n            if (EARLY && j + 1 < nt) { __syncthreads(); if (tid == 0) release(early_flag(j, m)); }\n            publish(flag(j, j, m));\n")
    return s
