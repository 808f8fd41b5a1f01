// cta.cu: batched Cholesky for medium orders (33 ≤ n ≤ MaxCTA), one matrix
// per thread block, A = L·Lᴴ (Lower) or A = Uᴴ·U (Upper), in place, with
// LAPACK's per-matrix info. It is compiled after potrf.cu and uses its scalar
// helpers (cfloat, cdouble, re, from_real, conj_, scale, sub_mul_conj,
// rsqrt_, pack, copy_async, commit_copies, wait_groups), and after
// sweeps.cu, whose solves posv_cta and potrs_cta run.
//
// Shape. A block of NP threads (n rounded up to a multiple of 32, at least
// 64) factors one matrix; thread t owns row t of L for the whole
// factorization (for Upper: column t of U, read and written conjugated, so
// the kernel runs the Lower algorithm on Aᴴ). One matrix per block rather
// than several: a 64-thread block already gives the two-warp barrier scope
// and, at 32 blocks per SM, the 2048 resident threads that packing several
// matrices into a block buys (kernel-lessons §5, §20), without named
// barriers or a slow matrix holding up its neighbours.
//
// Algorithm: left-looking by blocks of NB columns (lessons §13, §19: fewer
// multiply-adds than right-looking and one small loop body instead of a
// straight-line kernel), in one of two forms (cta_factor picks by type):
// float32 by panels of 16 (cta_factor_panels), the other types by steps of
// 8, 4 for complex128 (cta_factor_steps); each form's comment says how.
// Why two: session 46's lab (bench/results/h200/session54/, an H100, µs,
// L2 flushed) timed both on the same inputs. For float the panels stay:
// the steps were 3–6 % faster at some orders (n = 96 at 4,096 matrices,
// 200, 256) but up to 16 % slower at n = 128 from 256 matrices (42.8
// against 50.4 Upper, 40.9 against 43.2 Lower); for the other types the steps
// were 1.1–1.8× faster (Lower n = 128: double at 256 matrices 73.0 → 66.0,
// complex64 at one 111.7 → 62.9, complex128 at 256 282.8 → 200.5; double
// n = 224 at 256 324.6 → 258.5), 2 % slower only for double n = 128 at
// 4,096 (797 → 816). Those were the steps staged in shared memory first
// (u2); for double the lab's s1, each step's rows loaded from global memory
// a step ahead as the panels do, was faster still at every row it timed
// (n = 128: 47.3 against 49.8 at one matrix, 60.9 against 66.0 at 256,
// 786.7 against 816.0 at 4,096; n = 224 at 256 244.2 against 258.5), and
// for Upper it reads each row as 16-byte vectors where the staged copies
// were 10–29 % slower than the panels at saturating batches (session 55,
// H200); for the complex types s1 was 1.3–1.7× slower than u2. So double
// takes the steps unstaged, the complex types staged. On the H200 against
// the staged steps (session 56): double 4–11 % faster at every case timed
// (Upper n = 128 at 4,096 878.5 → 783.6 µs), complex64 Upper with the
// block-column copies 8–13 % at 256 and 1,024 matrices, complex128 Upper on
// one matrix 2.4 % slower (their barrier).
//
// Shared memory holds only L, as a trapezoid of column blocks: block K keeps
// the rows K·NB..NP−1 of its NB columns, column-major, so every access is a
// contiguous column segment (conflict-free across a warp, or a broadcast) and
// n = 256 float fits in 136 KiB (a full square would need 256 KiB). Both
// forms leave L there for posv_cta and potrs_cta.
//
// Rows beyond n and columns beyond n in the last block are padding: a row
// t ≥ n holds the identity and never reaches global memory, and a padding
// pivot never counts as a failure, so padding values (which may be
// anything) only ever feed padding values. Blocks past the last real column
// are not run, so the cost follows n, not the bucket NP.
//
// Pivots: float uses rsqrt (potrf.cu explains the accuracy: about 2 ulp
// against a 20·n·eps budget); double and the complex types use a correctly
// rounded sqrt and divide, as LAPACK does (diag = sqrt(d), column · 1/diag).
//
// Failure. info = k for the first pivot that is not > 0 (≤ 0 or NaN); from
// then on the scale is 0. The rows store only the columns before k−1 and the
// owner of row k−1 stores the failing pivot, so the matrix holds what LAPACK's
// potf2 leaves (the first k−1 columns of L, the pivot, the rest as it was);
// the block stops after that panel or step. Nothing depends on the data's
// values but the stores, so NaN or Inf cannot hang a block, and blocks share
// nothing.
//
// The strict other triangle, the rows beyond n and the gaps between matrices
// are never read or written.

