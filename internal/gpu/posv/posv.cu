// posv.cu: register-resident batched Cholesky solves for small orders.
// posv_reg factors A = L·Lᴴ (Lower) or A = Uᴴ·U (Upper) in place, exactly as
// potrf.cu's potrf_reg does, and solves A·X = B in the same kernel, the
// factor never leaving the multiprocessor; potrs_reg solves A·X = B given
// the factor. X overwrites B. A and B are read once and written once.
//
// Shape. As potrf_reg: one matrix per group of N lanes (N = 4, 8, 16 or
// 32), THREADS/N matrices per block; lane i keeps row i of L (of Uᴴ for
// Upper; both triangles reduce to L·Lᴴ) in r[0..NC-1], NC = n rounded up to
// a multiple of 4, rows n..NC-1 the identity, every loop over the row
// unrolled so that r is indexed only by constants. Lane i also holds row i
// of a chunk of NR right-hand sides in x[0..NR-1]; B is processed NR columns
// at a time (NR = 1, 2, 4, 8 or 16, the power of two ≥ nrhs, at most 64
// bytes of them).
//
// Factorization: potrf_reg's right-looking loop, unchanged in its
// arithmetic (the factor is bit-identical to potrf_reg's), except that the
// scaled column j of L goes to its own shared slot j instead of a
// double-buffered one, so that at the end the group's shared memory holds
// all of L by columns. The solve needs that: lane i holds row i of L, but
// the substitution with Lᴴ needs, in lane j, column j of L. Lower stores
// column j of L as soon as it is final (consecutive rows, consecutive
// lanes); Upper moves its columns of U through the same slots, in before
// the factorization (stage_upper_row) and out after it (store_upper), so
// that every warp access to A is consecutive addresses there too.
//
// Solve. With L = M·D, D = diag(L) and M unit lower triangular, L·Lᴴ·x = b
// is M·z = b, w = D⁻²·z, Mᴴ·x = w. Each lane first scales its own slot by
// 1/L(j,j) (one division per lane), leaving M's columns with exact zeros on
// and above the diagonal; then, per chunk, two column sweeps (LAPACK trsm's
// "Left" order):
//  - M·z = b: step j, lane j publishes its z_j (final: steps 0..j-1 are
//    done) and every lane subtracts M(lane,j)·z_j, M(lane,j) one scalar of
//    slot j;
//  - Mᴴ·x = w: step k = NC-1 … 0, lane k publishes x_k and every lane
//    subtracts conj(M(k,lane))·x_k, M(k,lane) from its own slot, read as
//    16-byte vectors.
// A step is then one store by one lane, a barrier and NR multiply-adds in
// every lane: the unit diagonal keeps divisions and scalings out of the
// sweeps, and the zeros keep lane tests out (lanes that must not change add
// an exact zero). Keeping the factor's row out of the solve's registers was
// worth 30 to 45 registers per thread (NVRTC 11.8, float n = 32, 16
// right-hand sides: 153 with the forward sweep reading r and testing lanes,
// 108 now; potrf_reg alone: 94). The published x_j goes through a per-group
// shared buffer, double-buffered by step parity (one __syncwarp per step: a
// buffer is rewritten two steps later, after every lane has passed the
// barrier that follows its last read of it) and read as 16-byte vectors:
// kernel-lessons §11, a shared broadcast instead of NR shuffles per step.
// The same code solves in both kernels, on the same slots, so posv_reg's X
// is bit-identical to potrs_reg's on potrf_reg's factor. For a whole warp
// (n = 17…32) of a real type with full chunks, solve_halves takes the same
// steps with the chunk's columns dealt to the two half-warps, two rows a
// lane (solve_tier says where and why); X keeps its bits.
//
// Shared layout per group, in 16-byte units: NC column slots of an odd
// number of units each (lanes reading their own slots at the same offset
// hit distinct banks), then one unit of padding (the groups of a warp
// reading their slot j at the same offset hit distinct banks); after all
// groups' slots, per group two x buffers and one unit of padding. THREADS
// (128, or 64 where 128 would need more than 48 KiB: complex double at
// n > 24) keeps it static.
//
// Failure (posv_reg): info = j+1 for the first pivot that is not > 0 (≤ 0
// or NaN), A as potrf_reg leaves it, and B neither read nor written. A
// failing group executes the same instructions as its neighbours (every
// shuffle and barrier is warp-wide; only loads and stores are predicated),
// so it cannot hang or disturb them. Potrs on a factor with a zero on its
// diagonal gives infinities or NaNs in that matrix's X, as LAPACK's does;
// and where X overflows, the zero products above become NaN in that column.
//
// The strict other triangle of A, the rows of A and B beyond n and the gaps
// between matrices are never read or written.

