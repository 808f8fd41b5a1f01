// potrf.cu: register-resident batched Cholesky for small orders, A = L·Lᴴ
// (Lower) or A = Uᴴ·U (Upper), in place, with LAPACK's per-matrix info.
//
// Shape. One matrix per group of N lanes (N = 4, 8, 16 or 32), 32/N matrices
// per warp, 128 threads per block. Lane i keeps row i of L in a register
// array r[0..NC-1], NC = n rounded up to a multiple of 4 (≤ N); for Upper,
// row i of Uᴴ, which is column i of U conjugated: moved in place as 16-byte
// vectors when the columns are 16-byte aligned (upper_row_load), else
// staged through shared memory both ways (upper_tile).
// Rows n..NC-1 hold the identity and r[k] for k > i starts at zero, so the
// body needs no tests on the lane or on n: the padding pivots
// are exactly 1, the padding entries of L exactly 0, and the values computed
// outside the triangle stay finite and are never stored. Every loop over
// the row is unrolled, so r is indexed only by constants.
// Measured basis (kernel-lessons §1): row-per-lane register kernels with
// identity padding and 32/N matrices per warp ([4090] tiny getrf, [B200]
// n = 32 Cholesky: 31.7 µs against 113 µs for cuSOLVER's cholesky_ex); a row
// sized by its own column bucket rather than by N ([4090]: 1.40× float,
// 2.32× complex float at n = 17).
//
// Algorithm: right-looking, column by column. Step j broadcasts the pivot
// d = A(j,j) with one shuffle; each lane scales its own A(i,j) by s = rsqrt(d)
// and, for Lower with rows over 64 bytes, stores it (column j of L is
// final: it goes to memory at once; otherwise r[j] keeps it and the row or
// Upper's tile is stored after the loop), the
// group publishes the scaled column in a warp-scoped shared buffer, and each
// lane subtracts L(i,j)·conj(L(k,j)) from its A(i,k), k > j, reading the
// column as 16-byte vectors; k = j+1 comes first, so the next pivot is ready
// while the rest of the update runs.
//  - Shared column instead of shuffles (§11): at n = 32 the 528 shuffles per
//    thread saturated the MIO pipe; a double-buffered warp-scoped column read
//    as 16-byte vectors was 17.8 % faster ([B200]), 1.45× for float tiny
//    getrf ([4090]). Double-buffering by step parity needs one __syncwarp per
//    step: a buffer is rewritten two steps later, after every lane has passed
//    the barrier that follows its last read of it.
//  - The owner scales its element (§9): one multiply, not one per reader.
//  - rsqrt instead of sqrt and a divide on the critical path (§9: −23.5 % on
//    the B200 diagonal kernel). rsqrtf errs by at most 2 ulp (about 2.4e-7
//    relative), far inside ‖A − L·Lᴴ‖₁ ≤ 20·n·eps·‖A‖₁ (2.4e-6·n); double's
//    rsqrt by 1 ulp. L(j,j) = d·rsqrt(d), except that d = +Inf gives +Inf, as
//    sqrt would (LAPACK's answer), not Inf·0 = NaN.
//  - The rsqrt is rsqrt_fast (scalar.cuh): for a float, the bare
//    approximation, rsqrtf's bits on normal floats. A positive pivot below
//    the smallest normal stops the loop as a failure does, and
//    finish_in_memory factors the rest of that matrix with rsqrtf, to the
//    bits the loop would have given. [H200] 65,536 float matrices, Lower:
//    n = 32 174.7 µs against 193.2 (74 % of copy bandwidth against 67 %),
//    n = 16 (262,144) 169.0 against 174.1 (session28/, calls 1 and 4).
//  - The rsqrt is formed whatever the failure test gives (pivot_rsqrt): as
//    fail == 0 ? rsqrt : 0 it was predicated on the test, on the pivot's
//    chain. [H100] float Upper n = 32, two turns: the suite's 4,096
//    matrices 17.89, 17.79 → 17.60, 17.65 µs; 65,536 173.9, 173.8 → 171.3,
//    171.2 (session70/, call 1); float64 and complex at n = 32, 16,384
//    matrices, 0.7–4.1 % faster, except float64 Lower, which keeps the
//    predicated form (eager_pivots below; session71/, calls 2 and 4). A
//    loop with no failure state at all, the failing pivot found again after
//    it, was 10 % slower (95 registers against 71; session70/, plain.patch).
//
// Failure. info = j+1 for the first pivot that is not > 0 (≤ 0 or NaN); from
// then on the scale is 0, so the failed matrix stops changing (and one of
// finite values stays finite). Columns 0..j-1 of L (rows of U) go to memory
// and A(j,j) receives the failing pivot, as LAPACK's potf2 leaves them;
// nothing else of the triangle is written. A failing group keeps executing
// the same instructions as its neighbours (the shuffle and the barrier are
// warp-wide), so it cannot hang or disturb them.
//
// The strict other triangle, the rows beyond n and the gaps between matrices
// are never read or written.