// Which types take the exact pivot (sqrt and divide) rather than rsqrt.
template <typename T> struct exact_pivot {
    static constexpr bool value = true;
};
template <> struct exact_pivot<float> {
    static constexpr bool value = false;
};

__device__ __forceinline__ float sqrt_(float x) { return sqrtf(x); }
__device__ __forceinline__ double sqrt_(double x) { return sqrt(x); }

// s = 1/sqrt(d) and diag = sqrt(d) for the pivot d; s = 0 once failed. The
// inverse is formed whatever ok is (pivot_rsqrt), off the failure test's
// chain: [H100] float Upper, n = 128, two turns: the suite's 256 matrices
// 41.08, 40.96 → 39.01, 39.04 µs; 4,096 matrices 351.7, 351.9 → 341.9,
// 341.7 (bench/results/h200/session70/, call 1). The other types' divide,
// formed likewise, at 256 and 4,096 matrices: 0.1–6.0 % faster, complex64
// Lower 0.9 and 1.4 % slower (session71/, call 2).
template <typename T>
__device__ __forceinline__ void pivot_scale(typename real_of<T>::type d, bool ok, typename real_of<T>::type& s,
                                            typename real_of<T>::type& diag) {
    using R = typename real_of<T>::type;
    if constexpr (exact_pivot<T>::value) {
        diag = sqrt_(d);
        const R inv = R(1) / diag; // whatever ok is, as pivot_rsqrt's rsqrt
        s = ok ? inv : R(0);       // d = +Inf: diag Inf, s 0, as LAPACK
    } else {
        s = pivot_rsqrt<false>(d, ok);
        diag = isinf(d) ? d : d * s;
    }
}

// Start of block column K of the trapezoid (elements): blocks 0..K−1 hold NB
// columns of NP − K'·NB rows each. A multiple of NB, so 16-byte aligned.
template <int NP, int NB> __device__ __forceinline__ int trap_off(int K) {
    return NB * (K * NP - NB * (K * (K - 1) / 2));
}

// The dynamic shared memory: the trapezoid, 16-byte aligned.
extern __shared__ pack<float> cta_shared[];

// x[c] = element (t, j+c) of the Hermitian matrix's lower triangle: A(t, j+c)
// for Lower, conj(U(j+c, t)) for Upper, the diagonal's imaginary part
// dropped; the identity above the diagonal and beyond n, so nothing outside
// the uplo triangle is read. Upper rows wholly below the block read their
// NB contiguous elements as 16-byte vectors when vec says the addresses
// allow it (checked by the launcher).
template <typename T, int NB, bool UPPER>
__device__ __forceinline__ void load_panel(T (&x)[NB], const T* __restrict__ a, long long base, long long step, int t,
                                           int j, int n, int vec) {
    using R = typename real_of<T>::type;
    constexpr int V = 16 / (int)sizeof(T);
    if constexpr (UPPER) {
        if (vec && t >= j + NB && t < n) {
            const pack<T>* p = reinterpret_cast<const pack<T>*>(a + base + j);
#pragma unroll
            for (int q = 0; q < NB / V; ++q) {
                const pack<T> v = p[q];
#pragma unroll
                for (int e = 0; e < V; ++e) x[q * V + e] = conj_(v.v[e]);
            }
            return;
        }
    }
#pragma unroll
    for (int c = 0; c < NB; ++c) {
        const int k = j + c;
        T v = from_real<T>(k == t ? R(1) : R(0));
        if (k <= t && t < n) {
            const T y = a[base + k * step];
            v = k == t ? from_real<T>(re(y)) : (UPPER ? conj_(y) : y);
        }
        x[c] = v;
    }
}

// Stores row t's (t < n) part of the panel at column j: the columns before
// the first failure (all when fail = 0) and, on its owner, the failing pivot
// (x holds it), only inside the uplo triangle.
template <typename T, int NB, bool UPPER>
__device__ __forceinline__ void store_panel(const T (&x)[NB], T* __restrict__ a, long long base, long long step, int t,
                                            int j, int n, int fail, int vec) {
    constexpr int V = 16 / (int)sizeof(T);
    const int last = fail ? fail - 1 : n; // columns before last are final
    if constexpr (UPPER) {
        if (vec && t >= j + NB && j + NB <= last) {
            pack<T>* p = reinterpret_cast<pack<T>*>(a + base + j);
#pragma unroll
            for (int q = 0; q < NB / V; ++q) {
                pack<T> v;
#pragma unroll
                for (int e = 0; e < V; ++e) v.v[e] = conj_(x[q * V + e]);
                p[q] = v;
            }
            return;
        }
    }
#pragma unroll
    for (int c = 0; c < NB; ++c) {
        const int k = j + c;
        if (k <= t && (k < last || (k == t && k == fail - 1))) a[base + k * step] = UPPER ? conj_(x[c]) : x[c];
    }
}