// K consecutive elements loaded or stored as one access (K·sizeof(T) is 4,
// 8 or 16 bytes).
template <typename T, int K> struct alignas(K * sizeof(T)) vec {
    T v[K];
};

// opaque is the scalar prelude's (potrf.cu says why: store addresses built
// from an opaque copy are not the load addresses kept live). Upper's copies
// in (stage_upper_row) step through the columns as p = opaque(p + lda),
// each lane's run to one end computed once, where each column formed c·lda
// afresh and tested three conditions (as potrf_reg's do); with
// store_upper's stepped stores, the Upper posv_reg and potrs_reg kernels
// are up to 15 % shorter under NVRTC 13 (float n = 32, one right-hand side,
// 2,904 → 2,560 instructions; the Lower ones unchanged), none with local
// memory. [H100] 65,536 systems, µs, before → after (bench/results/h200/
// session65/, call 1, the builds in turns): float32 n = 32 291.9 → 242.9
// with one right-hand side, 324.8 → 281.0 with 4, 454.5 → 394.6 with 16;
// float64 n = 32 463.0 → 421.2, 535.5 → 492.7, 789.2 → 753.9; float32
// n = 16 66.9 → 62.9 with one, n = 8 within 1.1 %. Lower's load_row
// stepped the same way ran float32 n = 16 23–45 % slower (n = 8 and 32
// faster), so it keeps c·step; Lower now copies through the slots
// (stage_lower_row) but for double (lower_row says why).

// The shared layout of one block, in elements of T unless named in 16-byte
// units; the Go launcher's sharedBytes mirrors it.
template <typename T, int N, int NC, int NR, int THREADS> struct layout {
    static constexpr int V = 16 / (int)sizeof(T);     // elements per 16 bytes: 4, 2 or 1
    static constexpr int groups = THREADS / N;        // matrices per block
    static constexpr int slot16 = (NC / V) | 1;       // one column slot, odd
    static constexpr int group16 = NC * slot16 + 1;   // one group's slots, odd
    static constexpr int slot = slot16 * V;
    static constexpr int group = group16 * V;
    static constexpr int K = NR < V ? NR : V;         // elements per x access
    static constexpr int xbuf = (NR + V - 1) / V * V; // one x buffer, whole units
    static constexpr int xgroup = 2 * xbuf + V;       // two buffers and a unit: odd
    static constexpr int units = groups * (group16 + xgroup / V);
};

// Sixteen bytes of shared memory.
template <typename T> struct alignas(16) pack {
    T v[16 / sizeof(T)];
};

// load_row fills lane's row of a Lower matrix or factor: r[c] = A(lane, c)
// for c ≤ lane < n (the diagonal's real part only); identity elsewhere.
// diag receives the real diagonal (1 in padding rows). lower_row reads A
// with it for double only, stage_lower_row the slots for the other types;
// Upper goes through stage_upper_row. Index is long long for A and int
// for the slots: with long long there too, 96 of the staged kernels took
// other SASS (NVRTC 13; with int, all keep that of the loop written out).
template <typename T, int NC, typename Index>
__device__ __forceinline__ void load_row(T (&r)[NC], const T* __restrict__ a, Index base, Index step, int lane, bool mine,
                                         typename real_of<T>::type& diag) {
    using R = typename real_of<T>::type;
    diag = R(1);
#pragma unroll
    for (int c = 0; c < NC; ++c) {
        T v = from_real<T>(c == lane ? R(1) : R(0));
        if (mine && c <= lane) {
            const T x = a[base + c * step];
            if (c == lane) diag = re(x);
            v = c == lane ? from_real<T>(re(x)) : x;
        }
        r[c] = v;
    }
}