// Sixteen bytes of the shared column, loaded as one vector.
template <typename T> struct alignas(16) pack {
    T v[16 / sizeof(T)];
};

// Threads per block; the Go launcher uses the same value. The kernel has no
// __launch_bounds__: with it (maxntid 128) NVRTC 11.8's ptxas chose to spill
// 8 to 64 bytes in 7 of the 64 instantiations at 48 to 96 registers, far
// below its limit; without it none spills (kernel-lessons §7: read the
// registers and local bytes of every variant).
enum { kThreads = 128 };

// opaque is the scalar prelude's. The store addresses are built from an
// opaque copy of the row offset: otherwise the compiler reuses the NC
// 64-bit element addresses of the loads for the stores and keeps them live
// through the whole factorization (NVRTC 11.8, NC = 32, Lower: float 154
// instead of 94 registers, double 170 instead of 106). And for a pointer:
// potrf_reg steps through a matrix's columns as p = opaque(p + lda) in its
// copies in and its stores after the loop, and each lane's run to one end
// it computes once (cend), where each column formed c·lda afresh (a 64-bit
// multiply) and tested potf2's rule in full (Lower's stores inside the loop
// keep j·lda: stepped there, the float kernel at n = 32 took a 160 B stack
// frame): about 20 instructions a column's store, and the copies in and out
// more than half of the float Upper kernel at n = 32 (2,848 instructions a
// warp under NVRTC 13, now 2,128). The same bits; [H100] µs, before → after
// (bench/results/h200/session63/, call 3's lab, L2 flushed): float Upper
// n = 32 at 4,096 matrices 21.89 → 19.42 and at 65,536 221.7 → 162.6,
// n = 20 and 24 at 65,536 22 % faster, Lower n = 32 at 4,096 19.65 → 18.30
// and n = 16 46.6 → 40.2; double Upper n = 32 at 16,384 93.1 → 81.0,
// complex float 125.6 → 111.0; double Upper n = 20 46.9 → 47.2 and float
// Upper in place (not changed) within 1 %. Through the cholesky-gpumode
// suite, float32 Upper n = 32 at 4,096 matrices: 20.24, 20.21 → 17.59,
// 17.83.

// Upper staging (dynamic shared memory, upperTileBytes in potrf.go), for
// Upper matrices whose columns are not moved in place (potrf.go's
// upperInPlace: all but aligned float32 up to 16 columns): each group's
// tile holds NC rows of NC + 1 elements. Lane i needs column i of U; read
// in place one element at a time, each warp load touched up to 32 sectors,
// the lanes' columns lying lda apart ([H200] float n = 32, 4096 matrices:
// Upper 46 µs against 14 µs for Lower). Instead the group copies column c
// of A with lane l at A(l, c), consecutive addresses, into tile row c
// (lane c's row), and each lane then reads its own row; the store runs the
// other way. The odd row length keeps both the column writes and the row
// reads free of bank conflicts (float NC = 12 writes: two-way). The copies
// in are cp.async (copy_async), with no register between memory and the
// tile: through registers, the compiler issued the loads a few at a time
// between the tile's stores (NVRTC 11.8's SASS of the warp tier at n = 64).
// [H200] float, µs a call, through registers → cp.async: 4,096 matrices of
// n = 32, 16 calls back to back, 24.0 → 19.5; 65,536 of n = 64 (warp.cu)
// 1448 → 1033 (bench/results/h200/session27/, call 2).
extern __shared__ pack<float> potrf_tile[];

template <typename T, int NC> __device__ __forceinline__ T* upper_tile(int group) {
    return reinterpret_cast<T*>(potrf_tile) + group * (NC * (NC + 1));
}

// copy_async and wait_copies, the cp.async helpers, are in the scalar prelude
// (scalar.cuh), which posv.cu stages Upper columns with too.

