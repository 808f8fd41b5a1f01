// sweeps.cu: the triangular solves of a warp, shared by the warp tier
// (warp.cu: posv_warp, potrs_warp) and the one-block tier (cta.cu:
// posv_cta, potrs_cta). It is compiled after potrf.cu, whose scalar helpers
// and pack it uses, and before either file. A solve reads L through an
// accessor, L(i, k) = at(i, k) for i ≥ k: the warp tier's row-major tile
// (row_tile), the one-block tier's trapezoid of column blocks (cta.cu), so
// both tiers take the same steps and give the same bits for the same
// factor.

// row_tile is L in a warp's tile, row-major, row i at i·(NC + 1): strides
// of NC + 1 (odd) across lanes for L(row, k) and of 1 for L(k, row), so
// both sweeps read it without bank conflicts.
template <typename T, int NC> struct row_tile {
    const T* p;
    __device__ __forceinline__ T operator()(int i, int k) const { return p[i * (NC + 1) + k]; }
};

// group_bcast is lane src's v of the calling lane's group of G lanes (G =
// 32: the warp; 16: a half-warp), src counted within the group.
template <int G> __device__ __forceinline__ float group_bcast(float v, int src) {
    return __shfl_sync(0xffffffffu, v, src, G);
}
template <int G> __device__ __forceinline__ double group_bcast(double v, int src) {
    return __shfl_sync(0xffffffffu, v, src, G);
}
template <int G> __device__ __forceinline__ cfloat group_bcast(cfloat v, int src) {
    return cfloat{__shfl_sync(0xffffffffu, v.re, src, G), __shfl_sync(0xffffffffu, v.im, src, G)};
}
template <int G> __device__ __forceinline__ cdouble group_bcast(cdouble v, int src) {
    return cdouble{__shfl_sync(0xffffffffu, v.re, src, G), __shfl_sync(0xffffffffu, v.im, src, G)};
}

// warp_bcast is lane src's v, for every lane of the warp.
template <typename V> __device__ __forceinline__ V warp_bcast(V v, int src) { return group_bcast<32>(v, src); }

// group_take sets y to the W values x holds (as they stand, not scaled) on
// lane owner of the caller's group of G lanes, i the caller's lane there:
// by shuffle below 4 values or where they are not whole vectors, else
// through the group's buffer buf (the owner stores, a __syncwarp of the
// whole warp, every lane loads), where one vector load stands for four
// shuffles. [H200] shuffles at every width ran n = 48 with 16 right-hand
// sides in 1571 µs against 1207 through the buffer, n = 33 1173 against
// 865 (session23/, call 2, when the owner scaled the row first).
template <typename T, int W, int G>
__device__ __forceinline__ void group_take(T (&y)[W], const T (&x)[W], int owner, int i, T* buf) {
    constexpr int V = 16 / (int)sizeof(T);
    if constexpr (W < 4 || W % V != 0) {
#pragma unroll
        for (int j = 0; j < W; ++j) y[j] = group_bcast<G>(x[j], owner);
    } else {
        if (i == owner) {
#pragma unroll
            for (int j = 0; j < W; j += V) {
                pack<T> p;
#pragma unroll
                for (int e = 0; e < V; ++e) p.v[e] = x[j + e];
                *reinterpret_cast<pack<T>*>(buf + j) = p;
            }
        }
        __syncwarp();
#pragma unroll
        for (int j = 0; j < W; j += V) {
            const pack<T> p = *reinterpret_cast<const pack<T>*>(buf + j);
#pragma unroll
            for (int e = 0; e < V; ++e) y[j + e] = p.v[e];
        }
    }
}

