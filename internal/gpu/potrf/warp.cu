// warp.cu: the warp tier ("native:warp"), one matrix per warp for
// 32 < n ≤ 64, two rows of L per lane in registers (warp.go says where it
// sits among the tiers; potrf.cu's comment gives the method it extends).
//
// Shape. Lane i holds row i in ra[0..31] (a row above 32 has no column past
// 31 in the lower triangle) and row i + 32 in rb[0..NC-1], NC = n rounded
// up to a multiple of 4: 32 + NC values, 96 at n = 64: float32 only (NVRTC
// 11.8, sm_90: 150–254 registers, no spills, once the stores stopped
// holding NC offsets live; float64 and complex64 spilled 60–850 bytes at
// NC ≥ 52). Rows n..NC-1 hold the identity, as in potrf_reg, so the body tests
// neither the lane nor n. Every loop is unrolled; the registers are indexed
// only by constants.
//
// Why a warp. The CTA tier at n = 48…64 runs one block of 64 threads per
// matrix with a block-wide barrier per column. Here a step's only barrier
// is __syncwarp, as in potrf_reg. [H200] 65,536 float matrices, Lower:
// n = 48 468 µs against the CTA tier's 711 (61 % of copy bandwidth against
// 40 %), n = 64 899 against 1088 (56 % against 47 %). Upper, through the
// tile, lost from n = 48 (n = 64: 1424 against 1117;
// bench/results/h200/session8/warp-warp-timing.log); with aligned columns
// it now moves them in place (potrf.cu's upper_row_load): n = 64, 65,536
// matrices 1144 against 1117, 1024 matrices 30.4 against 27.4 in one call
// and 25.3 against 26.7 in 16 back to back (session14/); the tables choose.
// 193 registers (NVRTC 13, n = 64): 8 warps per SM, which ncu shows as the
// limit (issue slots 48 % busy); capping them with __launch_bounds__ spilled
// and was no faster (session8/warp-launch-bounds-*.log).
//
// Step j: the pivot's owner is lane j mod 32 (ra for j < 32, rb after);
// one shuffle broadcasts it, each lane scales its own entries of column j,
// keeps them, publishes them in the warp's shared column (64
// entries, double-buffered by step parity as in potrf_reg), and after the
// __syncwarp subtracts L(i, j)·conj(L(k, j)) from its entries k > j: ra
// only while j < 31 (its columns stop at 31), rb always.
//
// Failure, padding, the other triangle: exactly as potrf_reg (potrf.cu).
//
// posv_warp is the same factorization followed by the two triangular
// solves in the same warp (warp_solve), so a float system of order 33…64
// is read and written once, as posv.cu's kernels do up to 32.

// Warps per block; warp.go's launcher uses the same value. Two warps keep
// the Upper tile at 33.3 KB (two float matrices of 64 rows of 65).
enum { kWarpTier = 2 };

template <typename T, int NC> __device__ __forceinline__ T* warp_tile(int warp) {
    return reinterpret_cast<T*>(potrf_tile) + warp * (NC * (NC + 1));
}

// warp_publish scales the owner's NR values of row k by 1/L(k, k) and puts
// them where the warp reads them (cta.cu's publish).
template <typename T, int NR>
__device__ __forceinline__ void warp_publish(T (&x)[NR], typename real_of<T>::type s, T* pub) {
#pragma unroll
    for (int j = 0; j < NR; ++j) {
        x[j] = scale(x[j], s);
        pub[j] = x[j];
    }
}

template <typename T, int NC, int NR>
__device__ __forceinline__ void warp_solve(const T* tile, T (*pub)[NR], int n, int lane, T* bm, long long ldb, int nrhs);

