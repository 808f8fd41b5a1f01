// Session 43 lab 1: potrs_group, potrs_split with G warps per matrix sharing one packed tile (split_fill's layout),
// warp w solving its share of B's columns with tri_solve's chunks, so each column of X keeps its bits.
template <typename T, bool UPPER>
__device__ __forceinline__ void group_fill(T* tile, const T* am, long long lda, int n, int lane, int first, int step) {
#pragma unroll 1
    for (int c = first; c < n; c += step) {
        const long long at = (long long)c * lda;
        if constexpr (UPPER) {
            if (lane <= c) copy_async(tile + tri_at(c, lane), am + (at + lane));
            if (lane + 32 <= c) copy_async(tile + tri_at(c, lane + 32), am + (at + lane + 32));
        } else {
            const int r = c + lane;
            if (r < n) copy_async(tile + tri_at(r, c), am + (at + r));
            if (r + 32 < n) copy_async(tile + tri_at(r + 32, c), am + (at + r + 32));
        }
    }
    wait_copies();
}

template <typename T, int NC, bool UPPER, int G>
__global__ void potrs_group(const T* __restrict__ a, long long lda, long long stride, int n, T* __restrict__ b,
                            long long ldb, long long bstride, int nrhs, int count, const int* __restrict__ info) {
    using R = typename real_of<T>::type;
    __shared__ __align__(16) T pubs[G][2 * 16];
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    const long long m = blockIdx.x;
    if (info != nullptr && info[m] != 0) return; // the whole block
    T* const tile = reinterpret_cast<T*>(potrf_tile);
    group_fill<T, UPPER>(tile, a + m * stride, lda, n, lane, warp, G);
    __syncthreads();
    const int per = (nrhs + G - 1) / G;
    const int c0 = warp * per, c1 = min(nrhs, c0 + per);
    if (c0 >= c1) return;
    T* const pub = pubs[warp];
    const tri_tile<T> at{tile};
    const int ib = lane + 32;
    const R inva = R(1) / re(tile[tri_at(lane, lane)]);
    const R invb = ib < n ? R(1) / re(tile[tri_at(ib, ib)]) : R(0);
    T* const bm = b + m * bstride;
    int c = c0;
#pragma unroll 1
    for (; c + 16 <= c1; c += 16) warp_chunk<T, 16>(at, n, lane, inva, invb, bm, ldb, c, pub);
    warp_tail<T, 16>(at, n, lane, inva, invb, bm, ldb, c, c1, pub);
}
