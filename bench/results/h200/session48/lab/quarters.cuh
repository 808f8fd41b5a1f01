// factor_quarters: factor_rows (internal/gpu/cholblocked/blocked.cu) with
// its four steps of 8 columns dealt to the block's four warps, and the
// inverse formed by warp 0 while the later steps run. A lab form (session
// 48), not shipped: lab/factor.py times it alone on one block against
// factor_rows and factor_subblocks and compares its L and X with
// factor_rows' bit for bit.
//
// Why. In chol_tiled's one-block kernels the diagonal factor is most of
// the chain from one diagonal tile to the next (session 21's stamps, n =
// 1024 at 4 matrices: about 6.5 of a 9 µs step from the factor's start to
// the flag), and factor_rows keeps every part of it in warp 0 while the
// other three wait: each step's deferred update of the columns beyond the
// next step's (up to 16 columns of 8 terms a lane) and the whole inverse
// (32 pivots) are on that chain. Here warp q keeps columns 8q…8q+7 of
// every row (lane i row i) and applies each earlier step's update as soon
// as that step's warp has published its columns, so the chain is, per
// step, one update of 8 columns, the 8×8 diagonal block and the
// substitution of a row. Warp 0, free after step 0, runs first (the
// caller's work, which chol_tiled gives the store of tile (j, j − 1)),
// then forms X column by column as factor_rows does, one step's pivots
// at a time as the steps are published, so only the last step's pivots
// follow the factor. A step is published to each warp that reads it
// through a named barrier of its own, B(p, q) (bar.arrive by warp p,
// bar.sync by warp q), so that no warp waits for a third.
//
// Same operations in the same order as factor_rows for every entry of L
// and X (the updates of a column come step after step, 8 terms in order;
// the diagonal block, the substitution and the inverse are its code), so
// the bits are the same; failure as factor_rows (the first failing pivot,
// carried from step to step in s_fails).
//
// Three forms of the publishing (SYNC). kNamed: named barriers 1…13
// (B(p, q) = 1 + 4p + q); the caller must use no other between its full
// barriers before and after the call. kMbar: mbarrier objects in shared
// memory, one for each (p, q), completed once a call, whose phase parity
// the block keeps in quarters_phase: quarters_init must run (thread 0,
// before a full barrier) before the first call. kFull: a __syncthreads
// after each step, every warp waiting for the slowest (the caller's work
// then goes to warp 3, idle until step 3, at the start). Named barriers
// with fewer than all the block's threads made racecheck report hazards
// between accesses that a full barrier orders (session 34); the mbarrier
// form and, for certain, the full one are the forms for that check.
// Needs NT = 128.

// bar_sync waits at named barrier id until count threads (whole warps)
// have arrived; bar_arrive arrives without waiting. The producer's shared
// stores before bar_arrive are visible to the consumers after their
// bar_sync (PTX's producer–consumer pattern for bar.arrive).
__device__ __forceinline__ void bar_sync(int id, int count) { asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(count) : "memory"); }
__device__ __forceinline__ void bar_arrive(int id, int count) { asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(count) : "memory"); }

// The mbarrier form: a barrier per B(p, q) (id − 1), each completed by the
// 32 lanes of warp p arriving (release, CTA scope) and waited on by warp q
// (acquire) for the phase of the current call.
__shared__ __align__(8) unsigned long long quarters_bars[13];
__shared__ unsigned quarters_phase;
__device__ __forceinline__ unsigned smem_addr(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void quarters_init() {
    if (threadIdx.x == 0) {
        for (int b = 0; b < 13; ++b)
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(&quarters_bars[b])), "r"(32) : "memory");
        quarters_phase = 0;
    }
}
__device__ __forceinline__ void mbar_arrive(int id) {
    asm volatile("{\n .reg .b64 st;\n mbarrier.arrive.shared::cta.b64 st, [%0];\n}" ::"r"(smem_addr(&quarters_bars[id - 1]))
                 : "memory");
}
__device__ __forceinline__ void mbar_wait(int id, unsigned parity) {
    unsigned done = 0;
    while (!done)
        asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done)
                     : "r"(smem_addr(&quarters_bars[id - 1])), "r"(parity)
                     : "memory");
}

enum { kNamed = 0, kMbar = 1, kFull = 2 };