// warp_body is potrf_warp's whole work and posv_warp's factorization: NC,
// columns held by the second row, a multiple of 4 in (32, 64]; UPPER, the
// triangle that holds A. With NR > 0 (posv_warp, Lower only) it goes on to
// solve A·X = B with warp_solve, NR right-hand sides at a time, unless the
// matrix failed; with NR = 0 the solve is not compiled and b is not used.
template <typename T, int NC, int NR, bool UPPER, bool VEC>
__device__ __forceinline__ void warp_body(T* __restrict__ a, long long lda, long long stride, int n, int count,
                                          int* __restrict__ info, T* __restrict__ b, long long ldb, long long bstride,
                                          int nrhs) {
    static_assert(NC > 32 && NC <= 64 && NC % 4 == 0, "NC is a multiple of 4 in (32, 64]");
    using R = typename real_of<T>::type;
    constexpr int V = 16 / (int)sizeof(T); // elements per 16-byte vector: 4 or 2
    static_assert(32 % V == 0 && NC % V == 0, "whole vectors");

    __shared__ pack<T> column[2][kWarpTier][64 / V];

    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    const long long m = (long long)blockIdx.x * kWarpTier + warp;
    if (m >= count) return; // the whole warp: the kernel has no block-wide barrier
    const int ib = lane + 32;      // the second row
    const bool realb = ib < n;     // the first row, lane < 32 < n, is always real
    const long long base = m * stride;

    static_assert(UPPER || !VEC, "VEC is for Upper");
    T ra[32], rb[NC];
    if constexpr (UPPER) {
        if constexpr (VEC) {
            // Columns lane and ib of U in place (potrf.cu's upper_row_load).
            upper_row_load<T, 32>(ra, a + (base + (long long)lane * lda), lane, true);
            upper_row_load<T, NC>(rb, a + (base + (long long)ib * lda), ib, realb);
        } else {
            // Column c of U, rows 0..c, into tile row c (consecutive addresses
            // per lane), then each lane reads its two rows (potrf.cu's upper_tile).
            T* const tile = warp_tile<T, NC>(warp);
#pragma unroll
            for (int c = 0; c < NC; ++c) {
                if (c < n && lane <= c) tile[c * (NC + 1) + lane] = a[base + lane + c * lda];
                if (c < n && ib <= c) tile[c * (NC + 1) + ib] = a[base + ib + c * lda];
            }
            __syncwarp();
#pragma unroll
            for (int c = 0; c < 32; ++c) {
                T v = from_real<T>(c == lane ? R(1) : R(0));
                if (c <= lane) {
                    const T x = tile[lane * (NC + 1) + c]; // U(c, lane)
                    v = c == lane ? from_real<T>(re(x)) : conj_(x);
                }
                ra[c] = v;
            }
#pragma unroll
            for (int c = 0; c < NC; ++c) {
                T v = from_real<T>(c == ib ? R(1) : R(0));
                if (realb && c <= ib) {
                    const T x = tile[ib * (NC + 1) + c];
                    v = c == ib ? from_real<T>(re(x)) : conj_(x);
                }
                rb[c] = v;
            }
        }
    } else {
#pragma unroll
        for (int c = 0; c < 32; ++c) {
            T v = from_real<T>(c == lane ? R(1) : R(0));
            if (c <= lane) {
                const T x = a[base + lane + c * lda];
                v = c == lane ? from_real<T>(re(x)) : x;
            }
            ra[c] = v;
        }
#pragma unroll
        for (int c = 0; c < NC; ++c) {
            T v = from_real<T>(c == ib ? R(1) : R(0));
            if (realb && c <= ib) {
                const T x = a[base + ib + c * lda];
                v = c == ib ? from_real<T>(re(x)) : x;
            }
            rb[c] = v;
        }
    }

    T* const outa = a + opaque(base + lane);
    T* const outb = a + opaque(base + ib);
    T* const col0 = reinterpret_cast<T*>(&column[0][warp][0]);
    T* const col1 = reinterpret_cast<T*>(&column[1][warp][0]);
    int fail = 0; // j+1 of the first pivot that is not > 0

#pragma unroll
    for (int j = 0; j < NC; ++j) {
        const R d = j < 32 ? __shfl_sync(0xffffffffu, re(ra[j < 32 ? j : 0]), j % 32)
                           : __shfl_sync(0xffffffffu, re(rb[j]), j % 32);
        if (!(d > R(0)) && fail == 0) fail = j + 1; // NaN fails too; padding pivots are 1
        const R s = fail == 0 ? rsqrt_(d) : R(0);
        const R diag = isinf(d) ? d : d * s;
        const T lb = ib == j ? from_real<T>(diag) : scale(rb[j], s);
        T la = from_real<T>(R(0));
        if (j < 32) la = lane == j ? from_real<T>(diag) : scale(ra[j < 32 ? j : 0], s);

        // Column j of the rows is final: L(row, j), or on the failing
        // pivot's owner the pivot itself, as potf2 leaves it. Both
        // triangles store after the loop: stores inside it (potrf_reg's
        // Lower) cost 32 registers here (NVRTC 11.8, float NC = 64: 200).
        if (j < 32) ra[j < 32 ? j : 0] = fail == j + 1 && lane == j ? from_real<T>(d) : la;
        rb[j] = fail == j + 1 && ib == j ? from_real<T>(d) : lb;

        T* const col = (j & 1) ? col1 : col0;
        if (j < 31) col[lane] = la; // read back only for columns k < 32 of ra
        col[ib] = lb;
        __syncwarp();

        if (j < 31) {
#pragma unroll
            for (int kb = 0; kb < 32; kb += V) {
                if (kb + V <= j + 1) continue; // constant once j is
                const pack<T> p = *reinterpret_cast<const pack<T>*>(col + kb);
#pragma unroll
                for (int e = 0; e < V; ++e) {
                    const int k = kb + e;
                    if (k > j) ra[k] = sub_mul_conj(ra[k], la, p.v[e]);
                }
            }
        }
#pragma unroll
        for (int kb = 0; kb < NC; kb += V) {
            if (kb + V <= j + 1) continue;
            // At most 16 elements of the column in flight: left alone, the
            // compiler loads all of it ahead of the products (64 values
            // beside the 96 of the rows).
            if (kb % 16 == 0) asm volatile("" ::: "memory");
            const pack<T> p = *reinterpret_cast<const pack<T>*>(col + kb);
#pragma unroll
            for (int e = 0; e < V; ++e) {
                const int k = kb + e;
                if (k > j) rb[k] = sub_mul_conj(rb[k], lb, p.v[e]);
            }
        }
    }

    // Column c of L (row c of U) is final when c < fail − 1 (every column
    // when fail = 0); the failing pivot is the one other element written
    // (potrf_reg's rule). The offsets c·lda are stepped through an opaque
    // value: computed as c·lda the compiler kept them all live (float
    // NC = 64 Upper: 243 registers, against 168).
    const int last = fail ? fail - 1 : NC;
    if constexpr (!UPPER) {
        long long at = 0;
#pragma unroll
        for (int c = 0; c < NC; ++c) { // column c of L, rows ≥ c, two per lane
            if (c < 32 && lane >= c && (c < last || (lane == c && c == fail - 1))) outa[at] = ra[c < 32 ? c : 0];
            if (realb && ib >= c && (c < last || (ib == c && c == fail - 1))) outb[at] = rb[c];
            at = opaque(at + lda);
        }
    } else if constexpr (VEC) {
        upper_row_store<T, 32>(ra, a + opaque(base + (long long)lane * lda), lane, true, fail);
        upper_row_store<T, NC>(rb, a + opaque(base + (long long)ib * lda), ib, realb, fail);
    } else {
        // Rows of L back to columns of U through the tile.
        T* const tile = warp_tile<T, NC>(warp);
#pragma unroll
        for (int c = 0; c < 32; ++c)
            if (c <= lane) tile[lane * (NC + 1) + c] = c == lane && lane == fail - 1 ? ra[c] : conj_(ra[c]);
#pragma unroll
        for (int c = 0; c < NC; ++c)
            if (ib < NC && c <= ib) tile[ib * (NC + 1) + c] = c == ib && ib == fail - 1 ? rb[c] : conj_(rb[c]);
        __syncwarp();
        long long at = 0;
#pragma unroll
        for (int c = 0; c < NC; ++c) { // column c of U: rows 0..c, two per lane
            if (c < n && lane <= c && (lane < last || (lane == c && c == fail - 1)))
                outa[at] = tile[c * (NC + 1) + lane];
            if (c < n && ib <= c && (ib < last || (ib == c && c == fail - 1)))
                outb[at] = tile[c * (NC + 1) + ib];
            at = opaque(at + lda);
        }
    }

    if (lane == 0) info[m] = fail;

    if constexpr (NR > 0) {
        static_assert(!UPPER, "posv_warp is Lower only");
        __shared__ T pub[kWarpTier][2][NR > 0 ? NR : 1];
        if (fail != 0) return; // uniform over the warp: B is neither read nor written
        T* const tile = warp_tile<T, NC>(warp);
#pragma unroll
        for (int c = 0; c < 32; ++c)
            if (c <= lane) tile[lane * (NC + 1) + c] = ra[c];
#pragma unroll
        for (int c = 0; c < NC; ++c)
            if (ib < NC && c <= ib) tile[ib * (NC + 1) + c] = rb[c];
        __syncwarp();
        warp_solve<T, NC, NR>(tile, pub[warp], n, lane, b + m * bstride, ldb, nrhs);
    }
}