// Upper in place. Row i of L is column i of U conjugated, contiguous in
// memory: when every column is 16-byte aligned (the launcher's upperVectors,
// the kernels' VEC), a lane can move its row as whole vectors instead of
// through upper_tile: a quarter of the load instructions, no shared memory,
// but each warp access touches a line per lane. Against the tile filled by
// cp.async it wins only for float32 up to 16 columns, where potrf.go's
// upperInPlace keeps it; posv_warp (warp.cu) moves aligned float64
// columns below NC = 48 this way too (warp.cu's posv_wide). [H200] µs a
// call, in place against the tile, 65,536 matrices: float n = 8 14.8
// against 17.6, n = 16 48.6 against 52.7, n = 32 245.4
// against 242.4; double n = 8 25.4 against 22.7, n = 16 90.9 against 73.9,
// n = 32 385.2 against 359.0; float n = 16, 16,384 matrices, 4 calls back
// to back, 16.2 against 15.8; n = 32, 4,096 matrices, 16 calls, 22.9
// against 19.5 (session27/, call 2).
//
// upper_row_load sets r to row `row` of L from col = &U(0, row): r[c] =
// conj(U(c, row)) for c < row, the real part of U(row, row) at c = row,
// zero beyond; a row that is not real (padding) is the identity row. It
// reads only col[0..row]: the vectors wholly inside the triangle as 16-byte
// loads, the one that straddles the diagonal element by element.
template <typename T, int K>
__device__ __forceinline__ void upper_row_load(T (&r)[K], const T* col, int row, bool real) {
    using R = typename real_of<T>::type;
    constexpr int V = 16 / (int)sizeof(T);
    static_assert(K % V == 0, "whole vectors");
#pragma unroll
    for (int q = 0; q < K / V; ++q) {
        pack<T> p;
#pragma unroll
        for (int e = 0; e < V; ++e) p.v[e] = from_real<T>(R(0));
        if (real && q * V + V - 1 <= row) {
            p = *reinterpret_cast<const pack<T>*>(col + q * V);
        } else if (real) {
#pragma unroll
            for (int e = 0; e < V; ++e)
                if (q * V + e <= row) p.v[e] = col[q * V + e];
        }
#pragma unroll
        for (int e = 0; e < V; ++e) {
            const int c = q * V + e;
            T v = from_real<T>(c == row ? R(1) : R(0));
            if (real && c <= row) v = c == row ? from_real<T>(re(p.v[e])) : conj_(p.v[e]);
            r[c] = v;
        }
    }
}

// upper_row_store writes row `row` of L back as column `row` of U: U(c, row)
// = conj(r[c]) for the final rows c ≤ row of U (c < fail − 1, every one when
// fail = 0), and the failing pivot (c = row = fail − 1) as potf2 leaves it,
// a real value not conjugated; nothing else. Whole vectors where all of a
// vector is written, the rest element by element.
template <typename T, int K>
__device__ __forceinline__ void upper_row_store(const T (&r)[K], T* col, int row, bool real, int fail) {
    constexpr int V = 16 / (int)sizeof(T);
    const int last = fail ? fail - 1 : K; // rows of U before last are final
#pragma unroll
    for (int q = 0; q < K / V; ++q) {
        pack<T> p;
#pragma unroll
        for (int e = 0; e < V; ++e) {
            const int c = q * V + e;
            p.v[e] = c == row && row == fail - 1 ? r[c] : conj_(r[c]);
        }
        const int hi = q * V + V - 1;
        if (real && hi <= row && hi < last) {
            *reinterpret_cast<pack<T>*>(col + q * V) = p;
        } else if (real) {
#pragma unroll
            for (int e = 0; e < V; ++e) {
                const int c = q * V + e;
                if (c <= row && (c < last || (c == row && c == fail - 1))) col[c] = p.v[e];
            }
        }
    }
}

// lower_at is the address of L(i, k) in a matrix stored as UPPER says:
// L(i, k) itself, or U(k, i) = conj(L(i, k)).
template <typename T, bool UPPER> __device__ __forceinline__ T* lower_at(T* am, long long lda, int i, int k) {
    return UPPER ? am + k + (long long)i * lda : am + i + (long long)k * lda;
}
template <typename T, bool UPPER> __device__ __forceinline__ T load_lower(T* am, long long lda, int i, int k) {
    const T x = *lower_at<T, UPPER>(am, lda, i, k);
    return UPPER ? conj_(x) : x;
}
template <typename T, bool UPPER> __device__ __forceinline__ void store_lower(T* am, long long lda, int i, int k, T x) {
    *lower_at<T, UPPER>(am, lda, i, k) = UPPER ? conj_(x) : x;
}

