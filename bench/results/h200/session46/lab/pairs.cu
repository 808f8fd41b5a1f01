// Lab only (session 46): cta_factor of cta-steps.patch with two threads a
// row, 2·NP threads a block (up to 512, hence the launch bounds). Lanes 2i
// and 2i + 1 of warp w hold row 16w + i: each copies half of the row's
// columns into the trapezoid, half h subtracts the finished block columns
// K ≡ h (mod 2) and the pair adds its two sums by one shuffle, so the
// longest warp's update (by an estimate from instruction counts, the
// chain's largest part at one matrix) halves. Both lanes then hold the
// same row (a + b = b + a), factor the diagonal block and solve it; half 0
// stores. Real types only (the pair's sum is one shuffle).
template <typename T, int NP, int NB, bool UPPER>
__device__ __forceinline__ int cta_factor_pairs(T* __restrict__ a, long long lda, long long stride, int n, int vec) {
    using R = typename real_of<T>::type;
    constexpr int V = 16 / (int)sizeof(T);
    static_assert(sizeof(R) == sizeof(T), "real types: the pair's sum is one shuffle");
    static_assert(NP % 32 == 0 && NP >= 64 && NP <= 256, "2·NP threads, at most 512");
    static_assert(NB >= 2 && 32 % NB == 0 && NP % NB == 0 && NB % V == 0, "NB divides 32; a step's row is whole vectors");

    T* const S = reinterpret_cast<T*>(cta_shared);
    __shared__ __align__(16) T s_d[NB][NB];

    const int t = threadIdx.x >> 1, h = threadIdx.x & 1;
    const bool row = t < n;
    const long long base = (long long)blockIdx.x * stride + (UPPER ? (long long)t * lda : (long long)t);
    const long long step = UPPER ? 1 : lda;

    if (row) {
        const T* const src = a + base;
#pragma unroll 1
        for (int K = 0; K * NB <= t; ++K) {
            T* const dst = S + trap_off<NP, NB>(K) + (t - K * NB);
            const int ld = NP - K * NB;
            const int top = min(NB - 1, t - K * NB);
#pragma unroll 1
            for (int c = h; c <= top; c += 2) copy_async(dst + c * ld, src + (K * NB + c) * step);
            if (K == 0) commit_copies();
        }
    }
    commit_copies();

    T r[NB];
    int fail = 0;
    const int steps = (n + NB - 1) / NB;

#pragma unroll 1
    for (int J = 0;; ++J) {
        const int j0 = J * NB;
        if (J == 0) wait_groups<1>();
        else if (J == 1) wait_groups<0>();
        if (J < 2) __syncwarp(); // the partner's copies, for both lanes
        {
            const T* const blk = S + trap_off<NP, NB>(J) + (t - j0);
#pragma unroll
            for (int c = 0; c < NB; ++c) {
                const int k = j0 + c;
                T v = from_real<T>(k == t ? R(1) : R(0));
                if (k <= t && row) {
                    const T y = blk[c * (NP - j0)];
                    v = k == t ? from_real<T>(re(y)) : y;
                }
                r[c] = h == 0 ? v : from_real<T>(R(0));
            }
        }
        if (t >= j0 && row) {
#pragma unroll 1
            for (int K = h; K < J; K += 2) {
                const int ld = NP - K * NB;
                const T* const col = S + trap_off<NP, NB>(K);
                const T* const own = col + (t - K * NB);
                const T* const top = col + (j0 - K * NB);
#pragma unroll
                for (int kk = 0; kk < NB; ++kk) {
                    const T x = own[kk * ld];
                    const pack<T>* const p = reinterpret_cast<const pack<T>*>(top + kk * ld);
#pragma unroll
                    for (int q = 0; q < NB / V; ++q) {
                        const pack<T> v = p[q];
#pragma unroll
                        for (int e = 0; e < V; ++e) r[q * V + e] = sub_mul_conj(r[q * V + e], x, v.v[e]);
                    }
                }
            }
        }
#pragma unroll
        for (int c = 0; c < NB; ++c) r[c] = r[c] + __shfl_xor_sync(0xffffffffu, r[c], 1);

        if (h == 0 && t >= j0 && t < j0 + NB) {
#pragma unroll
            for (int c = 0; c < NB; ++c) s_d[t - j0][c] = r[c];
        }
        __syncthreads();

        const int cols = min(NB, n - j0);
        T d[NB][NB];
#pragma unroll
        for (int i = 0; i < NB; ++i)
#pragma unroll
            for (int c = 0; c <= i; ++c) d[i][c] = s_d[i][c];
        R sc[NB], dg[NB];
#pragma unroll
        for (int c = 0; c < NB; ++c) {
            const R dv = re(d[c][c]);
            if (!(dv > R(0)) && fail == 0 && c < cols) fail = j0 + c + 1;
            R s, diag;
            pivot_scale<T>(dv, fail == 0, s, diag);
            sc[c] = s;
            dg[c] = fail == 0 ? diag : dv;
#pragma unroll
            for (int i = c + 1; i < NB; ++i) d[i][c] = scale(d[i][c], s);
#pragma unroll
            for (int i = c + 1; i < NB; ++i)
#pragma unroll
                for (int k = c + 1; k <= i; ++k) d[i][k] = sub_mul_conj(d[i][k], d[i][c], d[k][c]);
        }
        const int own = t - j0;
#pragma unroll
        for (int c = 0; c < NB; ++c) {
#pragma unroll
            for (int k = 0; k < c; ++k) r[c] = sub_mul_conj(r[c], r[k], d[c][k]);
            r[c] = c == own ? from_real<T>(dg[c]) : scale(r[c], sc[c]);
        }

        if (t >= j0) {
            T* const blk = S + trap_off<NP, NB>(J) + (t - j0);
#pragma unroll
            for (int c = 0; c < NB; ++c)
                if ((c & 1) == h) blk[c * (NP - j0)] = r[c];
            if (row && h == 0) store_step<T, NB, UPPER>(r, a, base, step, t, j0, n, fail, vec);
        }
        __syncthreads();
        if (fail != 0 || J + 1 >= steps) break;
    }
    wait_groups<0>();
    return fail;
}

template <typename T, int NP, int NB, bool UPPER>
__global__ void __launch_bounds__(2 * NP) potrf_cta_pairs(T* __restrict__ a, long long lda, long long stride, int n, int* __restrict__ info,
                                int vec) {
    const int fail = cta_factor_pairs<T, NP, NB, UPPER>(a, lda, stride, n, vec);
    if (threadIdx.x == 0) info[blockIdx.x] = fail;
}
