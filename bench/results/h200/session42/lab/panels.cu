// Session 42 lab 3 (appended to warp.cu by lab/panels.py): potrf_panels, potrf_split's work left-looking by panels
// of 16 columns, so a lane holds 32 values (its two rows' part of the panel) instead of 64, and the registers may
// allow 12 warps a multiprocessor (at 180, potrf_split gets 8). Element (i, k) still takes L(i, j)·L(k, j) for
// j = 0, 1, … in order, with the same fused products: the bits must be potrf_split's.

// panel_steps is split_steps for a panel whose pivot rows are the lanes o…o+15 of x (o = c0 − base, x holding rows
// lane + base): the owner of column c0 + j is lane o + j, and the column buffer is read at o + k.
template <typename T, int K, bool TWO, int O>
__device__ __forceinline__ void panel_steps(T (&x)[K], T (&y)[K], int lane, int c0, T* col0, T* col1, int& fail) {
    using R = typename real_of<T>::type;
    constexpr int V = 16 / (int)sizeof(T);
#pragma unroll
    for (int j = 0; j < K; ++j) {
        const R d = __shfl_sync(0xffffffffu, re(x[j]), O + j);
        if (!rsqrt_fast_takes(d) && fail == 0) fail = c0 + j + 1;
        const R s = fail == 0 ? rsqrt_fast(d) : R(0);
        const R diag = isinf(d) ? d : d * s;
        const T lx = lane == O + j ? from_real<T>(diag) : scale(x[j], s);
        x[j] = fail == c0 + j + 1 && lane == O + j ? from_real<T>(d) : lx;
        T ly = from_real<T>(R(0));
        if constexpr (TWO) {
            ly = scale(y[j], s);
            y[j] = ly;
        }
        if (j == K - 1) break;
        T* const col = (j & 1) ? col1 : col0;
        col[lane] = lx;
        __syncwarp();
#pragma unroll
        for (int kb = 0; kb < K; kb += V) {
            if (kb + V <= j + 1) continue;
            const pack<T> p = *reinterpret_cast<const pack<T>*>(col + O + kb);
#pragma unroll
            for (int e = 0; e < V; ++e) {
                const int k = kb + e;
                if (k > j) {
                    x[k] = sub_mul_conj(x[k], lx, p.v[e]);
                    if constexpr (TWO) y[k] = sub_mul_conj(y[k], ly, p.v[e]);
                }
            }
        }
    }
}

// split_panel factors columns C0…C0+15 (those below NC): the lane's rows of the panel from the tile, the products
// of the finished columns 0…C0−1 subtracted (left-looking: the rows' own L from the tile, the panel rows' L as
// broadcasts), the panel's steps, the rows back into the tile.
template <typename T, int NC, int C0>
__device__ __forceinline__ void split_panel(T* tile, int lane, int n, T* col0, T* col1, int& fail) {
    if constexpr (C0 < NC) {
        constexpr int K = 16;
        constexpr bool TOP = C0 < 32; // rows lane (x) still have columns here
        const int ib = lane + 32;
        T x[K], y[K];
        if constexpr (TOP) split_row<T, K>(x, tile, lane, C0, n);
        split_row<T, K>(y, tile, ib, C0, n);
        const T* const own_x = tile + tri_at(lane, 0);
        const T* const own_y = tile + tri_at(ib < NC ? ib : 0, 0);
#pragma unroll 4
        for (int j = 0; j < C0; ++j) {
            const T lx = TOP ? own_x[j] : from_real<T>(0);
            const T ly = ib < NC ? own_y[j] : from_real<T>(0);
#pragma unroll
            for (int c = 0; c < K; ++c) {
                if (C0 + c >= NC) break;
                const T p = tile[tri_at(C0 + c, j)];
                if constexpr (TOP) x[c] = sub_mul_conj(x[c], lx, p);
                y[c] = sub_mul_conj(y[c], ly, p);
            }
        }
        if constexpr (TOP) {
            panel_steps<T, K, true, C0>(x, y, lane, C0, col0, col1, fail);
        } else {
            T none[K];
            panel_steps<T, K, false, C0 - 32>(y, none, lane, C0, col0, col1, fail);
        }
        __syncwarp(); // every lane has read its rows and the panel rows before they are rewritten
        if constexpr (TOP) split_put<T, K>(x, tile, lane, C0);
        if (ib < NC) split_put<T, K>(y, tile, ib, C0);
        __syncwarp();
    }
}

template <typename T, int NC, bool UPPER>
__global__ void potrf_panels(T* __restrict__ a, long long lda, long long stride, int n, int count, int* __restrict__ info) {
    static_assert(NC > 32 && NC <= 64 && NC % 4 == 0, "NC is a multiple of 4 in (32, 64]");
    using R = typename real_of<T>::type;
    __shared__ pack<T> column[2][kWarpTier][32 * sizeof(T) / 16];
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    const long long m = (long long)blockIdx.x * kWarpTier + warp;
    if (m >= count) return;
    T* const am = a + m * stride;
    T* const tile = split_tile<T, NC>(warp);
    T* const col0 = reinterpret_cast<T*>(&column[0][warp][0]);
    T* const col1 = reinterpret_cast<T*>(&column[1][warp][0]);
    split_fill<T, UPPER>(tile, am, lda, n, lane);
    __syncwarp();
    int fail = 0;
    split_panel<T, NC, 0>(tile, lane, n, col0, col1, fail);
    if (fail == 0) split_panel<T, NC, 16>(tile, lane, n, col0, col1, fail);
    if (fail == 0) split_panel<T, NC, 32>(tile, lane, n, col0, col1, fail);
    if (fail == 0) split_panel<T, NC, 48>(tile, lane, n, col0, col1, fail);
    const int last = fail ? fail - 1 : NC;
    long long at = 0;
#pragma unroll 1
    for (int c = 0; c < n; ++c) {
        if constexpr (UPPER) {
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int r = lane + 32 * h;
                if (r <= c && (r < last || (r == c && c == fail - 1))) am[at + r] = tile[tri_at(c, r)];
            }
        } else {
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int r = c + lane + 32 * h;
                if (r < n && (c < last || (r == c && c == fail - 1))) am[at + r] = tile[tri_at(r, c)];
            }
        }
        at = opaque(at + lda);
    }
    if (fail != 0) {
        __syncwarp();
        T* const again = a + opaque((long long)blockIdx.x * kWarpTier + threadIdx.x / 32) * stride;
        if (re(again[(long long)(fail - 1) * (lda + 1)]) > R(0))
            fail = finish_in_memory<T, UPPER, 32>(again, lda, n, fail - 1, lane, 0xffffffffu);
    }
    if (lane == 0) info[m] = fail;
}