// finish_in_memory goes on with the factorization of the matrix at am from
// pivot j0, by the W lanes of mask (lane: the index among them). potrf_reg
// and potrf_warp stop at a positive pivot that rsqrt_fast does not take (a
// float below the smallest normal) as at a failure, leaving columns
// 0..j0−1 of L and the updated pivot in memory and the rest of the
// triangle as it was. Left-looking, in memory, with rsqrt_: each element
// takes its updates in the order of their columns, as the kernels'
// right-looking steps apply them, with the same fused products, so L and
// the info returned (the kernels' rule) are what the kernels would give
// with rsqrt_ at every pivot. Slow (every operand from memory, one row a
// lane) and taken only by such matrices. A call, not inlined, and the
// callers find the matrix again from the indices: inlined, with the matrix
// kept from the loads, it took potrf_warp Lower n = 64 from 148 registers
// to 203 and from 706 to 845 µs; as it is, 153 and 744 µs (65,536 float
// matrices, against 893 with rsqrtf; bench/results/h200/session28/, lab).
template <typename T, bool UPPER, int W>
__device__ __noinline__ int finish_in_memory(T* am, long long lda, int n, int j0, int lane, unsigned mask) {
    using R = typename real_of<T>::type;
#pragma unroll 1
    for (int k = j0; k < n; ++k) {
        T x = load_lower<T, UPPER>(am, lda, k, k); // j0's pivot is stored updated
        if (k > j0) {
#pragma unroll 1
            for (int c = 0; c < k; ++c) {
                const T l = load_lower<T, UPPER>(am, lda, k, c);
                x = sub_mul_conj(x, l, l);
            }
        }
        const R d = re(x);
        __syncwarp(mask); // every lane has read A(k, k) before lane 0 rewrites it
        if (!(d > R(0))) {
            if (lane == 0) store_lower<T, UPPER>(am, lda, k, k, from_real<T>(d));
            return k + 1;
        }
        const R s = rsqrt_(d);
#pragma unroll 1
        for (int i = k + 1 + lane; i < n; i += W) {
            T y = load_lower<T, UPPER>(am, lda, i, k);
#pragma unroll 1
            for (int c = 0; c < k; ++c)
                y = sub_mul_conj(y, load_lower<T, UPPER>(am, lda, i, c), load_lower<T, UPPER>(am, lda, k, c));
            store_lower<T, UPPER>(am, lda, i, k, scale(y, s));
        }
        if (lane == 0) store_lower<T, UPPER>(am, lda, k, k, from_real<T>(isinf(d) ? d : d * s));
        __syncwarp(mask); // column k of L in memory before the next column reads it
    }
    return 0;
}

// eager_pivots: whether potrf_reg forms each pivot's rsqrt whatever the
// failure test gives (pivot_rsqrt) or, for float64 Lower only, predicated
// on it as before session 70: eager, float64 Lower at 65,536 matrices was
// 1.7 and 2.0 % slower at n = 24 and 32 (3.8 % at n = 32 with 16,384) where
// Upper was 2.2–4.5 % faster at n = 16 to 32 ([H100], session71/, calls 2
// and 4; the cause not found: fewer instructions and registers eager).
template <typename T, bool UPPER> struct eager_pivots { static constexpr bool value = true; };
template <> struct eager_pivots<double, false> { static constexpr bool value = false; };