// stage_upper_row is load_row for Upper through the group's column slots,
// which the factorization has not yet written: column c of U (rows 0..c,
// lane l at U(l, c), consecutive addresses) goes by cp.async into slot c,
// and each lane then reads its own slot, column lane of U, as 16-byte
// vectors (the odd slot length keeps both directions free of bank
// conflicts). load_row reads that column in place, one element per lane
// and column: each warp access touched a line per lane, and Upper Posv took
// twice Lower's time (float n = 32, 65,536 systems, one right-hand side:
// 546.6 µs against 283.5; session38/, call 1). The slots are free again
// when it returns.
template <typename T, int N, int NC, int NR, int THREADS>
__device__ __forceinline__ void stage_upper_row(T (&r)[NC], const T* __restrict__ am, long long lda, int n, int lane,
                                                bool active, bool mine, T* slots, typename real_of<T>::type& diag) {
    using R = typename real_of<T>::type;
    using S = layout<T, N, NC, NR, THREADS>;
    constexpr int V = S::V;
    const int cend = active ? n : 0; // lane copies U(lane, c) for lane ≤ c < cend
    const T* src = am + lane;
#pragma unroll
    for (int c = 0; c < NC; ++c) {
        if (lane <= c && c < cend) copy_async(slots + c * S::slot + lane, src);
        src = opaque(src + lda);
    }
    wait_copies();
    __syncwarp();
    diag = R(1);
    const T* const own = slots + (lane < NC ? lane : 0) * S::slot;
#pragma unroll
    for (int kb = 0; kb < NC; kb += V) {
        const pack<T> p = *reinterpret_cast<const pack<T>*>(own + kb);
#pragma unroll
        for (int e = 0; e < V; ++e) {
            const int c = kb + e;
            T v = from_real<T>(c == lane ? R(1) : R(0));
            if (mine && c <= lane) {
                const T x = p.v[e]; // U(c, lane)
                if (c == lane) diag = re(x);
                v = c == lane ? from_real<T>(re(x)) : conj_(x);
            }
            r[c] = v;
        }
    }
    __syncwarp(); // every lane has its row before the slots are written again
}

// stage_lower_row is load_row through the group's column slots: column c
// of A (rows c..n−1, one per lane, consecutive addresses) goes by cp.async
// into slot c, and each lane then reads its row across the slots (load_row
// with slot c, element lane for A(lane, c)). Every copy is in flight before
// the one wait, where load_row's loads from A went out in two rounds behind
// the first pivot's shuffle. Four columns a trip: fully
// unrolled, ptxas formed every column's address before the first copy
// (NVRTC 13, n = 32, one right-hand side: float 78 registers against 61 at
// four a trip, double 136 against 112), and float n = 32 posv took 263.6 µs
// against 237.3 (lower_row's run). The slots are free again when it
// returns.
template <typename T, int N, int NC, int NR, int THREADS>
__device__ __forceinline__ void stage_lower_row(T (&r)[NC], const T* __restrict__ am, long long lda, int lane, bool mine,
                                                T* slots, typename real_of<T>::type& diag) {
    using S = layout<T, N, NC, NR, THREADS>;
    const T* src = am + lane;
#pragma unroll 4
    for (int c = 0; c < NC; ++c) {
        if (mine && c <= lane) copy_async(slots + c * S::slot + lane, src); // A(lane, c)
        src = opaque(src + lda);
    }
    wait_copies();
    __syncwarp();
    load_row<T, NC>(r, slots, lane, S::slot, lane, mine, diag); // slot c, element lane: A(lane, c)
    __syncwarp(); // every lane has its row before the slots are written again
}

// lower_row fills lane's row of a Lower matrix or factor (rows of m at
// a + off): by stage_lower_row, but for double by load_row. [H200] posv,
// 65,536 systems, one / 4 / 16 right-hand sides, µs, load_row → staged
// (bench/results/h200/session67/, call 2, the builds in turns): float n = 8
// 41.5 / 55.6 / 90.4 → 20.2 / 26.0 / 61.8, n = 32 280.4 / 311.0 / 436.9 →
// 237.3 / 270.5 / 404.6; complex float n = 32 979.0 → 562.4 with one,
// complex double 1665.8 → 925.1; double n = 8 27.3 / 37.7 / 84.3 →
// 28.6 / 39.1 / 88.4 and n = 32 379.3 → 385.1 with one (n = 16 88.5 → 85.1).
template <typename T, int N, int NC, int NR, int THREADS>
__device__ __forceinline__ void lower_row(T (&r)[NC], const T* __restrict__ a, long long off, long long lda, int lane,
                                          bool mine, T* slots, typename real_of<T>::type& diag) {
    if constexpr (sizeof(T) == 8 && sizeof(typename real_of<T>::type) == 8) { // double
        load_row<T, NC>(r, a, off + lane, lda, lane, mine, diag);
    } else {
        stage_lower_row<T, N, NC, NR, THREADS>(r, a + off, lda, lane, mine, slots, diag);
    }
}