// potrf_warp factors one matrix per warp (warp_body).
template <typename T, int NC, bool UPPER, bool VEC>
__global__ void potrf_warp(T* __restrict__ a, long long lda, long long stride, int n, int count, int* __restrict__ info) {
    warp_body<T, NC, 0, UPPER, VEC>(a, lda, stride, n, count, info, nullptr, 0, 0, 0);
}

// posv_warp solves A·X = B, A in its lower triangle, for one matrix per
// warp: the factorization exactly as potrf_warp's (A gets the same bits,
// info the same value), then, unless it failed, the rows of L into the
// warp's tile (dynamic shared memory, warpTileBytes) and warp_solve, NR
// right-hand sides at a time. B is n×nrhs column-major with leading
// dimension ldb, matrix m at m·bstride. Lower only: with Upper's tile
// staging, n = 64 spilled about 300 bytes at NR = 8 and 16 (NVRTC 11.8,
// sm_90), and Lower spilled 168 bytes at NR = 16, none at 8.
template <typename T, int NC, int NR>
__global__ void posv_warp(T* __restrict__ a, long long lda, long long stride, int n, T* __restrict__ b, long long ldb,
                          long long bstride, int nrhs, int count, int* __restrict__ info) {
    warp_body<T, NC, NR, false, false>(a, lda, stride, n, count, info, b, ldb, bstride, nrhs);
}