template <int NT, bool OVERLAP = true, int SYNC = kNamed, typename First>
__device__ __forceinline__ void factor_quarters(float (*s_a)[33], float (*s_x)[33], int w, bool inverse, int& fail_out,
                                                float& dfail_out, First&& first) {
    constexpr int N = 32, S = 8, P = N / S;
    static_assert(NT == 32 * P, "a warp for each step's columns");
    __shared__ __align__(16) float s_l[P][N][S]; // L(i, S·p + q) at [p][i][q]; 0 above the diagonal
    __shared__ __align__(16) float s_d[P][S][S]; // step p's diagonal block, as the steps before left it
    __shared__ float s_rd[N];                    // 1/L(k, k); 0 from a failed pivot on
    __shared__ int s_fails[P];                   // the first failing pivot (1-based) after step p, 0 for none
    __shared__ float s_dfails[P];                // its value
    const int q = threadIdx.x / 32, li = threadIdx.x % 32, c0 = S * q;
    auto B = [](int p, int q) { return 1 + P * p + q; }; // step p published to warp q
    const unsigned parity = SYNC == kMbar ? quarters_phase & 1 : 0;
    auto wait = [&](int id) {
        if (SYNC == kMbar) mbar_wait(id, parity);
        else bar_sync(id, 64);
    };
    float r[S]; // row li in this warp's columns: A's, then L's
#pragma unroll
    for (int t = 0; t < S; ++t) r[t] = s_a[li][c0 + t];

    // Step p's update of this warp's columns.
    auto update = [&](int p) {
        float lr[S];
        ld4(&s_l[p][li][0], &lr[0]);
        ld4(&s_l[p][li][4], &lr[4]);
#pragma unroll
        for (int t = 0; t < S; ++t) {
            float lc[S];
            ld4(&s_l[p][c0 + t][0], &lc[0]);
            ld4(&s_l[p][c0 + t][4], &lc[4]);
#pragma unroll
            for (int k = 0; k < S; ++k) r[t] = fmaf(-lr[k], lc[k], r[t]);
        }
    };

    // This warp's step: factor_rows' (b) to (d) on columns c0…c0+7.
    auto step = [&] {
        int fail = q > 0 ? s_fails[q - 1] : 0;        // 1-based column of the first pivot that is not > 0
        float dfail = q > 0 ? s_dfails[q - 1] : 0.0f; // that pivot
        if (li >= c0 && li < c0 + S) {
            st4(&s_d[q][li - c0][0], &r[0]);
            st4(&s_d[q][li - c0][4], &r[4]);
        }
        __syncwarp();
        float d[S][S]; // lower part only: rows 0–3 read just their first 4 entries
#pragma unroll
        for (int k = 0; k < S; ++k) {
            ld4(&s_d[q][k][0], &d[k][0]);
            if (k >= 4) ld4(&s_d[q][k][4], &d[k][4]);
        }
        float rd[S];
#pragma unroll
        for (int t = 0; t < S; ++t) {
            const float dv = d[t][t];
            if (!(dv > 0.0f) && fail == 0 && c0 + t < w) { // NaN fails too; padding pivots never count
                fail = c0 + t + 1;
                dfail = dv;
            }
            const float sc = fail == 0 ? rsqrtf(dv) : 0.0f;
            rd[t] = sc;
#pragma unroll
            for (int k = t + 1; k < S; ++k) d[k][t] *= sc;
#pragma unroll
            for (int k = t + 1; k < S; ++k)
#pragma unroll
                for (int u = t + 1; u <= k; ++u) d[k][u] = fmaf(-d[k][t], d[u][t], d[k][u]);
        }
        if (li == 0) {
#pragma unroll
            for (int t = 0; t < S; ++t) s_rd[c0 + t] = rd[t];
            s_fails[q] = fail;
            s_dfails[q] = dfail;
        }
#pragma unroll
        for (int t = 0; t < S; ++t) {
            float y = r[t];
#pragma unroll
            for (int k = 0; k < t; ++k) y = fmaf(-r[k], d[t][k], y);
            float x = y * rd[t];
            // L(j, j) = d·rsqrt(d), except that d = +Inf gives +Inf as sqrt would.
            if (li == c0 + t) x = isinf(y) ? y : y * rd[t];
            if (li < c0 + t) x = 0.0f;
            r[t] = x;
        }
        float* const mine = s_l[0][threadIdx.x]; // s_l[q][li]
        st4(mine, &r[0]);
        st4(mine + 4, &r[4]);
#pragma unroll
        for (int t = 0; t < S; ++t)
            if (c0 + t <= li) s_a[li][c0 + t] = r[t];
    };

    // Warp 0's inverse, pivots k4…k4+3: column j = li of X, as factor_rows
    // forms it, X(k, j) = −(1/L(k, k))·Σ_{j≤m<k} L(k, m)·X(m, j), X(j, j) =
    // 1/L(j, j), acc[i] gathering the sums as the X(m, j) come.
    float acc[N];
    auto inverse_group = [&](int k4) {
        float xs[4];
#pragma unroll
        for (int kk = 0; kk < 4; ++kk) {
            const int k = k4 + kk;
            const float rdk = s_rd[k];
            const float xk = k < li ? 0.0f : (k == li ? rdk : -acc[k] * rdk);
            s_x[k][li] = xk;
            xs[kk] = xk;
#pragma unroll
            for (int i = k + 1; i < k4 + 4; ++i) acc[i] = fmaf(s_l[k / S][i][k % S], xk, acc[i]);
        }
#pragma unroll
        for (int i = k4 + 4; i < N; ++i) {
            float l4[4];
            ld4(&s_l[k4 / S][i][k4 % S], l4);
#pragma unroll
            for (int kk = 0; kk < 4; ++kk) acc[i] = fmaf(l4[kk], xs[kk], acc[i]);
        }
    };

    if constexpr (SYNC == kFull) {
        if (q == P - 1) first();
        if (q == 0) {
#pragma unroll
            for (int i = 0; i < N; ++i) acc[i] = 0.0f;
        }
        // Every warp meets at the barrier after each step: warp p's step
        // before it, the later warps' updates and warp 0's pivots of step p
        // after it. (The loop is unrolled for acc's indices.)
#pragma unroll
        for (int p = 0; p < P; ++p) {
            if (q == p) step();
            __syncthreads();
            if (q > p) update(p);
            if (OVERLAP && inverse && q == 0) {
                inverse_group(S * p);
                __syncwarp(); // bounds how far ptxas hoists the reads (see below)
                inverse_group(S * p + 4);
            }
        }
        if (!OVERLAP && inverse && q == 0) {
#pragma unroll
            for (int k4 = 0; k4 < N; k4 += 4) {
                if (k4 > 0) __syncwarp();
                inverse_group(k4);
            }
        }
    } else {
        // The earlier steps' updates, each as soon as its warp has published.
#pragma unroll 1
        for (int p = 0; p < q; ++p) {
            wait(B(p, q));
            update(p);
        }
        step();
#pragma unroll 1
        for (int u = q + 1; u < P; ++u) {
            if (SYNC == kMbar) mbar_arrive(B(q, u));
            else bar_arrive(B(q, u), 64);
        }
        // Every mbarrier completes once a call, so that the parity holds; a
        // named barrier only where warp 0 waits on it.
        if (SYNC == kMbar && q > 0) mbar_arrive(B(q, 0));
        else if (OVERLAP && inverse && q > 0) bar_arrive(B(q, 0), 64);
        if (q == 0) first();
        if (!OVERLAP) __syncthreads();
        if (inverse && q == 0) {
            __syncwarp(); // step 0's s_l and s_rd are complete
#pragma unroll
            for (int i = 0; i < N; ++i) acc[i] = 0.0f;
#pragma unroll
            for (int k4 = 0; k4 < N; k4 += 4) {
                // Step k4/S's columns and pivots are published. The barrier,
                // and a __syncwarp between, bound how far ptxas hoists the
                // reads (as factor_rows' BOUND; without the __syncwarp
                // chol_tiled's one-block kernels took 8–16 B of stack under
                // NVRTC 12.4).
                if (OVERLAP && k4 > 0 && k4 % S == 0) wait(B(k4 / S, 0));
                else if (k4 > 0) __syncwarp();
                inverse_group(k4);
            }
        }
    }
    __syncthreads();
    fail_out = s_fails[P - 1];
    dfail_out = s_dfails[P - 1];
    // The next call reads the phase after the caller's full barriers.
    if (SYNC == kMbar && threadIdx.x == 0) quarters_phase += 1;
}