// store_upper writes the factor back as U from the group's column slots
// (slot j, element i: L(i, j)), column by column of U so that a warp access
// is consecutive addresses: U(c, i) = conj(L(i, c)) for the final rows
// c ≤ i of U (c < last), and the failing pivot piv at (fail − 1, fail − 1),
// a real value, as potf2 leaves it. Nothing else is written.
template <typename T, int N, int NC, int NR, int THREADS>
__device__ __forceinline__ void store_upper(T* __restrict__ am, long long lda, int n, int lane, bool active,
                                            const T* slots, int fail, typename real_of<T>::type piv) {
    using S = layout<T, N, NC, NR, THREADS>;
    const int last = fail ? fail - 1 : NC; // rows of U before last are final
    // Lane l writes U(l, i) for l ≤ i < end: to n while row l is final, only
    // the pivot on the failing row, nothing past it.
    const int end = !active ? 0 : lane < last ? n : lane == fail - 1 ? fail : 0;
    const T* const own = slots + lane * S::slot; // L(i, lane) at own[i]
    T* dst = am + lane;                          // U(lane, i), i = 0
    // Rolled: unrolled beside stage_upper_row's unrolled copies, ptxas kept
    // the addresses live (NVRTC 12.4, float NC = 32, one right-hand side:
    // 114 registers unrolled, 66 rolled, 78 with load_row and the stores in
    // the loop). i is the warp's, so each store is one column of U.
#pragma unroll 1
    for (int i = 0; i < n; ++i) {
        if (lane <= i && i < end) *dst = lane == fail - 1 ? from_real<T>(piv) : conj_(own[i]);
        dst += lda;
    }
}

// unit_columns turns the group's column slots of L into those of the unit
// lower triangular L·D⁻¹, D = diag(L), with exact zeros on and above the
// diagonal: lane j scales its own slot j by dinv = 1/L(j,j). The slots must
// be complete (a barrier after their last store); a barrier follows.
template <typename T, int N, int NC, int NR, int THREADS>
__device__ __forceinline__ void unit_columns(int lane, T* slots, typename real_of<T>::type dinv) {
    using R = typename real_of<T>::type;
    using S = layout<T, N, NC, NR, THREADS>;
    constexpr int V = S::V;
    if (lane < NC) {
        T* const mine = slots + lane * S::slot;
#pragma unroll
        for (int kb = 0; kb < NC; kb += V) {
            pack<T> p = *reinterpret_cast<const pack<T>*>(mine + kb);
#pragma unroll
            for (int e = 0; e < V; ++e) p.v[e] = kb + e > lane ? scale(p.v[e], dinv) : from_real<T>(R(0));
            *reinterpret_cast<pack<T>*>(mine + kb) = p;
        }
    }
    __syncwarp();
}