// warp_solve overwrites B with the solution of L·Lᴴ·X = B for the warp's
// matrix, row i of L in row i of the warp's tile, B n×nrhs column-major at
// bm.
//
// Lane i holds rows i and i + 32 of NR right-hand sides at a time, as it
// held those rows of L. Step k of L·Y = B: the owner of row k scales it by
// 1/L(k, k) and publishes it in pub[k & 1]; after a __syncwarp every later
// row takes L(row, k) times it off its own. Lᴴ·X = Y runs the same steps
// backwards with conj(L(k, row)). These are cta_solve's operations in its
// order, with 1/L(k, k) formed as it forms it, so X has the bits potrs_cta
// gives for the same factor (Potrs above n = 32 is potrs_cta). A buffer is
// rewritten two steps after it was read, past the reader's __syncwarp of the
// step between; where the backward sweep starts on the forward sweep's last
// buffer, that last forward step has no readers (no row is after n − 1).
// Reads of the tile are conflict-free: L(row, k) strides by NC + 1 (odd)
// across lanes, L(k, row) by 1.
template <typename T, int NC, int NR>
__device__ __forceinline__ void warp_solve(const T* tile, T (*pub)[NR], int n, int lane, T* bm, long long ldb, int nrhs) {
    using R = typename real_of<T>::type;
    const auto at = [&](int i, int k) { return tile[i * (NC + 1) + k]; }; // L(i, k)
    const int ib = lane + 32;
    const bool realb = ib < n;
    const R inva = R(1) / re(at(lane, lane));
    const R invb = realb ? R(1) / re(at(ib, ib)) : R(0);
#pragma unroll 1
    for (int c0 = 0; c0 < nrhs; c0 += NR) {
        const int cols = min(NR, nrhs - c0);
        T xa[NR], xb[NR];
#pragma unroll
        for (int j = 0; j < NR; ++j) {
            const long long off = (long long)(c0 + j) * ldb;
            xa[j] = j < cols ? bm[lane + off] : from_real<T>(R(0));
            xb[j] = j < cols && realb ? bm[ib + off] : from_real<T>(R(0));
        }
        // L·Y = B.
#pragma unroll 1
        for (int k = 0; k < n; ++k) {
            T* const p = pub[k & 1];
            if (lane == k) warp_publish<T, NR>(xa, inva, p);
            if (ib == k) warp_publish<T, NR>(xb, invb, p);
            __syncwarp();
            if (lane > k) {
                const T l = at(lane, k);
#pragma unroll
                for (int j = 0; j < NR; ++j) xa[j] = sub_mul(xa[j], l, p[j]);
            }
            if (realb && ib > k) {
                const T l = at(ib, k);
#pragma unroll
                for (int j = 0; j < NR; ++j) xb[j] = sub_mul(xb[j], l, p[j]);
            }
        }
        // Lᴴ·X = Y: X(row) −= conj(L(k, row))·X(k) for row < k.
#pragma unroll 1
        for (int k = n - 1; k >= 0; --k) {
            T* const p = pub[k & 1];
            if (lane == k) warp_publish<T, NR>(xa, inva, p);
            if (ib == k) warp_publish<T, NR>(xb, invb, p);
            __syncwarp();
            if (lane < k) {
                const T l = at(k, lane);
#pragma unroll
                for (int j = 0; j < NR; ++j) xa[j] = sub_mul_conj(xa[j], p[j], l);
            }
            if (realb && ib < k) {
                const T l = at(k, ib);
#pragma unroll
                for (int j = 0; j < NR; ++j) xb[j] = sub_mul_conj(xb[j], p[j], l);
            }
        }
#pragma unroll
        for (int j = 0; j < NR; ++j) {
            const long long off = (long long)(c0 + j) * ldb;
            if (j < cols) bm[lane + off] = xa[j];
            if (j < cols && realb) bm[ib + off] = xb[j];
        }
    }
}