// r[k] −= l·conj(col[k]) for c < k < NB: the rank-1 step of column c of the
// diagonal block, read as 16-byte vectors (col is 16-byte aligned; c is a
// constant once the caller's loop is unrolled).
template <typename T, int NB>
__device__ __forceinline__ void column_update(T (&r)[NB], T l, const T* col, int c) {
    constexpr int V = 16 / (int)sizeof(T);
#pragma unroll
    for (int kb = 0; kb < NB; kb += V) {
        if (kb + V <= c + 1) continue;
        const pack<T> p = *reinterpret_cast<const pack<T>*>(col + kb);
#pragma unroll
        for (int e = 0; e < V; ++e) {
            const int k = kb + e;
            if (k > c) r[k] = sub_mul_conj(r[k], l, p.v[e]);
        }
    }
}

// sub_finished subtracts L(t, 0:j0)·L(j0:j0+NB, 0:j0)ᴴ from row t's part
// of a panel or step (r), one finished block column of the trapezoid at a
// time (J of them): L(t, k) from the thread's own row, L(j0:j0+NB, k) as
// 16-byte broadcast vectors (one vector load per 16 bytes of multiply-adds,
// §10). UK and UKK unroll the loops over block columns and over their
// columns: the panels take 1 and 4, the steps 2 and NB (0–7 % in the lab).
// Written once since session 57: 22 kernels' SASS changed (float32 Upper
// panels 16 instructions shorter), their GPU tests passed and native:cta
// timed within −1.1 % … +0.3 % of the two loops on the H100
// (bench/results/h200/session57/).
template <typename T, int NP, int NB, int UK, int UKK>
__device__ __forceinline__ void sub_finished(T (&r)[NB], const T* S, int t, int j0, int J) {
    constexpr int V = 16 / (int)sizeof(T);
#pragma unroll UK
    for (int K = 0; K < J; ++K) {
        const int ld = NP - K * NB;
        const T* const col = S + trap_off<NP, NB>(K);
        const T* const own = col + (t - K * NB);
        const T* const top = col + (j0 - K * NB);
#pragma unroll UKK
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

// NP: threads per block and the rows the trapezoid holds, a multiple of 32
// in [64, 256] with n ≤ NP; NB: the panel or step width, dividing 32 and NP;
// UPPER: the triangle that holds A. Grid: one block per matrix; dynamic
// shared memory: trap_off<NP, NB>(NP / NB) elements. No __launch_bounds__:
// at NP ≤ 256 threads any register count up to 255 launches, and the caps
// invite spills (potrf.cu, lessons §7). vec: the Upper rows may use 16-byte
// accesses (a, lda and stride all 16-byte multiples). The kernel is
// cta_factor below.
//
// cta_factor_panels is the float32 form of potrf_cta's body: it factors
// the block's matrix, leaves L in the shared trapezoid and returns info
// (the same in every thread). For the panel of columns j0..j0+NB−1, every
// thread holding a row t ≥ j0:
//  1. has its part of the panel, A(t, j0:j0+NB), in the register row r,
//     loaded from global memory one panel ahead (nx), so the load latency
//     hides behind the previous panel;
//  2. subtracts L(t, 0:j0)·L(j0:j0+NB, 0:j0)ᴴ, reading the finished columns
//     from shared memory: its own L(t, k), and L(j0:j0+NB, k) as 16-byte
//     broadcast vectors (one vector load per 4 float multiply-adds, §10);
//  3. the warp that holds rows j0..j0+NB−1 factors the diagonal block with
//     potrf_reg's column step (pivot by shuffle, the owner scales, the column
//     published in shared memory, one __syncwarp per column); that warp's
//     lanes below the block solve their rows in the same steps;
//  4. after one barrier, rows in later warps solve against the block with
//     the same step, the scale of each column read from shared memory;
//  5. the row's panel part goes to shared memory (for later panels) at once
//     and to global memory (final) after the step; a second barrier ends the
//     panel.
// Two barriers per panel; the serial chain is one column step per column.
// The next pivot is computed by its owner from its own value (the diagonal
// update needs only L(j, c) itself), so the shuffle of step c+1 does not wait
// for the shared-memory column of step c. The diagonal step stops at column
// n (a uniform test; later warps run the padding columns scaled by 0).
template <typename T, int NP, int NB, bool UPPER>
__device__ __forceinline__ int cta_factor_panels(T* __restrict__ a, long long lda, long long stride, int n, int vec) {
    using R = typename real_of<T>::type;
    constexpr int V = 16 / (int)sizeof(T);
    static_assert(NP % 32 == 0 && NP >= 64 && NP <= 256, "NP is a multiple of 32 in [64, 256]");
    static_assert(NB >= 4 && 32 % NB == 0 && NP % NB == 0 && NB % V == 0, "NB divides 32; a panel column is whole vectors");

    T* const S = reinterpret_cast<T*>(cta_shared);
    __shared__ R scales[NB]; // column scales of the current panel, for the later warps
    __shared__ int failed;   // info so far, published by the diagonal warp

    const int t = threadIdx.x; // the row this thread owns
    const int warp = t >> 5;
    const bool row = t < n;
    // Element (t, k): a[base + k·step], A(t, k) for Lower, U(k, t) for Upper.
    const long long base = (long long)blockIdx.x * stride + (UPPER ? (long long)t * lda : (long long)t);
    const long long step = UPPER ? 1 : lda;

    T r[NB], nx[NB];
    load_panel<T, NB, UPPER>(r, a, base, step, t, 0, n, vec);
    int fail = 0;
    const int panels = (n + NB - 1) / NB;

#pragma unroll 1
    for (int J = 0;; ++J) {
        const int j0 = J * NB;
        if (J + 1 < panels) load_panel<T, NB, UPPER>(nx, a, base, step, t, j0 + NB, n, vec);

        // 2. r −= L(t, 0:j0)·L(j0:j0+NB, 0:j0)ᴴ, one finished block column
        // at a time. The loop over blocks stays rolled (its bounds vary);
        // r is indexed by constants only.
        if (t >= j0 && row) sub_finished<T, NP, NB, 1, 4>(r, S, t, j0, J);

        const int cols = min(NB, n - j0); // real columns in this panel
        const int ldp = NP - j0;
        T* const panel = S + trap_off<NP, NB>(J); // element (i, j0+c) at panel[c·ldp + i − j0]
        const int wd = j0 >> 5;                   // the warp holding rows j0..j0+NB−1

        // 3. The diagonal block, column by column, in its warp.
        if (warp == wd) {
            const int lane0 = j0 & 31; // the lane of row j0
            R d = __shfl_sync(0xffffffffu, re(r[0]), lane0);
#pragma unroll
            for (int c = 0; c < NB; ++c) {
                if (c >= cols) break;
                if (!(d > R(0)) && fail == 0) fail = j0 + c + 1; // NaN fails too
                R s, diag;
                pivot_scale<T>(d, fail == 0, s, diag);
                const bool owner = t == j0 + c;
                const T l = owner ? from_real<T>(fail == 0 ? diag : d) : scale(r[c], s);
                r[c] = l;
                if (t >= j0) panel[c * ldp + (t - j0)] = l;
                if (owner) scales[c] = s;
                __syncwarp();
                // The next pivot before the column update: its owner updates
                // its diagonal with its own L(j0+c+1, c), the same bits the
                // shared column gives it, so the shuffle overlaps the loads.
                if (c + 1 < NB) d = __shfl_sync(0xffffffffu, re(sub_mul_conj(r[c + 1], l, l)), lane0 + c + 1);
                column_update<T, NB>(r, l, panel + c * ldp, c);
            }
            if (t == j0) failed = fail;
        }
        __syncthreads(); // the diagonal block, its scales and info are published
        fail = failed;

        // 4. Rows in later warps solve against the diagonal block.
        if (warp > wd && warp * 32 < n) {
#pragma unroll
            for (int c = 0; c < NB; ++c) {
                // Padding columns (last panel) run too, scaled by 0: they
                // feed only padding, and the loop stays one block of code.
                const R s = scales[c];
                const T l = scale(r[c], c < cols ? s : R(0));
                r[c] = l;
                panel[c * ldp + (t - j0)] = l;
                column_update<T, NB>(r, l, panel + c * ldp, c);
            }
        }

        // 5. Final values to global memory; the next panel reads this one's
        // shared columns only after the barrier.
        if (t >= j0 && row) store_panel<T, NB, UPPER>(r, a, base, step, t, j0, n, fail, vec);
        __syncthreads();
        if (fail != 0 || J + 1 >= panels) break;
#pragma unroll
        for (int c = 0; c < NB; ++c) r[c] = nx[c];
    }
    return fail;
}

// cta_factor_steps is the form of potrf_cta's body for float64 and the
// complex types (cta_factor_panels' contract). STAGED (the complex types):
// first A's lower triangle goes into the shared trapezoid where L will be,
// all at once by cp.async (stage 0 says in what order); else (float64) each
// thread loads its part of a step from global memory a step ahead, as the
// panels do (load_panel). Then, for the step of columns j0..j0+NB−1, every
// thread holding a row t ≥ j0:
//  1. has its part of the step, A(t, j0:j0+NB), in the register row r (read
//     from the trapezoid, or the step ahead's load) and subtracts
//     L(t, 0:j0)·L(j0:j0+NB, 0:j0)ᴴ as in
//     the panels (the loop over block columns unrolled by 2: 0–7 % in the
//     lab); every row does the same work, so no warp waits on another's;
//  2. the rows j0..j0+NB−1 publish theirs, the step's diagonal block, in
//     shared memory (a barrier);
//  3. every thread, whatever its row, factors that NB×NB block by itself in
//     registers (no shuffle: each pivot's chain is the thread's own pivot
//     and multiply-adds), so info comes out the same in every thread, and
//     then solves its own row against it with the same operations in the
//     same order, so the rows of the diagonal block get the factor's bits;
//  4. the row's step part goes to the trapezoid (for later steps) and to
//     global memory (final); a second barrier ends the step.
// A row t ≥ n is neither copied nor updated.
template <typename T, int NP, int NB, bool UPPER, bool STAGED>
__device__ __forceinline__ int cta_factor_steps(T* __restrict__ a, long long lda, long long stride, int n, int vec) {
    using R = typename real_of<T>::type;
    constexpr int V = 16 / (int)sizeof(T);
    static_assert(NP % 32 == 0 && NP >= 64 && NP <= 256, "NP is a multiple of 32 in [64, 256]");
    static_assert(NB >= 2 && 32 % NB == 0 && NP % NB == 0 && NB % V == 0, "NB divides 32; a step's row is whole vectors");

    T* const S = reinterpret_cast<T*>(cta_shared);
    __shared__ __align__(16) T s_d[NB][NB]; // the step's diagonal block, its rows updated

    const int t = threadIdx.x; // the row this thread owns
    const bool row = t < n;
    // Element (t, k): a[base + k·step], A(t, k) for Lower, U(k, t) for Upper.
    const long long base = (long long)blockIdx.x * stride + (UPPER ? (long long)t * lda : (long long)t);
    const long long step = UPPER ? 1 : lda;

    // 0. A's lower triangle into the trapezoid where L will be, all at once
    // by cp.async: the first step's columns as one group, the rest as
    // another that lands while the first step runs. Lower: each thread
    // copies its own row, A(t, 0:t+1), adjacent threads adjacent addresses,
    // and reads only its own row's copies until it overwrites them with L.
    // Upper: row t is U's column t, contiguous but lda away from its
    // neighbours', so a thread copying its own would make every warp access
    // touch 32 lines (session 55: 10–29 % slower than the panels at
    // saturating batches, H200); there the block copies each block column
    // K's rows NB elements at a time, so a warp moves whole 64-byte segments,
    // and a barrier after each group's wait shows the rows to their owners.
    if constexpr (STAGED) {
        if constexpr (UPPER) {
            const T* const mat = a + (long long)blockIdx.x * stride;
#pragma unroll 1
            for (int K = 0; K * NB < n; ++K) {
                // Element (K·NB + i, K·NB + c) of the lower triangle: U(K·NB + c, K·NB + i).
                T* const blk = S + trap_off<NP, NB>(K);
                const int ld = NP - K * NB;
                const T* const src = mat + (long long)K * NB * lda + K * NB;
#pragma unroll 1
                for (int e = t; e < (n - K * NB) * NB; e += NP) {
                    const int i = e / NB, c = e % NB;
                    if (c <= i) copy_async(blk + i + c * ld, src + (long long)i * lda + c);
                }
                if (K == 0) commit_copies();
            }
        } else if (row) {
            const T* const src = a + base;
#pragma unroll 1
            for (int K = 0; K * NB <= t; ++K) {
                T* const dst = S + trap_off<NP, NB>(K) + (t - K * NB);
                const int ld = NP - K * NB;
                const int top = min(NB - 1, t - K * NB);
#pragma unroll 1
                for (int c = 0; c <= top; ++c) copy_async(dst + c * ld, src + (K * NB + c) * step);
                if (K == 0) commit_copies();
            }
        }
        commit_copies();
    }

    T r[NB], nx[NB]; // nx: the next step's part of the row (not STAGED)
    if constexpr (!STAGED) load_panel<T, NB, UPPER>(r, a, base, step, t, 0, n, vec);
    int fail = 0;
    const int steps = (n + NB - 1) / NB;

#pragma unroll 1
    for (int J = 0;; ++J) {
        const int j0 = J * NB;
        // Row t's part of the step, (t, j0:j0+NB) of the Hermitian matrix's
        // lower triangle: A(t, k) for Lower, conj(U(k, t)) for Upper, the
        // diagonal's imaginary part dropped; the identity above the
        // diagonal and beyond n. Not STAGED: in r already; the next step's
        // load starts here, to land while this step runs.
        if constexpr (!STAGED) {
            if (J + 1 < steps) load_panel<T, NB, UPPER>(nx, a, base, step, t, j0 + NB, n, vec);
        } else {
            if (J == 0) wait_groups<1>();
            else if (J == 1) wait_groups<0>();
            if (UPPER && J < 2) __syncthreads(); // the rows other threads copied
            const T* const blk = S + trap_off<NP, NB>(J) + (t - j0);
#pragma unroll
            for (int c = 0; c < NB; ++c) {
                const int k = j0 + c;
                T v = from_real<T>(k == t ? R(1) : R(0));
                if (k <= t && row) {
                    const T y = blk[c * (NP - j0)];
                    v = k == t ? from_real<T>(re(y)) : (UPPER ? conj_(y) : y);
                }
                r[c] = v;
            }
        }

        // 1. r −= L(t, 0:j0)·L(j0:j0+NB, 0:j0)ᴴ, one finished block column
        // at a time: every row at or below the step does the same work.
        if (t >= j0 && row) sub_finished<T, NP, NB, 2, NB>(r, S, t, j0, J);

        // 2. The step's diagonal block to every thread.
        if (t >= j0 && t < j0 + NB) {
#pragma unroll
            for (int c = 0; c < NB; ++c) s_d[t - j0][c] = r[c];
        }
        __syncthreads();

        // 3. Every thread factors the diagonal block by itself (no
        // shuffles, and info comes out the same in every thread), then
        // solves its own row against it with the same operations in the
        // same order, so the diagonal block's rows get the factor's bits.
        const int cols = min(NB, n - j0); // real columns in this step
        T d[NB][NB];
#pragma unroll
        for (int i = 0; i < NB; ++i)
#pragma unroll
            for (int c = 0; c <= i; ++c) d[i][c] = s_d[i][c];
        R sc[NB], dg[NB]; // 1/L(c, c) (0 from a failed pivot on) and what the diagonal stores
#pragma unroll
        for (int c = 0; c < NB; ++c) {
            const R dv = re(d[c][c]);
            if (!(dv > R(0)) && fail == 0 && c < cols) fail = j0 + c + 1; // NaN fails too; padding never counts
            R s, diag;
            pivot_scale<T>(dv, fail == 0, s, diag);
            sc[c] = s;
            dg[c] = fail == 0 ? diag : dv; // the failing pivot stays as it was
#pragma unroll
            for (int i = c + 1; i < NB; ++i) d[i][c] = scale(d[i][c], s);
#pragma unroll
            for (int i = c + 1; i < NB; ++i)
#pragma unroll
                for (int k = c + 1; k <= i; ++k) d[i][k] = sub_mul_conj(d[i][k], d[i][c], d[k][c]);
        }
        const int own = t - j0; // the diagonal row this thread holds, if 0 ≤ own < NB
#pragma unroll
        for (int c = 0; c < NB; ++c) {
#pragma unroll
            for (int k = 0; k < c; ++k) r[c] = sub_mul_conj(r[c], r[k], d[c][k]);
            r[c] = c == own ? from_real<T>(dg[c]) : scale(r[c], sc[c]);
        }

        // 4. The step's columns to the trapezoid for later steps and to
        // global memory (final); the next step reads the trapezoid only
        // after the barrier, which also ends every read of s_d.
        if (t >= j0) {
            T* const blk = S + trap_off<NP, NB>(J) + (t - j0);
#pragma unroll
            for (int c = 0; c < NB; ++c) blk[c * (NP - j0)] = r[c];
            if (row) store_panel<T, NB, UPPER>(r, a, base, step, t, j0, n, fail, vec);
        }
        __syncthreads();
        if (fail != 0 || J + 1 >= steps) break;
        if constexpr (!STAGED) {
#pragma unroll
            for (int c = 0; c < NB; ++c) r[c] = nx[c];
        }
    }
    if constexpr (STAGED) wait_groups<0>(); // a matrix that failed in its first step: no copy may land after the block
    return fail;
}

// by_steps: the types whose potrf_cta runs cta_factor_steps (cta.cu's
// header says why float does not), staged: those whose steps read A from
// the trapezoid (why double does not: there too); cta.go's ctaPanel gives
// each form's NB.
template <typename T> struct by_steps {
    static constexpr bool value = true, staged = true;
};
template <> struct by_steps<float> {
    static constexpr bool value = false, staged = false;
};
template <> struct by_steps<double> {
    static constexpr bool value = true, staged = false;
};

// cta_factor is potrf_cta's body (and posv_cta's first half): it factors the
// block's matrix, leaves L in the shared trapezoid and returns info (the
// same in every thread).
template <typename T, int NP, int NB, bool UPPER>
__device__ __forceinline__ int cta_factor(T* __restrict__ a, long long lda, long long stride, int n, int vec) {
    if constexpr (by_steps<T>::value) return cta_factor_steps<T, NP, NB, UPPER, by_steps<T>::staged>(a, lda, stride, n, vec);
    else return cta_factor_panels<T, NP, NB, UPPER>(a, lda, stride, n, vec);
}

template <typename T, int NP, int NB, bool UPPER>
__global__ void potrf_cta(T* __restrict__ a, long long lda, long long stride, int n, int* __restrict__ info, int vec) {
    const int fail = cta_factor<T, NP, NB, UPPER>(a, lda, stride, n, vec);
    if (threadIdx.x == 0) info[blockIdx.x] = fail;
}

// trap_at is L(i, k), i ≥ k, from the trapezoid S (block column k/NB).
template <typename T, int NP, int NB> __device__ __forceinline__ T trap_at(const T* S, int i, int k) {
    const int K = k / NB;
    return S[trap_off<NP, NB>(K) + (k - K * NB) * (NP - K * NB) + (i - K * NB)];
}

// trap_tile is L in the trapezoid S, the accessor of the warp's solves
// (sweeps.cu). They also read (i, k) above the diagonal, for lanes whose
// product they then drop: for 32 ≤ i < k < NP that lands inside block
// column k/NB or the one before it, so the read stays in the trapezoid.
template <typename T, int NP, int NB> struct trap_tile {
    const T* S;
    __device__ __forceinline__ T operator()(int i, int k) const { return trap_at<T, NP, NB>(S, i, k); }
};

// cta_solve overwrites B with the solution of L·Lᴴ·X = B for the block's
// matrix, 32 < n ≤ 64, L in the shared trapezoid S (for Upper it holds Uᴴ
// there, so the same two solves give Uᴴ·U·X = B). B is n×nrhs column-major
// at bm with leading dimension ldb.
//
// Each warp solves its own half of the columns alone, with the warp tier's
// steps (sweeps.cu: lane i holds rows i and i + 32, row k comes from its
// owner through the warp's buffer, a __syncwarp a step), in chunks of NR
// columns and then 8, 4, 2 and 1. So the steps wait on no block barrier,
// the two warps' chains run side by side, and X has the bits potrs_warp
// gives for the same factor. The earlier solve here, a row per thread and
// a block barrier on every step of both sweeps, lost to the vendor's
// substitutions. [H200] complex128, 1,024 systems of order 48 with 16
// right-hand sides, potrs_cta against the vendor: 223.3 µs against 102.0
// before, 103.1 against 102.0 with this solve (bench/results/h200/
// session37/, call 2, the two builds in one call), 71.6 against 101.5
// with potrs_cta's load below too (call 3); complex128 Posv n = 64, 16
// right-hand sides, 16,384 systems: 3514 before, 3074 now, the vendor's
// composition 5950 (call 2).
// The trapezoid is column-major, so L(k, row) across lanes strides by a
// column's length: bank conflicts in the backward sweep, which the
// factorization's layout imposes.
template <typename T, int NP, int NB, int NR>
__device__ __forceinline__ void cta_solve(const T* S, int n, T* bm, long long ldb, int nrhs) {
    using R = typename real_of<T>::type;
    static_assert(NP == 64, "two warps, rows lane and lane + 32");
    constexpr int WARPS = NP / 32;
    __shared__ __align__(16) T pubs[WARPS][2 * 16]; // each warp's two buffers of 16 (group_take)
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const trap_tile<T, NP, NB> at{S};
    const int ib = lane + 32;
    const R inva = R(1) / re(at(lane, lane));
    const R invb = ib < n ? R(1) / re(at(ib, ib)) : R(0);
    const int share = (nrhs + WARPS - 1) / WARPS;
    const int c1 = min(nrhs, (warp + 1) * share);
    int c0 = warp * share;
    T* const pub = pubs[warp];
#pragma unroll 1
    for (; c0 + NR <= c1; c0 += NR) warp_chunk<T, NR>(at, n, lane, inva, invb, bm, ldb, c0, pub);
    warp_tail<T, NR>(at, n, lane, inva, invb, bm, ldb, c0, c1, pub);
}

// posv_cta solves A·X = B for one matrix per block of NP threads: the
// factorization exactly as potrf_cta's (cta_factor, so A gets the same
// bits and info the same value), then, unless it failed, cta_solve. B is
// n×nrhs column-major with leading dimension ldb, matrix m at m·bstride; a
// failed matrix's B is neither read nor written.
template <typename T, int NP, int NB, int NR, bool UPPER>
__global__ void posv_cta(T* __restrict__ a, long long lda, long long stride, int n, T* __restrict__ b, long long ldb,
                         long long bstride, int nrhs, int* __restrict__ info, int vec) {
    const int fail = cta_factor<T, NP, NB, UPPER>(a, lda, stride, n, vec);
    if (threadIdx.x == 0) info[blockIdx.x] = fail;
    if (fail != 0) return; // uniform over the block
    // cta_factor's last barrier published the whole trapezoid.
    cta_solve<T, NP, NB, NR>(reinterpret_cast<const T*>(cta_shared), n, b + (long long)blockIdx.x * bstride, ldb, nrhs);
}

// potrs_cta solves A·X = B given A's factor as potrf_cta and posv_cta leave
// it (L in the lower triangle for Lower, U = Lᴴ in the upper one for Upper;
// only that triangle is read, the diagonal's real part only): thread t
// loads row t of L into the trapezoid, then cta_solve, the same steps as
// posv_cta's, so X has the same bits. info is not written (a zero on the
// diagonal gives infinities and NaNs, as LAPACK's substitution does).
template <typename T, int NP, int NB, int NR, bool UPPER>
__global__ void potrs_cta(const T* __restrict__ a, long long lda, long long stride, int n, T* __restrict__ b,
                          long long ldb, long long bstride, int nrhs) {
    T* const S = reinterpret_cast<T*>(cta_shared);
    const int t = threadIdx.x;
    // Row t of L: L(t, k) = A(t, k) (Lower) or conj(U(k, t)) (Upper), k ≤ t,
    // eight loads in flight before their stores. One load at a time, the
    // kernel waited on each. [H200] complex64, 16,384 systems of order 48
    // with one right-hand side: 585.6 µs with the warp's solve and one load
    // at a time against the vendor's 445.7 (bench/results/h200/session37/,
    // call 2), 335.1 against 445.3 with eight (call 3).
    const long long base = (long long)blockIdx.x * stride + (UPPER ? (long long)t * lda : (long long)t);
    const long long step = UPPER ? 1 : lda;
    constexpr int G = 8;
#pragma unroll 1
    for (int k0 = 0; t < n && k0 <= t; k0 += G) {
        T y[G];
#pragma unroll
        for (int e = 0; e < G; ++e)
            if (k0 + e <= t) y[e] = a[base + (k0 + e) * step];
#pragma unroll
        for (int e = 0; e < G; ++e) {
            const int k = k0 + e, K = k / NB;
            if (k <= t)
                S[trap_off<NP, NB>(K) + (k - K * NB) * (NP - K * NB) + (t - K * NB)] =
                    k == t ? from_real<T>(re(y[e])) : (UPPER ? conj_(y[e]) : y[e]);
        }
    }
    __syncthreads();
    cta_solve<T, NP, NB, NR>(S, n, b + (long long)blockIdx.x * bstride, ldb, nrhs);
}