// solve overwrites B by the solution of L·Lᴴ·X = B, NR columns at a time.
// With L = M·D, M unit lower triangular (unit_columns has left its columns
// in slots), it solves M·z = b, then w = D⁻²·z (in the lane: y = D⁻¹·z
// solves L·y = b, and Lᴴ = D·Mᴴ), then Mᴴ·x = w. The unit diagonal takes
// every division and scaling out of the sweeps, and the zeros on and above
// the diagonal of the slots every lane test: a step is one store by the
// lane that owns the row, a barrier, and multiply-adds in all lanes (lanes
// whose element is zero add an exact zero).
// xbuf is the group's two x buffers, bm the address of B(lane, 0) and dinv
// 1/L(lane, lane); ok says whether this lane's row of B is read and written
// (a real row of a matrix that factored).
template <typename T, int N, int NC, int NR, int THREADS>
__device__ __forceinline__ void solve(int lane, bool ok, int nrhs, T* __restrict__ bm, long long ldb, const T* slots,
                                      T* xbuf, typename real_of<T>::type dinv) {
    using R = typename real_of<T>::type;
    using S = layout<T, N, NC, NR, THREADS>;
    constexpr int V = S::V;
    constexpr int K = S::K;
    using X = vec<T, K>;
    // Lanes NC..N-1 hold no row or column; they read those of lane 0 and
    // their results are never stored.
    const int me = lane < NC ? lane : 0;
    const T* const mine = slots + me * S::slot;
    const long long ldbs = opaque(ldb);

#pragma unroll 1
    for (int c0 = 0; c0 < nrhs; c0 += NR) {
        T x[NR];
        const T* const in = bm + c0 * ldb;
#pragma unroll
        for (int c = 0; c < NR; ++c) {
            x[c] = from_real<T>(R(0));
            if (ok && c0 + c < nrhs) x[c] = in[c * ldb];
        }

        // M·z = b: step j publishes z_j, final once steps 0..j-1 are done.
#pragma unroll
        for (int j = 0; j < NC; ++j) {
            T* const buf = xbuf + (j & 1) * S::xbuf;
            const T l = slots[j * S::slot + me]; // M(lane, j), 0 unless lane > j
            if (lane == j) {
#pragma unroll
                for (int c = 0; c < NR; c += K) {
                    X w;
#pragma unroll
                    for (int e = 0; e < K; ++e) w.v[e] = x[c + e];
                    *reinterpret_cast<X*>(buf + c) = w;
                }
            }
            __syncwarp();
#pragma unroll
            for (int c = 0; c < NR; c += K) {
                const X w = *reinterpret_cast<const X*>(buf + c);
#pragma unroll
                for (int e = 0; e < K; ++e) x[c + e] = sub_mul(x[c + e], l, w.v[e]);
            }
        }

#pragma unroll
        for (int c = 0; c < NR; ++c) x[c] = scale(scale(x[c], dinv), dinv);

        // Mᴴ·x = w, steps NC-1 … 0. The step count runs on from the
        // forward sweep's, so the buffer parity alternates across the turn
        // (NC is even).
        pack<T> column; // elements k-V+1..k of this lane's slot
#pragma unroll
        for (int k = NC - 1; k >= 0; --k) {
            T* const buf = xbuf + ((2 * NC - 1 - k) & 1) * S::xbuf;
            if (k % V == V - 1) column = *reinterpret_cast<const pack<T>*>(mine + (k - V + 1));
            if (lane == k) {
#pragma unroll
                for (int c = 0; c < NR; c += K) {
                    X w;
#pragma unroll
                    for (int e = 0; e < K; ++e) w.v[e] = x[c + e];
                    *reinterpret_cast<X*>(buf + c) = w;
                }
            }
            __syncwarp();
            const T l = column.v[k % V]; // M(k, lane), 0 unless k > lane
#pragma unroll
            for (int c = 0; c < NR; c += K) {
                const X w = *reinterpret_cast<const X*>(buf + c);
#pragma unroll
                for (int e = 0; e < K; ++e) x[c + e] = sub_mul_conj(x[c + e], w.v[e], l); // x − conj(l)·w
            }
        }

        T* const out = bm + opaque(c0 * ldb);
#pragma unroll
        for (int c = 0; c < NR; ++c) {
            if (ok && c0 + c < nrhs) out[c * ldbs] = x[c];
        }
    }
}