// N: lanes per matrix (4, 8, 16 or 32); NC: columns held, a multiple of 4
// with n ≤ NC ≤ N; UPPER: the triangle that holds A; VEC (Upper only): its
// columns are 16-byte aligned, moved in place (upper_row_load), not
// through upper_tile. The body of both kernels below.
template <typename T, int N, int NC, bool UPPER, bool VEC>
__device__ __forceinline__ void potrf_reg_body(T* __restrict__ a, long long lda, long long stride, int n, int count,
                                               int* __restrict__ info) {
    static_assert(N >= 4 && N <= 32 && (N & (N - 1)) == 0, "N is 4, 8, 16 or 32");
    static_assert(NC >= 4 && NC <= N && NC % 4 == 0, "NC is a multiple of 4, at most N");
    using R = typename real_of<T>::type;
    constexpr int V = 16 / (int)sizeof(T); // elements per 16-byte vector: 4, 2 or 1
    static_assert(NC % V == 0 && N % V == 0, "a group's column is whole vectors");
    static_assert(UPPER || !VEC, "VEC is for Upper");

    // Two columns per lane slot, alternated by step parity; a group uses N
    // consecutive slots, so its column starts 16-byte aligned.
    __shared__ pack<T> column[2][kThreads / V];

    const int lane = threadIdx.x % N; // the row this thread holds
    const int group = threadIdx.x / N;
    const long long m = (long long)blockIdx.x * (kThreads / N) + group;
    const bool active = m < count;        // the last block may hold fewer matrices
    const bool mine = active && lane < n; // a real row of a real matrix

    // Lower: element (lane, c) of the row is A(lane, c), read and written
    // in place, consecutive lanes at consecutive addresses. Upper: lane
    // reaches A(lane, c) too, but only to stage the triangle through shared
    // memory (upper_tile says why); its row, column lane of A, comes from
    // there.
    const long long base = m * stride + lane;

    // Lower stores column j of L as soon as it is final, unless the row is
    // at most 64 bytes: then after the loop, as Upper does. [H200] 65,536
    // matrices, Lower: float n = 8 36.7 → 16.5 µs, n = 16 80.6 → 48.4,
    // double n = 8 24.3 → 22.0; rows of 128 bytes lose (float n = 32
    // 219 → 249, double n = 16 67 → 77), so they keep the early stores
    // (bench/results/h200/session8/late-stores-*.log).
    constexpr bool kLateLower = !UPPER && NC * sizeof(T) <= 64;

    T r[NC];
    if constexpr (UPPER) {
        if constexpr (VEC) {
            upper_row_load<T, NC>(r, a + (m * stride + (long long)lane * lda), lane, mine);
        } else {
            T* const tile = upper_tile<T, NC>(group);
            const int cend = active ? n : 0; // lane copies A(lane, c) for lane ≤ c < cend
            const T* src = a + base; // A(lane, c)
#pragma unroll
            for (int c = 0; c < NC; ++c) { // column c of A: rows 0..c, one per lane
                if (lane <= c && c < cend) copy_async(tile + c * (NC + 1) + lane, src);
                src = opaque(src + lda);
            }
            wait_copies();
            __syncwarp();
#pragma unroll
            for (int c = 0; c < NC; ++c) {
                T v = from_real<T>(c == lane ? R(1) : R(0));
                if (mine && c <= lane) {
                    const T x = tile[lane * (NC + 1) + c]; // A(c, lane)
                    v = c == lane ? from_real<T>(re(x)) : conj_(x);
                }
                r[c] = v;
            }
        }
    } else {
        const T* src = a + base; // A(lane, c)
#pragma unroll
        for (int c = 0; c < NC; ++c) {
            T v = from_real<T>(c == lane ? R(1) : R(0));
            if (mine && c <= lane) {
                const T x = *src;
                v = c == lane ? from_real<T>(re(x)) : x;
            }
            r[c] = v;
            src = opaque(src + lda);
        }
    }

    T* const out = a + opaque(base);
    T* const col0 = reinterpret_cast<T*>(&column[0][0]) + group * N;
    T* const col1 = reinterpret_cast<T*>(&column[1][0]) + group * N;
    // j+1 of the first pivot that rsqrt_fast refuses: not > 0 (NaN too), or
    // a float below the smallest normal, which finish_in_memory takes on.
    int fail = 0;

#pragma unroll
    for (int j = 0; j < NC; ++j) {
        // Columns n..NC-1 are identity padding (pivot exactly 1, L(i,j)
        // exactly 0), so no test on n is needed; breaking on n inside these
        // loops cost up to 30 registers (float, NC = 32).
        const R d = __shfl_sync(0xffffffffu, re(r[j]), j, N);
        if (!rsqrt_fast_takes(d) && fail == 0) fail = j + 1;
        const R s = pivot_rsqrt<true, eager_pivots<T, UPPER>::value>(d, fail == 0);
        const R diag = isinf(d) ? d : d * s;
        const T l = lane == j ? from_real<T>(diag) : scale(r[j], s);

        if constexpr (UPPER || kLateLower) {
            // Stored after the loop; r[j] is not read again, so it keeps
            // what goes to memory: L(lane, j), or on the failing pivot's
            // owner the pivot itself, as potf2 leaves it.
            r[j] = fail == j + 1 && lane == j ? from_real<T>(d) : l;
        } else {
            r[j] = l;
            if (mine && lane >= j) {
                if (fail == 0) {
                    out[j * lda] = l;
                } else if (fail == j + 1 && lane == j) {
                    out[j * lda] = from_real<T>(d); // the failing pivot, as potf2 leaves it
                }
            }
        }

        T* const col = (j & 1) ? col1 : col0;
        col[lane] = l;
        __syncwarp();

#pragma unroll
        for (int kb = 0; kb < NC; kb += V) {
            if (kb + V <= j + 1) continue; // constant once j is
            const pack<T> p = *reinterpret_cast<const pack<T>*>(col + kb);
#pragma unroll
            for (int e = 0; e < V; ++e) {
                const int k = kb + e;
                if (k > j) r[k] = sub_mul_conj(r[k], l, p.v[e]);
            }
        }
    }

    if constexpr (UPPER) {
        // Row lane of L is column lane of U, conjugated. Row i of U is
        // final when i < fail − 1 (every row when fail = 0); the failing
        // pivot is the one other element written, as potf2 leaves it (a
        // real value, +0 imaginary part), not conjugated.
        const int last = fail ? fail - 1 : NC; // rows of U before last are final
        if constexpr (VEC) {
            upper_row_store<T, NC>(r, a + opaque(m * stride + (long long)lane * lda), lane, mine, fail);
        } else {
            // Through the tile again, so that memory sees whole columns.
            T* const tile = upper_tile<T, NC>(group);
            if (lane < NC) {
#pragma unroll
                for (int c = 0; c < NC; ++c) {
                    // U(c, lane); the failing pivot goes as potf2 leaves it (a
                    // real value, +0 imaginary part), not conjugated.
                    if (c <= lane) tile[lane * (NC + 1) + c] = c == lane && lane == fail - 1 ? r[c] : conj_(r[c]);
                }
            }
            __syncwarp();
            // Lane stores U(lane, c) for lane ≤ c < cend: to n where its row
            // of U is final, the pivot alone where it failed there.
            const int cend = !active ? 0 : lane < last ? n : lane == fail - 1 ? lane + 1 : 0;
            T* dst = out; // U(lane, c)
#pragma unroll
            for (int c = 0; c < NC; ++c) { // column c of U: rows 0..c, one per lane
                if (lane <= c && c < cend) *dst = tile[c * (NC + 1) + lane];
                dst = opaque(dst + lda);
            }
        }
    }

    if constexpr (kLateLower) {
        const int last = fail ? fail - 1 : NC; // columns of L before last are final
        // Lane stores L(lane, c) for c < cend: to its diagonal, or to the
        // first column not final, and the failing pivot on its owner.
        const int cend = !mine ? 0 : lane == fail - 1 ? lane + 1 : min(lane + 1, last);
        T* dst = out; // L(lane, c)
#pragma unroll
        for (int c = 0; c < NC; ++c) { // column c of L: rows c..n-1, one per lane
            if (c < cend) *dst = r[c];
            dst = opaque(dst + lda);
        }
    }

    if (fail != 0) { // uniform over the group; an inactive group has fail = 0
        const unsigned group_mask = N == 32 ? 0xffffffffu : ((1u << N) - 1) << (threadIdx.x % 32 / N * N);
        __syncwarp(group_mask); // the stored pivot, seen by every lane of the group
        // The matrix again from the indices, as potrf_warp finds it.
        T* const am = a + opaque((long long)blockIdx.x * (kThreads / N) + threadIdx.x / N) * stride;
        if (re(am[(long long)(fail - 1) * (lda + 1)]) > R(0))
            fail = finish_in_memory<T, UPPER, N>(am, lda, n, fail - 1, lane, group_mask);
    }
    if (active && lane == 0) info[m] = fail;
}

template <typename T, int N, int NC, bool UPPER, bool VEC>
__global__ void potrf_reg(T* __restrict__ a, long long lda, long long stride, int n, int count, int* __restrict__ info) {
    potrf_reg_body<T, N, NC, UPPER, VEC>(a, lda, stride, n, count, info);
}

// potrf_reg_min is potrf_reg asking ptxas for MINB resident blocks per
// multiprocessor (65536 / (128·MINB) registers a thread at most). NVRTC 13
// gives the unbounded float Lower kernel of order 32 92 registers, 5
// blocks of 128 threads a multiprocessor; asked for 6 it takes 80 without
// spilling. potrf.go's minBlocks says where it is used and what it gained.
template <typename T, int N, int NC, bool UPPER, bool VEC, int MINB>
__global__ void __launch_bounds__(kThreads, MINB)
    potrf_reg_min(T* __restrict__ a, long long lda, long long stride, int n, int count, int* __restrict__ info) {
    potrf_reg_body<T, N, NC, UPPER, VEC>(a, lda, stride, n, count, info);
}