// warp_sweeps solves L·Lᴴ·X = B for W right-hand sides held in registers:
// xa and xb are rows lane and lane + 32 of B on entry and of X on return,
// L(i, k) is at(i, k) for i ≥ k (an accessor such as row_tile; rows of
// at most 64, and n > 32: the first sweep steps rows 0…31 unconditionally),
// inva and invb are 1/L(row, row) of the lane's rows (0 for a row ≥ n),
// pub the warp's two buffers of 16 for group_take, used by step parity (a
// buffer is rewritten two steps after it was read, past the readers'
// __syncwarp of the step between).
//
// Step k of L·Y = B: every lane gets row k's values as they stand from
// their owner (lane k mod 32, group_take), and the rows after k take
// L(row, k)/L(k, k) times them off their own; each row is scaled by
// 1/L(row, row) once, after the sweep. Lᴴ·X = Y runs backwards with
// conj(L(k, row))/L(k, k) and the rows before k. So the scaling is two
// multiplies a step, on L, off the chain from one step to the next,
// instead of W on the owner's row in it. posv_warp, potrs_warp, posv_cta
// and potrs_cta all run this solve, so Potrs and Posv agree to the bit
// (TestPotrsCTAMatchesWarp, posv's TestPosv). Each sweep
// is split at row 32 so the owner's register (xa or xb) is known at
// compile time. Only real rows are stepped (k < n): a padding row's zero
// times an infinite Y would make NaNs where the real rows have numbers.
template <typename T, int W, typename L>
__device__ __forceinline__ void warp_sweeps(const L& at, int n, int lane, typename real_of<T>::type inva,
                                            typename real_of<T>::type invb, T (&xa)[W], T (&xb)[W], T* pub) {
    const int ib = lane + 32;
    const bool realb = ib < n;
    // A row that takes no part in a step subtracts zero times row k instead
    // of branching around its products: for finite values the same bits,
    // for a non-finite row k NaNs in rows whose X would be non-finite
    // anyway. [H200] 65,536 float systems, 1, 8, 16 right-hand sides
    // (potrf's TestPosvWarpTiming): n = 48 688, 827, 1011 µs, n = 64 1113,
    // 1379, 1514 (session25/, call 1), against 689, 886, 1118 and 1016,
    // 1400, 1874 with branches (session24/, call 4). Masking from 4
    // columns on only ran n = 64 in 1122, 1436, 1695 (session24/, call 5):
    // no better at one column and worse at 16.
    // L·Y = B, rows 0..31: lane > k for the first row, every real second row.
#pragma unroll 4
    for (int k = 0; k < 32; ++k) {
        const auto s = warp_bcast(inva, k);
        const T la = scale(at(lane, lane > k ? k : 0), s);
        const T lb = realb ? scale(at(ib, k), s) : from_real<T>(0);
        T y[W];
        group_take<T, W, 32>(y, xa, k, lane, pub + (k & 1) * 16);
        const T lm = lane > k ? la : from_real<T>(0);
#pragma unroll
        for (int j = 0; j < W; ++j) xa[j] = sub_mul(xa[j], lm, y[j]);
#pragma unroll
        for (int j = 0; j < W; ++j) xb[j] = sub_mul(xb[j], lb, y[j]); // lb is 0 on a padding row
    }
    // Rows 32..n-1: only second rows after k.
#pragma unroll 4
    for (int k = 32; k < n; ++k) {
        const auto s = warp_bcast(invb, k - 32);
        const T lb = realb ? scale(at(ib, k), s) : from_real<T>(0);
        T y[W];
        group_take<T, W, 32>(y, xb, k - 32, lane, pub + (k & 1) * 16);
        const T lm = ib > k ? lb : from_real<T>(0);
#pragma unroll
        for (int j = 0; j < W; ++j) xb[j] = sub_mul(xb[j], lm, y[j]);
    }
#pragma unroll
    for (int j = 0; j < W; ++j) {
        xa[j] = scale(xa[j], inva);
        xb[j] = scale(xb[j], invb);
    }
    // Lᴴ·X = Y, rows n-1..32: every first row, second rows before k. Its
    // buffers are the other way round (step k in buffer k + 1's), so its
    // first step does not rewrite what the forward sweep's last one read.
#pragma unroll 4
    for (int k = n - 1; k >= 32; --k) {
        const auto s = warp_bcast(invb, k - 32);
        const T la = scale(at(k, lane), s);
        const T lb = scale(at(k, ib < k ? ib : 0), s);
        T y[W];
        group_take<T, W, 32>(y, xb, k - 32, lane, pub + (~k & 1) * 16);
#pragma unroll
        for (int j = 0; j < W; ++j) xa[j] = sub_mul_conj(xa[j], y[j], la);
        const T lm = ib < k ? lb : from_real<T>(0);
#pragma unroll
        for (int j = 0; j < W; ++j) xb[j] = sub_mul_conj(xb[j], y[j], lm);
    }
    // Rows 31..0: first rows before k.
#pragma unroll 4
    for (int k = 31; k >= 0; --k) {
        const auto s = warp_bcast(inva, k);
        const T la = scale(at(k, lane < k ? lane : 0), s);
        T y[W];
        group_take<T, W, 32>(y, xa, k, lane, pub + (~k & 1) * 16);
        const T lm = lane < k ? la : from_real<T>(0);
#pragma unroll
        for (int j = 0; j < W; ++j) xa[j] = sub_mul_conj(xa[j], y[j], lm);
    }
#pragma unroll
    for (int j = 0; j < W; ++j) {
        xa[j] = scale(xa[j], inva);
        xb[j] = scale(xb[j], invb);
    }
}

// warp_chunk loads W right-hand sides from column c0 of B, solves them with
// warp_sweeps and stores them back.
template <typename T, int W, typename L>
__device__ __forceinline__ void warp_chunk(const L& at, int n, int lane, typename real_of<T>::type inva,
                                           typename real_of<T>::type invb, T* bm, long long ldb, int c0, T* pub) {
    const int ib = lane + 32;
    const bool realb = ib < n;
    T xa[W], xb[W];
#pragma unroll
    for (int j = 0; j < W; ++j) {
        const long long off = (long long)(c0 + j) * ldb;
        xa[j] = bm[lane + off];
        xb[j] = realb ? bm[ib + off] : from_real<T>(0);
    }
    warp_sweeps<T, W>(at, n, lane, inva, invb, xa, xb, pub);
#pragma unroll
    for (int j = 0; j < W; ++j) {
        const long long off = (long long)(c0 + j) * ldb;
        bm[lane + off] = xa[j];
        if (realb) bm[ib + off] = xb[j];
    }
}

// warp_tail solves columns c0…c1−1 (fewer than WMAX, WMAX ≤ 16) in chunks
// of 8, 4, 2 and 1, so no chunk carries unused columns.
template <typename T, int WMAX, typename L>
__device__ __forceinline__ void warp_tail(const L& at, int n, int lane, typename real_of<T>::type inva,
                                          typename real_of<T>::type invb, T* bm, long long ldb, int c0, int c1, T* pub) {
    if constexpr (WMAX > 8)
        if (c0 + 8 <= c1) warp_chunk<T, 8>(at, n, lane, inva, invb, bm, ldb, c0, pub), c0 += 8;
    if (c0 + 4 <= c1) warp_chunk<T, 4>(at, n, lane, inva, invb, bm, ldb, c0, pub), c0 += 4;
    if (c0 + 2 <= c1) warp_chunk<T, 2>(at, n, lane, inva, invb, bm, ldb, c0, pub), c0 += 2;
    if (c0 < c1) warp_chunk<T, 1>(at, n, lane, inva, invb, bm, ldb, c0, pub);
}