// solve_halves is solve for groups of a whole warp (N = 32, n = 17…32):
// each half-warp takes H = NR/2 of a chunk's columns, and its lane i holds
// rows i and i + 16 of them, x[0] and x[1]. The steps, their order and
// every product are solve's, so X has its bits (row j's lane in each half
// gives z_j, or x_k, to its half through the half's part of the buffer;
// dinv of both rows comes by shuffle from their lanes). What changes is the
// shared-memory traffic a step: a published value serves two rows instead
// of one, and a half's loads of M are 16 addresses (warp.cu's tri_solve
// does the same for the warp tier). okm says whether the matrix's rows of
// B are read and written (a real matrix that factored), bm is B(0, 0).
template <typename T, int N, int NC, int NR, int THREADS>
__device__ __forceinline__ void solve_halves(int lane, bool okm, int n, int nrhs, T* __restrict__ bm, long long ldb,
                                             const T* slots, T* xbuf, typename real_of<T>::type dinv) {
    using R = typename real_of<T>::type;
    using S = layout<T, N, NC, NR, THREADS>;
    static_assert(N == 32 && NR >= 2, "a whole warp, two columns or more");
    constexpr int V = S::V;
    constexpr int H = NR / 2;            // columns a half holds
    constexpr int K = H < V ? H : V;     // elements per x access
    using X = vec<T, K>;
    const int i = lane % 16, h = lane / 16;
    // Row i + 16 exists below NC only for some lanes; the others read row
    // 0's slot for it, and that row is neither stored nor published.
    const bool two = i + 16 < NC;
    const int me1 = two ? i + 16 : 0;
    const T* const mine0 = slots + i * S::slot;
    const T* const mine1 = slots + me1 * S::slot;
    const R dinv0 = __shfl_sync(0xffffffffu, dinv, i);
    const R dinv1 = __shfl_sync(0xffffffffu, dinv, two ? i + 16 : i);
    const bool ok0 = okm && i < n, ok1 = okm && i + 16 < n;
    const long long ldbs = opaque(ldb);

#pragma unroll 1
    for (int c0 = 0; c0 < nrhs; c0 += NR) {
        const int cf = c0 + h * H; // the half's first column
        T x[2][H];
        const T* const in = bm + cf * ldb;
#pragma unroll
        for (int c = 0; c < H; ++c) {
            x[0][c] = x[1][c] = from_real<T>(R(0));
            if (ok0 && cf + c < nrhs) x[0][c] = in[c * ldb + i];
            if (ok1 && cf + c < nrhs) x[1][c] = in[c * ldb + i + 16];
        }

        // M·z = b: step j publishes z_j from row j's lane in each half.
#pragma unroll
        for (int j = 0; j < NC; ++j) {
            T* const buf = xbuf + (j & 1) * S::xbuf + h * H;
            const T l0 = slots[j * S::slot + i];   // M(i, j)
            const T l1 = slots[j * S::slot + me1]; // M(i + 16, j)
            if (i == j % 16) {
#pragma unroll
                for (int c = 0; c < H; c += K) {
                    X w;
#pragma unroll
                    for (int e = 0; e < K; ++e) w.v[e] = x[j / 16][c + e];
                    *reinterpret_cast<X*>(buf + c) = w;
                }
            }
            __syncwarp();
#pragma unroll
            for (int c = 0; c < H; c += K) {
                const X w = *reinterpret_cast<const X*>(buf + c);
#pragma unroll
                for (int e = 0; e < K; ++e) {
                    x[0][c + e] = sub_mul(x[0][c + e], l0, w.v[e]);
                    x[1][c + e] = sub_mul(x[1][c + e], l1, w.v[e]);
                }
            }
        }

#pragma unroll
        for (int c = 0; c < H; ++c) {
            x[0][c] = scale(scale(x[0][c], dinv0), dinv0);
            x[1][c] = scale(scale(x[1][c], dinv1), dinv1);
        }

        // Mᴴ·x = w, steps NC-1 … 0, buffers by solve's parity.
        pack<T> column0, column1; // elements k-V+1..k of the rows' slots
#pragma unroll
        for (int k = NC - 1; k >= 0; --k) {
            T* const buf = xbuf + ((2 * NC - 1 - k) & 1) * S::xbuf + h * H;
            if (k % V == V - 1) {
                column0 = *reinterpret_cast<const pack<T>*>(mine0 + (k - V + 1));
                column1 = *reinterpret_cast<const pack<T>*>(mine1 + (k - V + 1));
            }
            if (i == k % 16) {
#pragma unroll
                for (int c = 0; c < H; c += K) {
                    X w;
#pragma unroll
                    for (int e = 0; e < K; ++e) w.v[e] = x[k / 16][c + e];
                    *reinterpret_cast<X*>(buf + c) = w;
                }
            }
            __syncwarp();
            const T l0 = column0.v[k % V], l1 = column1.v[k % V]; // M(k, i), M(k, i + 16)
#pragma unroll
            for (int c = 0; c < H; c += K) {
                const X w = *reinterpret_cast<const X*>(buf + c);
#pragma unroll
                for (int e = 0; e < K; ++e) {
                    x[0][c + e] = sub_mul_conj(x[0][c + e], w.v[e], l0);
                    x[1][c + e] = sub_mul_conj(x[1][c + e], w.v[e], l1);
                }
            }
        }

        T* const out = bm + opaque(cf * ldb);
#pragma unroll
        for (int c = 0; c < H; ++c) {
            if (ok0 && cf + c < nrhs) out[c * ldbs + i] = x[0][c];
            if (ok1 && cf + c < nrhs) out[c * ldbs + i + 16] = x[1][c];
        }
    }
}

// solve_tier is how posv_reg and potrs_reg solve: solve_halves for a whole
// warp of a real type with full chunks (64 bytes of right-hand sides a row:
// float 16, double 8), solve otherwise. bm is B(0, 0) of the matrix, okm
// whether the matrix's B is read and written. [H200] 65,536 systems, µs,
// Lower, the halves against solve (lab/halves.py,
// bench/results/h200/session43/, call 5): float n = 32 with 16 right-hand
// sides, posv_reg 437.7 against 525.2, potrs_reg 334.8 against 473.8 (n =
// 24: 306.3 against 387.3, 246.6 against 319.2); double n = 32 with 16,
// 710.1 against 849.2 and 598.3 against 689.8, with 8 519.1 against 580.9
// and 423.3 against 429.5 (n = 24 with 8: 343.6 against 418.2, 273.2
// against 338.6). Elsewhere they lost somewhere: narrower chunks (double
// with 4, potrs_reg n = 24: 249.4 against 199.9; float with 8, posv_reg
// n = 32: 378.6 against 367.9), complex float's posv_reg (214 registers
// against 151: n = 32 with 16, 1839.9 against 1681.0) and complex double's
// potrs_reg (n = 32 with 16, 1953.9 against 1704.1). Double with 16
// columns a chunk (NR = 16) helped posv_reg a little more (675.9) but
// lost with potrs_reg at n = 24 (486.5 against 406.7), so the chunks stay
// 64 bytes.
template <typename T, int N, int NC, int NR, int THREADS>
__device__ __forceinline__ void solve_tier(int lane, bool okm, int n, int nrhs, T* __restrict__ bm, long long ldb,
                                           const T* slots, T* xbuf, typename real_of<T>::type dinv) {
    constexpr bool real = sizeof(typename real_of<T>::type) == sizeof(T);
    if constexpr (N == 32 && real && NR * sizeof(T) == 64)
        solve_halves<T, N, NC, NR, THREADS>(lane, okm, n, nrhs, bm, ldb, slots, xbuf, dinv);
    else
        solve<T, N, NC, NR, THREADS>(lane, okm && lane < n, nrhs, bm + lane, ldb, slots, xbuf, dinv);
}

// posv_reg: N lanes per matrix (4, 8, 16 or 32); NC columns held, a multiple
// of 4 with n ≤ NC ≤ N; NR right-hand sides per chunk; UPPER: the triangle
// that holds A; THREADS per block.
template <typename T, int N, int NC, int NR, bool UPPER, int THREADS>
__global__ void posv_reg(T* __restrict__ a, long long lda, long long stride_a, T* __restrict__ b, long long ldb,
                         long long stride_b, int n, int nrhs, int count, int* __restrict__ info) {
    static_assert(N >= 4 && N <= 32 && (N & (N - 1)) == 0, "N is 4, 8, 16 or 32");
    static_assert(NC >= 4 && NC <= N && NC % 4 == 0, "NC is a multiple of 4, at most N");
    static_assert(NR >= 1 && NR <= 16 && (NR & (NR - 1)) == 0, "NR is 1, 2, 4, 8 or 16");
    static_assert(THREADS % 32 == 0 && THREADS % N == 0, "whole warps, whole groups");
    using R = typename real_of<T>::type;
    using S = layout<T, N, NC, NR, THREADS>;
    constexpr int V = S::V;
    static_assert(NC % V == 0, "a column is whole vectors");
    static_assert(S::units * 16 <= 48 * 1024, "static shared memory is at most 48 KiB");

    __shared__ pack<T> smem[S::units];

    const int lane = threadIdx.x % N; // the row this thread holds
    const int group = threadIdx.x / N;
    const long long m = (long long)blockIdx.x * S::groups + group;
    const bool active = m < count;        // the last block may hold fewer matrices
    const bool mine = active && lane < n; // a real row of a real matrix

    // Element (lane, c) of the row: A(lane, c) for Lower, U(c, lane) for Upper
    // (whose A moves through the slots: out serves Lower only).
    const long long base = m * stride_a + (UPPER ? (long long)lane * lda : (long long)lane);
    const long long step = UPPER ? 1 : lda;

    T* const slots = reinterpret_cast<T*>(smem) + group * S::group;
    T* const xbuf = reinterpret_cast<T*>(smem) + S::groups * S::group + group * S::xgroup;
    T r[NC];
    R stored; // A(lane, lane): not needed, the factor's diagonal is
    if constexpr (UPPER) {
        stage_upper_row<T, N, NC, NR, THREADS>(r, a + m * stride_a, lda, n, lane, active, mine, slots, stored);
    } else {
        lower_row<T, N, NC, NR, THREADS>(r, a, m * stride_a, lda, lane, mine, slots, stored);
    }

    T* const out = a + opaque(base);
    int fail = 0;  // j+1 of the first pivot that is not > 0
    R diag = R(1); // L(lane, lane)
    R piv = R(0);  // Upper: the failing pivot, which store_upper writes

    // potrf_reg's loop (potrf.cu explains each choice).
#pragma unroll
    for (int j = 0; j < NC; ++j) {
        const R d = __shfl_sync(0xffffffffu, re(r[j]), j, N);
        if (!(d > R(0)) && fail == 0) fail = j + 1; // NaN fails too
        const R s = fail == 0 ? rsqrt_(d) : R(0);
        const R dj = isinf(d) ? d : d * s;
        const T l = lane == j ? from_real<T>(dj) : scale(r[j], s);
        r[j] = l;
        if (lane == j) diag = dj;

        if constexpr (UPPER) {
            if (fail == j + 1) piv = d; // stored with the rest after the loop
        } else if (mine && lane >= j) {
            if (fail == 0) {
                out[j * step] = l;
            } else if (fail == j + 1 && lane == j) {
                out[j * step] = from_real<T>(d); // the failing pivot, as potf2 leaves it
            }
        }

        T* const col = slots + j * S::slot;
        if (lane < NC) col[lane] = l;
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

    if (active && lane == 0) info[m] = fail;

    // Every slot was written before a barrier of the loop above.
    if constexpr (UPPER) {
        store_upper<T, N, NC, NR, THREADS>(a + opaque(m * stride_a), lda, n, lane, active, slots, fail, piv);
        __syncwarp(); // the slots are read before unit_columns rewrites them
    }
    const R dinv = R(1) / diag;
    unit_columns<T, N, NC, NR, THREADS>(lane, slots, dinv);
    solve_tier<T, N, NC, NR, THREADS>(lane, active && fail == 0, n, nrhs, b + m * stride_b, ldb, slots, xbuf, dinv);
}

// potrs_reg: posv_reg's solve on a given factor, held in the uplo triangle
// of A as potrf_reg and posv_reg leave it; A is only read.
template <typename T, int N, int NC, int NR, bool UPPER, int THREADS>
__global__ void potrs_reg(const T* __restrict__ a, long long lda, long long stride_a, T* __restrict__ b, long long ldb,
                          long long stride_b, int n, int nrhs, int count) {
    static_assert(N >= 4 && N <= 32 && (N & (N - 1)) == 0, "N is 4, 8, 16 or 32");
    static_assert(NC >= 4 && NC <= N && NC % 4 == 0, "NC is a multiple of 4, at most N");
    static_assert(NR >= 1 && NR <= 16 && (NR & (NR - 1)) == 0, "NR is 1, 2, 4, 8 or 16");
    static_assert(THREADS % 32 == 0 && THREADS % N == 0, "whole warps, whole groups");
    using R = typename real_of<T>::type;
    using S = layout<T, N, NC, NR, THREADS>;
    static_assert(NC % S::V == 0, "a column is whole vectors");
    static_assert(S::units * 16 <= 48 * 1024, "static shared memory is at most 48 KiB");

    __shared__ pack<T> smem[S::units];

    const int lane = threadIdx.x % N;
    const int group = threadIdx.x / N;
    const long long m = (long long)blockIdx.x * S::groups + group;
    const bool active = m < count;
    const bool mine = active && lane < n;

    T* const slots = reinterpret_cast<T*>(smem) + group * S::group;
    T* const xbuf = reinterpret_cast<T*>(smem) + S::groups * S::group + group * S::xgroup;
    T r[NC];
    R diag;
    if constexpr (UPPER) {
        stage_upper_row<T, N, NC, NR, THREADS>(r, a + m * stride_a, lda, n, lane, active, mine, slots, diag);
    } else {
        lower_row<T, N, NC, NR, THREADS>(r, a, m * stride_a, lda, lane, mine, slots, diag);
    }

    // Column slot j, element lane: L(lane, j), as posv_reg's factorization
    // leaves it below the diagonal (above it, unit_columns writes zeros in
    // both kernels).
    if (lane < NC) {
#pragma unroll
        for (int j = 0; j < NC; ++j) slots[j * S::slot + lane] = r[j];
    }
    __syncwarp();
    const R dinv = R(1) / diag;
    unit_columns<T, N, NC, NR, THREADS>(lane, slots, dinv);
    solve_tier<T, N, NC, NR, THREADS>(lane, active, n, nrhs, b + m * stride_b, ldb, slots, xbuf, dinv);
}
