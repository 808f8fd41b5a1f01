// blocked.cu: the two native kernels of the blocked Cholesky driver
// (blocked.go says how the steps fit together and why).
//
// Orientation. Both kernels work on L, the lower factor. For Upper the
// matrix holds U = Lᴴ, so L(r, c) = conj(U(c, r)) is read at c + r·ld and
// written back conjugated. "Natural" index of L(r, c) in a buffer of
// leading dimension ld: r + c·ld (Lower) or c + r·ld (Upper). The update
// buffer D written by cuBLAS (D = Σ L·Lᴴ over the columns to the left)
// uses the same natural orientation as A, so the kernels read A − D
// element by element with one index formula. The TF32 split buffers are
// K-major in both orientations (split_store).
//
// Failure. chol_diag writes info = j + k for the first pivot k (1-based in
// the block) that is not > 0 (≤ 0 or NaN); it then writes only the columns
// before it and the failing pivot, and later steps of that matrix write
// nothing (chol_diag returns on info ≠ 0, chol_apply writes only the columns
// before the failure). A failed matrix thus holds what LAPACK's potf2 leaves:
// the first k−1 columns of L, the pivot, the rest of its triangle untouched.
// No loop's trip count depends on the matrices' values, and the branches
// around barriers that do (chol_tiled's, on the matrix's info) are uniform
// across the block: its threads read the info after the same flag, and
// any value a later diagonal task may store meanwhile takes the same
// branch. So NaN and Inf cannot hang anything.

// The natural index of L(r, c) in a buffer of leading dimension ld.
template <bool UPPER> __device__ __forceinline__ long long nat(long long r, long long c, long long ld) {
    return UPPER ? c + r * ld : r + c * ld;
}

// The diagonal factor: with the threads of a block, factor the w×w block
// held in shared memory, L11·L11ᴴ = s_a (lower part, real diagonal,
// identity outside w×w): L11 over s_a, X = L11⁻¹ into s_x (zero on entry)
// when inverse, and the first failing pivot (1-based column, 0 for none)
// and its value. It has three designs: factor_rows (below) for 32×32 float
// tiles in one warp, which chol_tiled's float kernels for one block a
// multiprocessor take, factor_quarters (below), the same in four warps,
// which its Upper 3xTF32 kernel for four blocks takes, and
// factor_subblocks, described here, for chol_diag and the rest of
// chol_tiled (double, complex, the other float kernels for four blocks,
// and the panel instantiations, see chol_tiled).
//
// Why factor_subblocks has this shape. chol_diag is pure latency: at
// batch 1 one block runs on an otherwise idle GPU, once per panel. Two
// column-at-a-time designs, one row per thread unrolled (150 KB of code)
// and a rolled loop with a row split over four threads (20 KB), both
// took 45–62 µs a panel on the H200
// (TestPhases; ncu: 6.9 cycles per issued instruction, 2 warps per
// scheduler): NB steps, each a block-wide barrier behind a chain of
// dependent instructions. Here only the SB = 16 columns of a sub-block go
// one at a time, inside one warp with shuffles and no barrier; the rest is
// block-wide products with a handful of barriers per sub-block.
//
// The warp pass is unrolled. A rolled one (the row rotated by one register
// each pivot, so that one loop body serves all 16: 5138 instead of 14642
// SASS instructions and 96 instead of 1491 shuffles for chol_diag float and
// double together, ptxas 11.8) was slower in chol_tiled by 4–39 % at every
// case timed but one (within 1 % at float32 exact n = 4096, one matrix),
// and unrolling it by 2 or 4 recovered only part of that (H200, session
// 12, bench/results/h200/session12/call1-variants.log.xz): the pass is not
// bound by fetching its instructions.
//
// Per sub-block k0 = 0, 16, …: (1) warp 0 factors the 16×16 diagonal
// sub-block in registers, lane i holding row i, and forms its inverse in
// the same pass: the row operations of the elimination applied to the
// identity give M = L̃⁻¹ (A = L̃·D·L̃ᴴ, L̃ unit lower), so L⁻¹ = D^(−1/2)·M,
// and entry (i, c) of a lane's row is A(i, c) while c is not yet eliminated
// and M(i, c) afterwards (−u at step c, 1 on the diagonal); (2) the rows
// below take L21 = A21·X11ᴴ; (3) the trailing lower triangle takes
// A22 −= L21·L21ᴴ. Afterwards the off-diagonal blocks of X come block row
// by block row, X_pq = −X_pp·Σ_r L_pr·X_rq.
//
// Failure. From the first pivot that is not > 0 (or NaN) on, the scale is
// 0: later columns of L are 0 and rows ≥ k of X are 0 for finite data; the
// leading k×k block of X is the inverse of L's whatever the data, because
// rows ≤ j take no part in step j and later sub-blocks only read earlier
// rows of X through L's leading block.
template <typename T> __device__ __forceinline__ T shfl(T v, int lane) { return __shfl_sync(0xffffffffu, v, lane); }
template <> __device__ __forceinline__ cfloat shfl<cfloat>(cfloat v, int lane) {
    return cfloat{__shfl_sync(0xffffffffu, v.re, lane), __shfl_sync(0xffffffffu, v.im, lane)};
}
template <> __device__ __forceinline__ cdouble shfl<cdouble>(cdouble v, int lane) {
    return cdouble{__shfl_sync(0xffffffffu, v.re, lane), __shfl_sync(0xffffffffu, v.im, lane)};
}

template <typename T, int NB, int NT>
__device__ __forceinline__ void factor_subblocks(T (*s_a)[NB + 1], T (*s_x)[NB + 1], int w, bool inverse, int& fail_out,
                                                 typename real_of<T>::type& dfail_out) {
    using R = typename real_of<T>::type;
    constexpr int SB = 16;      // sub-block width: the columns one warp eliminates one by one
    constexpr int P = NB / SB;  // sub-blocks
    static_assert(NB % SB == 0 && NT % 32 == 0 && NT >= 64, "whole sub-blocks, whole warps");
    constexpr int E2 = ((NB - SB) * SB + NT - 1) / NT;    // phase (2) entries per thread
    constexpr int E3 = ((NB - SB) * (NB - SB) + NT - 1) / NT; // phase (3)
    constexpr int EX = ((P - 1) * SB * SB + NT - 1) / NT;  // X's block row p, at most p·SB² entries
    __shared__ int s_fail;
    __shared__ R s_dfail;
    const int tid = threadIdx.x;
    const T zero = from_real<T>(R(0));

    int fail = 0;   // warp 0: 1-based column of the first pivot that is not > 0
    R dfail = R(0); // that pivot
#pragma unroll 1
    for (int k0 = 0; k0 < NB; k0 += SB) {
        // (1) The diagonal sub-block and its inverse, in warp 0. Lanes 16–31
        // mirror 0–15 so every shuffle has a full warp; only 0–15 store.
        if (tid < 32) {
            const int li = tid % SB;
            const bool store = tid < SB;
            T r[SB];
#pragma unroll
            for (int t = 0; t < SB; ++t) r[t] = t <= li ? s_a[k0 + li][k0 + t] : zero;
            __syncwarp(); // lanes 16–31 read the rows that lanes 0–15 overwrite below
            R rd = R(0); // 1/L(li, li)
#pragma unroll
            for (int j = 0; j < SB; ++j) {
                const R dv = re(shfl(r[j], j));
                if (!(dv > R(0)) && fail == 0 && k0 + j < w) { // NaN fails too; padding pivots never count
                    fail = k0 + j + 1;
                    dfail = dv;
                }
                const R sc = fail == 0 ? rsqrt_(dv) : R(0);
                const T l = scale(r[j], sc); // L(li, j) for li > j
                const T u = scale(l, sc);    // A(li, j)/A(j, j), without forming sc² (which overflows for tiny d)
                if (li == j) {
                    rd = sc;
                    // L(j, j) = d·rsqrt(d), except that d = +Inf gives +Inf as sqrt would.
                    if (store) s_a[k0 + j][k0 + j] = from_real<T>(isinf(dv) ? dv : dv * sc);
                } else if (li > j && store) {
                    s_a[k0 + li][k0 + j] = l;
                }
#pragma unroll
                for (int k = 0; k < SB; ++k) {
                    if (k == j) continue;
                    // k > j: A(li, k) −= u·conj(A(k, j)), A(k, j) from lane k;
                    // k < j: M(li, k) −= u·M(j, k), M(j, k) from lane j.
                    const T v = k > j ? conj_(shfl(r[j], k)) : shfl(r[k], j);
                    if (li > j) r[k] = sub_mul(r[k], u, v);
                }
                if (li > j) r[j] = sub(zero, u);
                else if (li == j) r[j] = from_real<T>(R(1));
            }
            if (store) {
#pragma unroll
                for (int t = 0; t < SB; ++t)
                    if (t <= li) s_x[k0 + li][k0 + t] = scale(r[t], rd);
            }
        }
        __syncthreads();
        const int rows = NB - k0 - SB; // below the sub-block
        if (rows == 0) break;          // uniform
        // (2) L21 = A21·X11ᴴ: entry (r, c) = Σ_{t ≤ c} A(r, k0+t)·conj(X(k0+c, k0+t)).
        T acc[E2];
#pragma unroll
        for (int q = 0; q < E2; ++q) {
            const int e = tid + q * NT;
            acc[q] = zero;
            if (e < rows * SB) {
                const int r = k0 + SB + e / SB, c = e % SB;
#pragma unroll
                for (int t = 0; t < SB; ++t) acc[q] = add_mul_conj(acc[q], s_a[r][k0 + t], s_x[k0 + c][k0 + t]);
            }
        }
        __syncthreads(); // every thread is done reading A21
#pragma unroll
        for (int q = 0; q < E2; ++q) {
            const int e = tid + q * NT;
            if (e < rows * SB) s_a[k0 + SB + e / SB][k0 + e % SB] = acc[q];
        }
        __syncthreads();
        // (3) A22 −= L21·L21ᴴ on and below the diagonal.
#pragma unroll
        for (int q = 0; q < E3; ++q) {
            const int e = tid + q * NT;
            if (e < rows * rows) {
                const int r = k0 + SB + e / rows, c = k0 + SB + e % rows;
                if (c <= r) {
                    T y = s_a[r][c];
#pragma unroll
                    for (int t = 0; t < SB; ++t) y = sub_mul_conj(y, s_a[r][k0 + t], s_a[c][k0 + t]);
                    s_a[r][c] = y;
                }
            }
        }
        __syncthreads();
    }
    if (tid == 0) {
        s_fail = fail;
        s_dfail = dfail;
    }
    __syncthreads();
    fail = s_fail;
    dfail = s_dfail;
    fail_out = fail;
    dfail_out = dfail;
    if (!inverse) return; // uniform
    // The blocks of X below the diagonal, block row p after block row p−1:
    // Y_q = Σ_{r=q}^{p−1} L_pr·X_rq into X_pq's place, then X_pq = −X_pp·Y_q.
#pragma unroll 1
    for (int p = 1; p < P; ++p) {
        T y[EX];
#pragma unroll
        for (int q = 0; q < EX; ++q) {
            const int e = tid + q * NT;
            y[q] = zero;
            if (e < p * SB * SB) {
                const int qb = e / (SB * SB), i = SB * p + (e / SB) % SB, c = SB * qb + e % SB;
#pragma unroll 4
                for (int k = SB * qb; k < SB * p; ++k) y[q] = add_mul(y[q], s_a[i][k], s_x[k][c]);
            }
        }
#pragma unroll
        for (int q = 0; q < EX; ++q) {
            const int e = tid + q * NT;
            if (e < p * SB * SB) s_x[SB * p + (e / SB) % SB][SB * (e / (SB * SB)) + e % SB] = y[q];
        }
        __syncthreads();
#pragma unroll
        for (int q = 0; q < EX; ++q) {
            const int e = tid + q * NT;
            y[q] = zero;
            if (e < p * SB * SB) {
                const int i = SB * p + (e / SB) % SB, c = SB * (e / (SB * SB)) + e % SB;
#pragma unroll
                for (int t = 0; t < SB; ++t) y[q] = sub_mul(y[q], s_x[i][SB * p + t], s_x[SB * p + t][c]);
            }
        }
        __syncthreads(); // every thread is done reading Y
#pragma unroll
        for (int q = 0; q < EX; ++q) {
            const int e = tid + q * NT;
            if (e < p * SB * SB) s_x[SB * p + (e / SB) % SB][SB * (e / (SB * SB)) + e % SB] = y[q];
        }
        __syncthreads();
    }
}

// ld4 and st4 move 4 consecutive floats between shared memory (16-byte
// aligned) and registers in one 16-byte access.
__device__ __forceinline__ void ld4(const float* p, float* v) {
    const float4 a = *reinterpret_cast<const float4*>(p);
    v[0] = a.x, v[1] = a.y, v[2] = a.z, v[3] = a.w;
}
__device__ __forceinline__ void st4(float* p, const float* v) { *reinterpret_cast<float4*>(p) = float4{v[0], v[1], v[2], v[3]}; }

// factor_step_block factors one step's S×S diagonal block d (its lower
// part, in registers) in place for factor_rows and factor_quarters, and
// leaves the step's reciprocal pivots in rd. The first pivot that is not
// positive (NaN too) among the step's columns c0… below w fails: fail and
// dfail take its 1-based column and value where fail was still 0, and from
// then on the pivots are 0.
//
// EAGER (session 58) computes each rsqrt whatever fail is and selects 0
// after it (the scalar prelude's pivot_rsqrt), so that the pivot's chain
// does not wait for the failure test (otherwise ptxas predicates the
// MUFU.RSQ on it): the same values, a
// shorter chain in warp 0. Through the cholesky-gpumode suite on an H100
// (bench/results/h200/session58, call 3, the auto arm by both builds in
// turns, two runs each, µs): n = 512 at 16 matrices 125.3 → 118.2,
// 1024 at 4 236.6 → 220.5, 2048 at 2 474.8 → 446.6, 4096 at one
// 1091 → 1076, 256 at 64 78.6 → 76.6; the factors bit for bit as before
// (the lab, call 1). factor_rows takes it in the 3xTF32 kernels only: the
// exact one-block kernels then took 8–80 B of local memory (CUDA 13, call
// 2). factor_quarters takes it since session 61, with the bounded inverse
// that kept the four-block Upper kernel from the local memory it took.
template <int S, bool EAGER = false>
__device__ __forceinline__ void factor_step_block(float (&d)[S][S], float (&rd)[S], int c0, int w, int& fail, float& dfail) {
#pragma unroll
    for (int t = 0; t < S; ++t) {
        const float dv = d[t][t];
        if (!(dv > 0.0f) && fail == 0 && c0 + t < w) { // padding pivots never count
            fail = c0 + t + 1;
            dfail = dv;
        }
        const float sc = pivot_rsqrt<false, EAGER>(dv, fail == 0);
        rd[t] = sc;
#pragma unroll
        for (int k = t + 1; k < S; ++k) d[k][t] *= sc;
#pragma unroll
        for (int k = t + 1; k < S; ++k)
#pragma unroll
            for (int u = t + 1; u <= k; ++u) d[k][u] = fmaf(-d[k][t], d[u][t], d[k][u]);
    }
}

// inverse_pivots4 forms rows k4…k4+3 of column li of X = L⁻¹ for
// factor_rows and factor_quarters, from L in s_l (step p's columns at
// [p][i][q]) and the reciprocal pivots in s_rd, into s_x: their own 4×4
// block one by one, then the rows below with one 16-byte read of L each;
// acc[i] gathers Σ L(i, m)·X(m, li) over the rows m formed so far. BOUND:
// a __syncwarp every 8 rows below bounds how far ptxas hoists their reads
// (factor_rows' TIGHT).
template <bool BOUND, int P, int N, int S>
__device__ __forceinline__ void inverse_pivots4(const float (&s_l)[P][N][S], const float (&s_rd)[N], float (*s_x)[33], int li, int k4,
                                              float (&acc)[N]) {
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
        if (BOUND && (i - k4) % 8 == 3) __syncwarp();
#pragma unroll
        for (int kk = 0; kk < 4; ++kk) acc[i] = fmaf(l4[kk], xs[kk], acc[i]);
    }
}

// smem_addr is p's address in the shared window, for PTX's shared:: operands.
__device__ __forceinline__ unsigned smem_addr(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }
// bar_init sets up the mbarrier at b for count arrivals a phase; bar_arrive
// is one thread's arrival (release, CTA scope); bar_wait waits (acquire)
// for the phase of the given parity to complete. factor_rows and
// factor_quarters publish their steps through them.
__device__ __forceinline__ void bar_init(unsigned long long* b, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(b)), "r"(count) : "memory");
}
__device__ __forceinline__ void bar_arrive(unsigned long long* b) {
    asm volatile("{\n .reg .b64 st;\n mbarrier.arrive.shared::cta.b64 st, [%0];\n}" ::"r"(smem_addr(b)) : "memory");
}
__device__ __forceinline__ void bar_wait(unsigned long long* b, unsigned parity) {
    unsigned done = 0;
    while (!done)
        asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done)
                     : "r"(smem_addr(b)), "r"(parity)
                     : "memory");
}
// bars_init (thread 0) sets up count mbarriers of one warp's 32 arrivals
// and their phase counter; the caller's full barrier must follow before
// they are used.
__device__ __forceinline__ void bars_init(unsigned long long* bars, int count, unsigned* phase) {
    if (threadIdx.x == 0) {
        for (int b = 0; b < count; ++b) bar_init(&bars[b], 32);
        *phase = 0;
    }
}

// rows_bars[p] completes when warp 0's 32 lanes have published step p,
// once a call; rows_phase keeps the parity. rows_init (before a full
// barrier) must run before the first call.
__shared__ __align__(8) unsigned long long rows_bars[4];
__shared__ unsigned rows_phase;
__device__ __forceinline__ void rows_init() { bars_init(rows_bars, 4, &rows_phase); }

// factor_rows is the diagonal factor for a 32×32 float block in warps 0
// and 1: warp 0 factors, lane i holding row i in registers, and warp 1
// forms the inverse behind it (Overlap below); the block's other warps only
// wait at its final barrier (chol_tiled gives them a tile to store first). Per
// step of 8 columns c0 = 0, 8, 16, 24: (a) every lane reads the step's 8×8
// diagonal block, as the steps before left it, and (b) factors it by
// itself, so the 8 pivots need no communication at all; (c) each lane
// solves its own row of L in these columns by forward substitution against
// that factor, with the same operations in the same order as (b), so the
// rows of the diagonal block come out bit for bit as (b) has them; (d) the
// rows go to shared memory (s_l) and (e) each lane subtracts them from the
// rest of its row: the next step's columns first, whose diagonal block
// then goes to s_d, and the rest in the next step after its reads, where
// it overlaps the next diagonal factor instead of delaying it. Lane j of
// warp 1 forms column j of X = L⁻¹ by forward substitution with the
// pivots' 1/L(k, k) from the factor (0 from a failed pivot on, as in
// factor_subblocks: later columns of L and rows of X are then 0 for finite
// data, and X's leading block is the inverse of L's).
//
// Why. factor_subblocks waits, at every pivot, for shuffles of the pivot
// and its column across the warp (about 210 ns a pivot in session 9's
// float64 trace). Here a pivot's chain is the lane's own rsqrt, multiply
// and fused multiply-add, and the warp meets in shared memory twice per 8
// columns. On the H200 (session 17, bench/results/h200/session17): alone
// on one block, in its first, type-generic form, 7679 cycles a factor and
// inverse against factor_subblocks' 15736 (float; double 13892 against
// 25986); in chol_tiled, float32 Upper, one matrix, that form took 69.5 µs
// against 83.2 at n = 256 and 278 against 330 at n = 1024. A __syncwarp
// every 8 columns of the deferred update bounds how far ptxas hoists its
// shared-memory reads: in the generic form it removed the 8 B of local
// memory of one panel instantiation and cost under 1 %; this form was
// measured only with it. Steps of 4 columns were within 3 % and spilled.
// Where it is used, chol_tiled takes 252–255 registers (119–236 with
// factor_subblocks) and no local memory. The blocked driver's panel
// instantiations of chol_tiled spilled with it while the split loop staged
// its tiles in registers (16 B, Upper split, session 17); since that loop
// copies by cp.async (session 19) they take it too (session 20). Double
// and cfloat keep factor_subblocks (the same code with 8-byte entries took
// chol_tiled to 255 registers and 8–40 B of local memory), and so do the
// float kernels built for four blocks a multiprocessor (chol_tiled's
// Occupancy).
//
// Overlap (session 57). Until then warp 0 formed X after its factor, on
// the chain from one diagonal tile to the next. globaltimer stamps in
// chol_tiled's one-block 3xTF32 kernels (H100; bench/results/h200/
// session57/lab/stamps.py) put a tile step at 8.3–9 µs, 5.3 of them the
// factor and inverse, and the same kernel without the inverse (wrong
// factors, a bound) 7–15 % faster through the suite's chains. So warp 0
// publishes each step once its columns are in s_l and its pivots in s_rd
// (an mbarrier a step, rows_bars, 32 arrivals), and warp 1 forms that
// step's pivots of every column of X as soon as it sees it, so that only
// the last step's follow the factor, as in factor_quarters. The same
// operations in the same order: the bits of L and X do not change (the
// lab's form, call 6, bit for bit at five orders and on a failing
// matrix). Through the cholesky-gpumode suite on an H100 (call 8, the
// auto arm by both builds in turns, two runs each, µs, before → after):
// n = 512 at 16 matrices 139.0 → 125.4, n = 1024 at 4 262.8 → 236.4,
// n = 2048 at 2 530.7 → 474.9, n = 4096 at one 1148 → 1096, n = 256 at
// 64 82.0 → 79.2, n = 16384 at one (the blocked driver's tiled panels)
// 23601 → 23398; the four-block kernels' cases unchanged. The wait every
// 8 columns also bounds how far ptxas hoists the inverse's reads of L,
// which a __syncwarp did before (chol_tiled's kernels with prefix tasks
// spilled 8–16 B under CUDA 13 without it, session 31); the kernels keep
// 253–255 registers and no local memory under CUDA 13. The lab's form
// published through a counter in shared memory (st.release and ld.acquire
// at CTA scope), which took the kernels to 178–188 registers, but
// racecheck reported hazards between the accesses it orders (call 7), as
// it did for named barriers (session 50); with the mbarriers it reports
// none (call 8).
// EAGER is factor_step_block's (chol_tiled passes SPLIT). TIGHT (the
// kernels for three blocks a multiprocessor, 168 registers): warp 1 waits
// at a __syncwarp every 8 rows of each step of the inverse as well, which
// bounds how many rows' reads of L ptxas holds at once. Without it the
// Lower kernel kept an accumulator and the mbarrier parity in an 8 B stack
// frame under CUDA 13 (session 60, call 2's SASS with -lineinfo); with it
// neither kernel has one, and on an H100 the Lower kernel ran 0.5–3.6 %
// faster and the Upper one within 0.8 % (call 3, lab/occ3L.py, the same
// bits). Needs NT ≥ 64 and rows_init before the first call (chol_tiled's
// ROWS).
template <int NT, bool EAGER, bool TIGHT>
__device__ __forceinline__ void factor_rows(float (*s_a)[33], float (*s_x)[33], int w, bool inverse, int& fail_out,
                                            float& dfail_out) {
    constexpr int N = 32, S = 8, P = N / S;
    __shared__ __align__(16) float s_l[P][N][S]; // L(i, S·p + q) at [p][i][q]; 0 above the diagonal
    __shared__ __align__(16) float s_d[P][S][S]; // step p's diagonal block, as the steps before left it
    __shared__ float s_rd[N];                    // 1/L(k, k); 0 from a failed pivot on
    __shared__ int s_fail;
    __shared__ float s_dfail;
    if (threadIdx.x < 32) {
        const int li = threadIdx.x;
        float r[N]; // row li: A's, then L's as the steps finish it (entries right of the diagonal are scratch)
#pragma unroll
        for (int t = 0; t < N; ++t) r[t] = s_a[li][t];
        if (li < S) {
            st4(&s_d[0][li][0], &r[0]);
            st4(&s_d[0][li][4], &r[4]);
        }
        int fail = 0;       // 1-based column of the first pivot that is not > 0
        float dfail = 0.0f; // that pivot
#pragma unroll
        for (int p = 0; p < P; ++p) {
            const int c0 = S * p;
            __syncwarp(); // s_d[p] and s_l[p − 1] are written
            float d[S][S]; // lower part only: rows 0–3 read just their first 4 entries
#pragma unroll
            for (int q = 0; q < S; ++q) {
                ld4(&s_d[p][q][0], &d[q][0]);
                if (q >= 4) ld4(&s_d[p][q][4], &d[q][4]);
            }
            if (p > 0) {
                // The deferred part of step p − 1's update: the columns
                // after this step's.
#pragma unroll
                for (int c = c0 + S; c < N; ++c) {
                    if ((c - c0) % 8 == 0) __syncwarp(); // bounds how far ptxas hoists the reads (see above)
                    float lc[S];
                    ld4(&s_l[p - 1][c][0], &lc[0]);
                    ld4(&s_l[p - 1][c][4], &lc[4]);
#pragma unroll
                    for (int q = 0; q < S; ++q) r[c] = fmaf(-r[c0 - S + q], lc[q], r[c]);
                }
            }
            // (b) The diagonal block, in every lane.
            float rd[S];
            factor_step_block<S, EAGER>(d, rd, c0, w, fail, dfail);
            if (li == 0) {
#pragma unroll
                for (int t = 0; t < S; ++t) s_rd[c0 + t] = rd[t];
            }
            // (c) This lane's row in the step's columns.
#pragma unroll
            for (int t = 0; t < S; ++t) {
                float y = r[c0 + t];
#pragma unroll
                for (int q = 0; q < t; ++q) y = fmaf(-r[c0 + q], d[t][q], y);
                float x = y * rd[t];
                // L(j, j) = d·rsqrt(d), except that d = +Inf gives +Inf as sqrt would.
                if (li == c0 + t) x = isinf(y) ? y : y * rd[t];
                if (li < c0 + t) x = 0.0f;
                r[c0 + t] = x;
            }
            // (d) The step's columns are final: to s_l for the others, to s_a.
            st4(&s_l[p][li][0], &r[c0]);
            st4(&s_l[p][li][4], &r[c0 + 4]);
#pragma unroll
            for (int t = 0; t < S; ++t)
                if (c0 + t <= li) s_a[li][c0 + t] = r[c0 + t];
            bar_arrive(&rows_bars[p]); // s_l[p] and (lane 0) s_rd's step p, to warp 1
            if (p + 1 < P) {
                // (e) The next step's columns, and its diagonal block.
                __syncwarp();
#pragma unroll
                for (int c = c0 + S; c < c0 + 2 * S; ++c) {
                    float lc[S];
                    ld4(&s_l[p][c][0], &lc[0]);
                    ld4(&s_l[p][c][4], &lc[4]);
#pragma unroll
                    for (int q = 0; q < S; ++q) r[c] = fmaf(-r[c0 + q], lc[q], r[c]);
                }
                if (li >= c0 + S && li < c0 + 2 * S) {
                    st4(&s_d[p + 1][li - c0 - S][0], &r[c0 + S]);
                    st4(&s_d[p + 1][li - c0 - S][4], &r[c0 + S + 4]);
                }
            }
        }
        if (li == 0) {
            s_fail = fail;
            s_dfail = dfail;
        }
    } else if (threadIdx.x < 64) {
        // Warp 1: the inverse, each step's pivots once warp 0 has published them.
        const int li = threadIdx.x - 32;
        const unsigned parity = rows_phase & 1;
        if (inverse) {
            // Column j = li of X: X(k, j) = −(1/L(k, k))·Σ_{j≤m<k} L(k, m)·X(m, j),
            // X(j, j) = 1/L(j, j); acc[i] gathers the sum as the X(m, j) come.
            float acc[N];
#pragma unroll
            for (int i = 0; i < N; ++i) acc[i] = 0.0f;
#pragma unroll
            for (int k4 = 0; k4 < N; k4 += 4) {
                if (k4 % S == 0) bar_wait(&rows_bars[k4 / S], parity); // step k4/S's columns and pivots (Overlap above)
                // Four pivots at a time.
                inverse_pivots4<TIGHT>(s_l, s_rd, s_x, li, k4, acc);
            }
        }
    }
    __syncthreads();
    fail_out = s_fail;
    dfail_out = s_dfail;
    // The next call reads the phase after the caller's full barriers.
    if (threadIdx.x == 0) rows_phase += 1;
}

// factor_quarters is factor_rows with its four steps of 8 columns dealt
// to the block's four warps and the inverse formed by warp 0 while the
// later steps run. chol_tiled's 3xTF32 kernels for four blocks a
// multiprocessor take it in place of factor_subblocks (Upper since session
// 53, Lower since session 61).
//
// Why. The diagonal factor is most of the chain from one diagonal tile to
// the next (session 21's stamps, n = 1024 at 4 matrices: about 6.5 of a
// 9 µs step from the factor's start to the flag), and factor_rows keeps all
// of it in warp 0 while the other three wait: each step's deferred update
// of the columns beyond the next step's (up to 16 columns of 8 terms a
// lane) and the whole inverse (32 pivots). Here warp q keeps columns
// 8q…8q+7 of every row (lane i row i) and applies each earlier step's
// update as soon as that step's warp has published its columns, so the
// chain is, per step, one update of 8 columns, the 8×8 diagonal block and
// the substitution of a row. Warp 0, free after step 0, forms X column by
// column as factor_rows does, each step's pivots as soon as that step is
// published, so only the last step's pivots follow the factor.
//
// Same operations in the same order as factor_rows for every entry of L
// and X (the updates of a column come step after step, 8 terms in order;
// the diagonal block, the substitution and the inverse are its code), so
// the bits are the same; failure as factor_rows (the first failing pivot,
// carried from step to step in s_fails). Measured (bench/results/h200/
// session50/ and session53/): alone on one block of the H200 8001 cycles
// a factor and inverse against factor_rows' 8875. In the Upper 3xTF32
// kernel for four blocks (other bits than factor_subblocks', which orders
// its sums otherwise) 2–16 % faster in the H200's lab, and 1.5–12.5 %
// through the cholesky-gpumode suite on an H100 (session 53, call 3, two
// runs each: n = 2048 at 8 matrices 885 → 772 µs, 4096 at 2 1671 → 1466,
// 8192 at 1 4712 → 4519, 512 at 640 1764 → 1716, 1024 at 60 825 → 813).
// The Lower kernel took a stack frame with it under CUDA 13 (16 B in
// session 50; 8 B in session 60, compiled in its own module: warp 0's
// inverse held the mbarrier parity and an accumulator), so it factored
// with factor_subblocks until session 61. The mends, in warp 0's loop: the
// inverse bounded as factor_rows' TIGHT and its parity read at each wait;
// either alone left 8 B. With them no frame, and on an H100 (session 60,
// call 5, lab/quarters.py, the bits of the one-block kernel, µs,
// factor_subblocks → factor_quarters) n = 2048 at 2 777.9 → 634.3, at 8
// 1024.0 → 912.9, 4096 at 2 1938.7 → 1711.7, 512 at 640 1901.0 → 1873.8,
// 1024 at 60 979.5 → 966.5, 8192 at 1 5895.6 → 5817.2; through Potrf
// (session 61, call 1, H100, Lower) 1.1–12 % (n = 2048 at 8 1041 → 919.4,
// 4096 at 2 1955 → 1719). The pivots by factor_step_block's EAGER rsqrt:
// with the mends both kernels have no frame (Upper kept 8 B with EAGER
// alone), and through Potrf on an H100 (session 61, call 2, the same
// bits) Lower is 1.2–3.8 % faster (n = 4096 at 2 1729 → 1663 µs, 8192 at
// 1 5834 → 5710), Upper 1.7–2.6 % at n = 2048 at 8 (773.3 → 760.5) and
// 4096 at 2 (1454 → 1416) and within 0.4 % at the others (the mends alone
// had cost Upper 0.1–1.1 %, session 60). In the one-block kernels, in
// factor_rows' place with warp 0 storing tile
// (j, j − 1) first, up to 10 % faster in the lab (n = 256 at 64 matrices)
// but 1–4 % slower through the suite on the H100 (session 53, call 2),
// so they keep factor_rows.
//
// Publishing: step p is published to warp q through an mbarrier of its
// own, B(p, q) (32 arrivals from warp p, a wait by warp q), so that no warp
// waits for a third. Each completes once a call, and the block keeps the
// phase parity in quarters_phase: quarters_init must run (thread 0, before
// a full barrier) before the first call. Two other forms were measured in
// the lab (bench/results/h200/session48/lab/quarters.cuh): named barriers
// (bar.arrive/bar.sync) were as fast, but racecheck reported hazards
// between accesses the barriers order (44, session 50; as session 34 saw
// wherever chol_tiled used named barriers for part of the block), and a
// __syncthreads after each step was 5–8 % slower than factor_rows in
// chol_tiled. Needs NT = 128.

// The mbarriers B(p, q) at [id − 1], id = 1 + 4p + q.
__shared__ __align__(8) unsigned long long quarters_bars[13];
__shared__ unsigned quarters_phase;
__device__ __forceinline__ void quarters_init() { bars_init(quarters_bars, 13, &quarters_phase); }
__device__ __forceinline__ void mbar_arrive(int id) { bar_arrive(&quarters_bars[id - 1]); }
__device__ __forceinline__ void mbar_wait(int id, unsigned parity) { bar_wait(&quarters_bars[id - 1], parity); }

template <int NT>
__device__ __forceinline__ void factor_quarters(float (*s_a)[33], float (*s_x)[33], int w, bool inverse, int& fail_out,
                                                float& dfail_out) {
    constexpr int N = 32, S = 8, P = N / S;
    static_assert(NT == 32 * P, "a warp for each step's columns");
    __shared__ __align__(16) float s_l[P][N][S]; // L(i, S·p + q) at [p][i][q]; 0 above the diagonal
    __shared__ __align__(16) float s_d[P][S][S]; // step p's diagonal block, as the steps before left it
    __shared__ float s_rd[N];                    // 1/L(k, k); 0 from a failed pivot on
    __shared__ int s_fails[P];                   // the first failing pivot (1-based) after step p, 0 for none
    __shared__ float s_dfails[P];                // its value
    const int q = threadIdx.x / 32, li = threadIdx.x % 32, c0 = S * q;
    auto B = [](int p, int q) { return 1 + P * p + q; }; // step p published to warp q
    const unsigned parity = quarters_phase & 1;
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
        factor_step_block<S, true>(d, rd, c0, w, fail, dfail);
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

    // The earlier steps' updates, each as soon as its warp has published.
#pragma unroll 1
    for (int p = 0; p < q; ++p) {
        mbar_wait(B(p, q), parity);
        update(p);
    }
    step();
    // Every mbarrier completes once a call, so that the parity holds.
#pragma unroll 1
    for (int u = q + 1; u < P; ++u) mbar_arrive(B(q, u));
    if (q > 0) mbar_arrive(B(q, 0));
    if (inverse && q == 0) {
        __syncwarp(); // step 0's s_l and s_rd are complete
        // Warp 0's inverse, column li of X as factor_rows forms it.
        float acc[N];
#pragma unroll
        for (int i = 0; i < N; ++i) acc[i] = 0.0f;
#pragma unroll
        for (int k4 = 0; k4 < N; k4 += 4) {
            // Step k4/S's columns and pivots are published. The wait, and a
            // __syncwarp between, bound how far ptxas hoists the reads (as
            // factor_rows' waits; without the __syncwarp chol_tiled's
            // one-block kernels took 8–16 B of stack under NVRTC 12.4).
            // The parity is read at each wait (mbar_wait's asm clobbers
            // memory), not held through the loop, and inverse_pivots4 is
            // bounded (the mends of factor_quarters' comment).
            if (k4 > 0 && k4 % S == 0) mbar_wait(B(k4 / S, 0), quarters_phase & 1);
            else if (k4 > 0) __syncwarp();
            inverse_pivots4<true>(s_l, s_rd, s_x, li, k4, acc);
        }
    }
    __syncthreads();
    fail_out = s_fails[P - 1];
    dfail_out = s_dfails[P - 1];
    // The next call reads the phase after the caller's full barriers.
    if (threadIdx.x == 0) quarters_phase += 1;
}

// store_inverse writes X from s_x to xm (NB×NB, X(r, c) at r + c·NB).
template <typename T, int NB, int NT> __device__ __forceinline__ void store_inverse(T* xm, const T (*s_x)[NB + 1]) {
#pragma unroll 4
    for (int e = threadIdx.x; e < NB * NB; e += NT) xm[e] = s_x[e % NB][e / NB];
}

// store_block writes the factored w×w block of s_a to am (its uplo triangle
// only) as potf2 leaves it after a failure at 1-based column fail (0: none):
// the columns before it and the failing pivot dfail. X goes to xm (NB×NB,
// X(r, c) at r + c·NB) when xm is not null.
template <typename T, int NB, int NT, bool UPPER>
__device__ __forceinline__ void store_block(T* am, long long lda, const T (*s_a)[NB + 1], const T (*s_x)[NB + 1], int w,
                                            int fail, typename real_of<T>::type dfail, T* xm) {
    const int lim = fail != 0 ? fail - 1 : w; // columns [0, lim) of L are final
#pragma unroll 4
    for (int e = threadIdx.x; e < NB * NB; e += NT) {
        const int fast = e % NB, slow = e / NB;
        const int r = UPPER ? slow : fast;
        const int c = UPPER ? fast : slow;
        const bool pivot = fail != 0 && r == fail - 1 && c == r;
        if (r < w && c <= r && (c < lim || pivot)) {
            const T v = pivot ? from_real<T>(dfail) : s_a[r][c];
            am[nat<UPPER>(r, c, lda)] = UPPER ? conj_(v) : v;
        }
    }
    if (xm != nullptr) store_inverse<T, NB, NT>(xm, s_x);
}

// chol_diag factors the w×w diagonal block of one panel, L11·L11ᴴ =
// A11 − D11, for one matrix per block of NT threads, and writes L11 over
// A11 (its uplo triangle only), info, and X = L11⁻¹ to x (NB×NB per matrix,
// column-major) when x is not null.
//
// Launch bounds. For double, a minimum of one block per multiprocessor
// changes ptxas's schedule (106 → 98 registers, CUDA 13) and the exact
// driver took 7–16 % less time at n = 256…4096, one to 60 matrices, on
// the H200 (TestTiming, one process per variant, cuSOLVER's times within
// 1 %). For float the same bound gave 101 registers instead of 80, two
// blocks a multiprocessor instead of three, and 7 % more time at n = 512,
// 640 matrices; it gained 1–5 % at one or two matrices. 0 leaves ptxas's
// default (no .minnctapersm); complex was not measured and keeps it.
template <typename T> struct diag_min_blocks {
    static constexpr int value = 0;
};
template <> struct diag_min_blocks<double> {
    static constexpr int value = 1;
};

template <typename T, int NB, int NT, bool UPPER>
__global__ void __launch_bounds__(NT, diag_min_blocks<T>::value)
    chol_diag(T* __restrict__ a, long long lda, long long stride, const T* __restrict__ d, long long ldd,
              long long dstride, T* __restrict__ x, int* __restrict__ info, int j0, int w, int first) {
    using R = typename real_of<T>::type;
    __shared__ T s_a[NB][NB + 1]; // A11 − D11, then L(r, c) at [r][c]; the pitch keeps row and column walks conflict-free
    __shared__ T s_x[NB][NB + 1]; // X(r, c) at [r][c]

    const int tid = threadIdx.x;
    const long long m = blockIdx.x;
    // A matrix that failed in an earlier panel is left alone (uniform over
    // the block, before any barrier).
    if (!first && info[m] != 0) return;

    T* const am = a + m * stride + (long long)j0 * (lda + 1);        // element (j0, j0)
    const T* const dm = d != nullptr ? d + m * dstride : nullptr; // D11, already offset
    const T zero = from_real<T>(R(0));

    // Load A11 − D11 (lower part of L's orientation, real diagonal),
    // identity outside the w×w block; X starts at zero. Consecutive threads
    // take consecutive addresses in either orientation.
#pragma unroll 4
    for (int e = tid; e < NB * NB; e += NT) {
        const int fast = e % NB, slow = e / NB;
        const int r = UPPER ? slow : fast;
        const int c = UPPER ? fast : slow;
        T v = from_real<T>(r == c ? R(1) : R(0));
        if (r < w && c <= r) {
            T y = am[nat<UPPER>(r, c, lda)];
            if (dm != nullptr) y = sub(y, dm[nat<UPPER>(r, c, ldd)]);
            v = r == c ? from_real<T>(re(y)) : (UPPER ? conj_(y) : y);
        }
        s_a[r][c] = v;
        s_x[r][c] = zero;
    }
    __syncthreads();
    int fail;
    R dfail;
    factor_subblocks<T, NB, NT>(s_a, s_x, w, x != nullptr, fail, dfail);
    store_block<T, NB, NT, UPPER>(am, lda, s_a, s_x, w, fail, dfail, x != nullptr ? x + m * (long long)(NB * NB) : nullptr);
    if (tid == 0) {
        if (first) {
            info[m] = fail != 0 ? j0 + fail : 0;
        } else if (fail != 0) {
            info[m] = j0 + fail;
        }
    }
}

// tf32_bits rounds v to TF32 (the top 10 explicit mantissa bits, to
// nearest, ties away from zero, as cvt.rna.tf32.f32) and returns its bits,
// an operand of mma's .tf32 form.
__device__ __forceinline__ unsigned tf32_bits(float v) { return (__float_as_uint(v) + 0x1000u) & 0xffffe000u; }

// split_tf32 writes v = h + l with h rounded to TF32 (tf32_bits) and
// l = v − h, which is exact in FP32. A TF32 product of h then loses nothing.
// A NaN stays NaN in h: rounded, the GPU's NaN (0x7fffffff) carries into
// the sign bit and becomes −0, and TF32 (hi alone) would lose it.
__device__ __forceinline__ void split_tf32(float v, float& h, float& l) {
    h = v != v ? v : __uint_as_float(tf32_bits(v));
    l = v - h;
}

// split_store writes the TF32 split of v (split_tf32) to hi[i] and, when
// lo is not null, lo[i]; only float has one (the blocked driver's
// Split3TF32 reads both, its TF32 hi alone). The split
// buffers are K-major in both orientations, L(r, c) at nat<true>(r, c) =
// c + r·ldh, for the products that read them: with L's rows contiguous
// (Lower's natural order) cuBLAS's TF32 products ran at 195 TF/s against
// 369 K-major on the H200 (15872×2048×768, session 13, call 2; padding the
// leading dimension changed nothing, call 3), most likely because Hopper's
// wgmma transposes only 16-bit operands.
__device__ __forceinline__ void split_store(float* hi, float* lo, long long i, float v) {
    float h, l;
    split_tf32(v, h, l);
    hi[i] = h;
    if (lo != nullptr) lo[i] = l; // TF32 (one product) reads hi only
}
template <typename T> __device__ __forceinline__ void split_store(float*, float*, long long, T) {}

enum { kApplyThreads = 256 };

// chol_apply solves one row tile of the panel below the diagonal block,
// L21 = (A21 − D21)·L11⁻ᴴ = (A21 − D21)·Xᴴ, in place: TR rows × w columns
// per block of 256 threads (16×16, each TR/16 rows × NB/16 columns of the
// output), one matrix and tile per block. In place is safe because a block
// reads all of its rows before writing them and no other block touches
// them; a cuBLAS product could not write over its own operand. The TF32
// split of each written value goes to hi/lo when SPLIT (float only), for
// the split-precision updates of later panels.
//
// Basis: [B200] the triangular inverse plus a product beat per-row
// substitution (5.1 TF/s, shared-bandwidth bound) by 20.9 % at n = 1024
// batch 4 (kernel-lessons §12). The product is 2·TR·NB² flops per block,
// small next to its traffic (A21 and D21 in, L21 out), so it stays in FP32
// SIMT; X's strict upper triangle is zero, so the loop runs over all NB
// columns without a test.
template <typename T, int NB, int TR, bool UPPER, bool SPLIT>
__global__ void __launch_bounds__(kApplyThreads) chol_apply(T* __restrict__ a, long long lda, long long stride,
                                                           const T* __restrict__ d, long long ldd, long long dstride,
                                                           const T* __restrict__ x, float* __restrict__ hi,
                                                           float* __restrict__ lo, long long ldh, long long hstride,
                                                           const int* __restrict__ info, int j, int w, int rows,
                                                           int tiles) {
    static_assert(TR % 16 == 0 && NB % 16 == 0, "16×16 threads");
    static_assert(!SPLIT || sizeof(T) == 4, "the TF32 split is for float only");
    constexpr int RI = TR / 16, CQ = NB / 16;

    __shared__ T s_x[NB][NB + 1]; // X(c, t) at [c][t]
    __shared__ T s_p[TR][NB + 1]; // (A21 − D21)(r, t) at [r][t], then the result

    const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
    const long long m = blockIdx.x / tiles;
    const int tile = blockIdx.x % tiles;
    const int f = info[m];
    // Columns to write: all w, those before the failing pivot when the
    // matrix failed in this panel, none when it failed earlier.
    const int lim = f == 0 ? w : min(w, f - 1 - j);
    if (lim <= 0) return; // uniform over the block

    const int i0 = tile * TR; // first row of the tile, counted from row j + w
    const int nr = min(TR, rows - i0);
    T* const am = a + m * stride + nat<UPPER>((long long)j + w + i0, j, lda);          // L(j+w+i0, j)
    const T* const dm = d != nullptr ? d + m * dstride + nat<UPPER>(i0, 0, ldd) : nullptr; // D row i0 of L21
    const T* const xm = x + m * (long long)(NB * NB);

#pragma unroll
    for (int e = tid; e < NB * NB; e += kApplyThreads) s_x[e % NB][e / NB] = xm[e];
#pragma unroll
    for (int e = tid; e < TR * NB; e += kApplyThreads) {
        const int r = UPPER ? e / NB : e % TR;
        const int c = UPPER ? e % NB : e / TR;
        // Columns from the failure on are not read: they may hold NaN (a
        // NaN row of the input reaches all of D's columns), and NaN·0 would
        // spoil the columns before the failure through X's zero upper part.
        T v = from_real<T>(0);
        if (r < nr && c < lim) {
            T y = am[nat<UPPER>(r, c, lda)];
            if (dm != nullptr) y = sub(y, dm[nat<UPPER>(r, c, ldd)]);
            v = UPPER ? conj_(y) : y;
        }
        s_p[r][c] = v;
    }
    __syncthreads();

    T acc[RI][CQ];
#pragma unroll
    for (int r = 0; r < RI; ++r)
#pragma unroll
        for (int q = 0; q < CQ; ++q) acc[r][q] = from_real<T>(0);
#pragma unroll 4
    for (int t = 0; t < NB; ++t) {
        T pa[RI], xb[CQ];
#pragma unroll
        for (int r = 0; r < RI; ++r) pa[r] = s_p[ty + 16 * r][t];
#pragma unroll
        for (int q = 0; q < CQ; ++q) xb[q] = s_x[tx + 16 * q][t];
#pragma unroll
        for (int r = 0; r < RI; ++r)
#pragma unroll
            for (int q = 0; q < CQ; ++q) acc[r][q] = add_mul_conj(acc[r][q], pa[r], xb[q]);
    }
    __syncthreads(); // every thread is done reading s_p
#pragma unroll
    for (int r = 0; r < RI; ++r)
#pragma unroll
        for (int q = 0; q < CQ; ++q) s_p[ty + 16 * r][tx + 16 * q] = acc[r][q];
    __syncthreads();

#pragma unroll
    for (int e = tid; e < TR * NB; e += kApplyThreads) {
        const int r = UPPER ? e / NB : e % TR;
        const int c = UPPER ? e % NB : e / TR;
        if (r < nr && c < lim) am[nat<UPPER>(r, c, lda)] = UPPER ? conj_(s_p[r][c]) : s_p[r][c];
    }
    if constexpr (SPLIT) {
        // The split is K-major in both orientations (see split_store):
        // columns fastest here, rows fastest above for Lower's A.
        float* const hm = hi + m * hstride + nat<true>((long long)j + w + i0, j, ldh);
        float* const lm = lo != nullptr ? lo + m * hstride + nat<true>((long long)j + w + i0, j, ldh) : nullptr;
#pragma unroll
        for (int e = tid; e < TR * NB; e += kApplyThreads) {
            const int r = e / NB, c = e % NB;
            if (r < nr && c < lim) split_store(hm, lm, nat<true>(r, c, ldh), s_p[r][c]);
        }
    }
}

// ---- chol_tiled: the whole factorization in one launch ----
//
// chol_tiled factors count matrices with TS×TS tiles, left-looking, each
// task by one block of NT threads, all in one launch. Tile (i, j), i ≥ j,
// of L is C = A(i, j) − Σ_{k<j} L(i, k)·L(j, k)ᴴ, then the diagonal
// factor's L(j, j) and X_j = L(j, j)⁻¹ (i = j) or L(i, j) = C·X_jᴴ
// (i > j). The task of diagonal tile j also makes tile (j, j−1), the one
// its last update needs: the chain from one diagonal tile to the next is
// then one block (X_{j−1} in, a tile solve, an update from shared memory,
// the factor) with no tile passed through another block on the way.
//
// A block takes the next task from a ticket counter, in the order (group
// g: diagonal task g, then the tiles (i, g − 1), i ≥ g + 1; matrix
// fastest; Order below), and waits for a tile it reads by spinning on the
// tile's flag, which the writing block sets with release order after
// storing the tile. Every task waits only on tasks with earlier tickets,
// and a block takes a ticket only while it runs, so the earliest
// unfinished task can always go on: no co-residency is assumed, and the
// grid may be any size.
//
// Why. At batch 1 the blocked driver is a chain of launches, three per
// panel (cuBLAS product, chol_diag, chol_apply), each a few µs of launch
// and drain on an idle GPU; for float64 below n = 2048 that chain is the
// whole time (about 27 µs a 32-column panel against cuSOLVER's 15). Here a
// float64 column cost 13 µs on the H200 at batch 1 (session 9, before the
// register change below; globaltimer stamps at n = 128…1024): the factor
// 7.8 (of which its two 16-pivot warp passes 6.8), the tile solve 2.2, the
// hand-over from the previous diagonal task 0.7, the update 0.7 and the
// stores 1.2. Tried in the factor (factor_subblocks) and not faster: one
// 32-pivot warp pass (8.4–9.0 µs), that pass without branches (7.9), with
// the next pivot's 1/√d moved ahead of the other updates (15.1), and with
// the pivot column passed through shared memory instead of shuffles and X
// formed after the pass (15 % slower at n = 256…1024).
//
// Registers. With __launch_bounds__(NT) alone, ptxas gave the float64 Lower
// instantiation 128 registers (Upper 160) and it ran 1.4× slower than
// Upper: 152 against 110 µs at n = 256 (H200, CUDA 13). Given more (181,
// under a 200-register cap) it ran as fast as Upper. A minimum of one block
// per multiprocessor lifts the heuristic's ceiling: float64 168 (Lower) and
// 184 (Upper) registers, 112 and 110 µs; float32 unchanged in time (116 and
// 128 registers), complex 154–236, no local memory. Two blocks a
// multiprocessor, the default grid, still fit every type.
//
// Split products (SPLIT, float only; TiledOptions.Precision). The tile
// products run on the tensor cores as three TF32 products (SplitTile), and
// the k loop keeps two steps of tile loads in flight with one barrier a
// step. H200, float32 Lower, one process (session 11, TestTiming), exact
// against split, µs: n = 2048 at 2 matrices 1167 → 803, n = 4096 at one
// 3994 → 2246 (the blocked driver 3497, cuSOLVER's Xpotrf 1549), n = 1024
// at 4 400 → 386; at one matrix and n ≤ 1024 split is 10–18 % slower (the
// exact kernel keeps those rows). Reading 32 steps' flags from warp 0
// (with SplitTile's two accumulators, one change) took 2–11 % off at
// n ≥ 2048 against thread 0 reading each step's, and the second step of
// loads in flight 2–8 % more. At n = 8192 it takes 15.1 ms against the
// blocked driver's 10.2: a task reads two tiles a step, about nt³/3 tiles
// in all (nt = n/32), 23 GB at n = 8192 or 1.5 TB/s over those 15 ms, most
// of it from HBM, for 8 flops a byte; wider tiles would cut that traffic
// (an estimate, not profiled). Registers: 234 (Lower) and 195 (Upper), two
// blocks a multiprocessor, no local memory.
//
// Copies (session 19). The loads of that loop went through registers (two
// stages of 16 floats a thread, put in shared memory a step later), and each
// load's address was computed from its (r, c): in ncu (Lower 3xTF32, n =
// 2048 at 8 matrices) that index arithmetic was 39 % of the kernel's
// instructions, about 14 a load, with HMMA 5 %; the kernel issued an
// instruction every 5 cycles a warp, with 8 warps a multiprocessor (255
// registers). Now each thread's elements are reached by pointer steps
// (TileRow) and copied by cp.async into shared buffers (copy_tile; three
// then, split_stages now), which frees those 32 registers: the float Upper
// split kernels then take the order and deferred store below without local
// memory, as the others have. Times (CuPy, one process, L2 evicted, µs, session 18's code →
// this): float32 3xTF32 Lower n = 2048 at 8 matrices 1880.8 → 1301.4,
// n = 4096 at one 1829.7 → 1483.4, n = 1024 at 60 2191.1 → 1534.8; Upper
// n = 2048 at 8 2197.4 → 1248.2, at 2 709.5 → 549.2, n = 4096 at one
// 2184.2 → 1398.5, n = 1024 at 4 300.3 → 272.1, n = 512 at 16 160.0 →
// 140.5 (session 19, call 5). Through the public Potrf, in the
// cholesky-gpumode suite (Upper, session 17's run → session 19's call
// 11): n = 4096 at one matrix 2236 → 1448 µs, n = 2048 at 2 749.9 → 588.8, n = 1024 at 4 326.1 → 292.7,
// n = 512 at 16 176.7 → 152.3. Pointer steps alone, with the register
// stages, spilled 8–16 B. Three blocks a multiprocessor (168 registers)
// were faster still (Upper n = 2048 at 8: 1077.3) but spilled 8 B. The
// ticket is divided by count with a multiplier from the host (magic):
// any integer division is a subroutine call here, which needed an 8 B
// stack frame in the kernels at 255 registers (calls 6 and 8).
//
// A first version with (j, j−1) a task of its own timed 118 µs at
// n = 256 and 488 at n = 1024 (float64 Lower), this one 151 and 601 in the
// next call (bench/results/h200/session9/early-timing.txt); with the
// registers above this one takes 111 and 438, so the gap was most likely
// the register allocation (the two were never timed side by side).
//
// Order. Diagonal task g reads no tile of column g − 1 but the
// one it makes, (g, g − 1), so it is ticketed before that column's other
// tiles, a group earlier than in column order (column j: its diagonal
// task, then the tiles (i, j), i ≥ j + 2). Why: globaltimer stamps per
// task (session 18, call 1; H200, float32 Upper) put the diagonal task's
// own loop, 2(j − 1) tile products in one block, on the critical path at
// n ≥ 2048. In column order at n = 4096 (3xTF32, one matrix) it ended
// after the previous diagonal task in 86 of 127 steps (by 10.6 µs on
// average) and a step took 16.8 µs; a group early, 77 steps (8.1 µs) and
// 14.5. At n = 1024 (exact) it never did, and a step took 8.5 µs in both.
// A group earlier still, right after its last input from another task,
// (g, g − 2), was no faster (session 26, float32 Upper through the suite:
// n = 4096, one matrix, 1338 and 1337 µs against 1339 and 1342; n = 8192
// 0.8 % faster, n = 256 at 64, 512 at 640 and 1024 at 60 1.5–4 % slower)
// and gave the one-block split kernels 8 B of local memory under CUDA 13.
//
// Prefix tasks (PRE: the split kernels for one block a multiprocessor,
// whole matrices). Even a group early, diagonal task g's own loop, g − 1
// steps of two tile products, is on the critical path at n = 4096 and one
// matrix: it takes its ticket only as far ahead as the resident blocks
// reach, about three groups (session 22's stamps: 35 of 127 loops ended
// late, 130 µs in all). So the steps k < g − ahead − 1 of both its sums,
// whose tiles are all final ahead groups earlier, are a task of their own,
// second in group g − ahead (Prefix above), which leaves its C of tiles
// (g, g − 1) and (g, g) in the workspace with a flag; diagonal task g
// starts from them and runs the last ahead steps. The same products in the
// same order: the factor's bits do not change. Where it applies, from 20
// tiles a side, the steps cost one store and one load of two tiles. H200,
// float32 3xTF32 (session 31, launched from CuPy, one process, L2 evicted,
// µs, head → this): n = 4096 at one matrix Upper 1337.9 → 1284.8, Lower
// 1348.1 → 1297.0; n = 2048 at 2 582.7 → 576.3, n = 1024 at 4 287.9 →
// 287.8. Through the public Potrf (the cholesky-gpumode suite, Upper):
// n = 4096 at one matrix 1355 → 1301 (two calls: main's build 1355, this
// 1301). ahead = 6, 8, 10 and 14 timed within 1 % of each other at n =
// 4096 (call 2); 10 leaves n ≤ 608 without them. The exact kernels keep
// the loop whole: the tables route few large matrices to the split ones,
// and the first form of this change gave the exact kernels 16 B of stack
// (call 1).
//
// Hand-over (session 32). Two orders on the chain from one diagonal tile
// to the next. A task loads X_c together with info, before the branch on
// info (X_c goes unused where the matrix failed), so that both loads are in
// flight at once. And the diagonal task stores X_j and info, publishes its
// flag, and only then stores L(j, j), which no task reads: the flag's
// release waited for every store of the block before it, L's among them.
// H200, float32 Upper, chol_tiled launched from CuPy (one process, L2
// evicted, median of 9, variants interleaved; µs, main → the load alone →
// both): 3xTF32 n = 4096 at one matrix 1326.1 → 1316.7 → 1277.2 (Lower
// 1340.7 → 1330.2 → 1284.4), n = 2048 at 2 602.7 → 595.7 → 559.0, n = 1024
// at 4 306.7 → 303.9 → 282.3, n = 512 at 16 161.6 → 160.1 → 149.3; exact
// n = 1024 at 4 334.9 → 332.8 → 324.0. Through the public Potrf (the
// cholesky-gpumode suite, Upper, same call): n = 4096 at one matrix 1313 →
// 1264 (the best vendor path 2559), n = 2048 at 2 590.9 → 544.5. Tried and
// not kept: factor_rows writing X_j to the workspace itself as it forms
// it (row-major; an 8 B stack frame in both split whole-matrix kernels
// under CUDA 13), and four split stages instead of three (within 1 %
// either way). bench/results/h200/session32.
//
// Row pairs (PAIRS, session 33: the split kernels for four blocks a
// multiprocessor, and since session 59 the one for three). A task below
// the diagonal makes two tiles of column j, (i, j) and (i + 1, j), from
// one loop: a step copies three tiles instead of four for two products,
// reads Q's fragments and splits them once for both
// (SplitTile::mul_rows), and X_j is loaded once for both
// solves. Each tile takes the same products in the same order, so the
// bits do not change. Three tile rows of three stages (41.5 KB of dynamic
// shared memory, past the 48 KB a launch gets without opting in) leave
// four blocks a multiprocessor; three rows of four would not fit.
// H200, chol_tiled launched from CuPy (session 33, lab/pairs.py: one
// process, L2 evicted, median of 7, variants interleaved, every result
// checked and its bits equal to main's; µs, main → wide copies alone →
// both), float32 3xTF32, four blocks a multiprocessor: Upper n = 8192 at
// one matrix 6269 → 5619 → 4657, Lower 7045 → 6995 → 5981; Upper n = 4096
// at 2 1963 → 1824 → 1688, n = 2048 at 8 1024 → 949 → 888 (Lower 1120 →
// 1118 → 1040), n = 1024 at 60 991 → 911 → 805, n = 512 at 640 1908 →
// 1820 → 1666. Through the public Potrf (the cholesky-gpumode suite,
// Upper, the same call): n = 8192 at one matrix 4657 against the best
// vendor path's 10518 (session 32: 6338). The one-block kernels keep one
// tile a task: they lead where the chain from one diagonal tile to the
// next is the time rather than the loops. factor_rows' row and a second
// accumulator do fit together: the three-block kernel (Occupancy below)
// has both in 168 registers.
//
// Deferred store (ROWS). The diagonal task stored L(j, j − 1)
// and released its flag before its update, and both were on the chain
// from one diagonal tile to the next. Now L(j, j − 1) stays in s_c for the
// update, and warps 2 and 3 store it and release its flag while warps 0
// and 1 factor (warps 1… until session 57, whose factor_rows forms the
// inverse in warp 1). Measured together with the order
// (session 18, call 8: chol_tiled launched from CuPy, one process, L2
// evicted, µs, this code against the previous): float32 Upper exact
// n = 256, one matrix 70.5 → 64.7, 64 matrices 124.9 → 107.2, n = 512 at
// 16 197.6 → 172.1, n = 1024 at one 278.2 → 254.8; Lower exact n = 1024
// 276.9 → 252.3; Lower 3xTF32 n = 2048 at 2 703.6 → 616.4, n = 4096 at
// one 2135.6 → 1839.6. The order alone, float64 Lower exact (call 2,
// before s_tasks): n = 256 at 64 167.1 → 131.2, n = 512 at 16 262.7 →
// 232.9. The float Upper 3xTF32 kernels kept column order and stored
// first until session 19: with the register stages of their loop, every
// form of the two tried (22, session 18) gave them 32–64 B of local
// memory (Copies above). The float panel kernels (PANEL) take the deferred
// store and factor_rows too since session 20, their storing warps writing
// the tile's TF32 split as well, so that every float kernel built for one
// block a multiprocessor has one form. It did not make the blocked
// driver's tiled panels faster: through the suite (Upper), session 19's
// code against this one with the fragments below, µs, n = 4096 at two
// matrices 3045 → 3046, n = 8192 at one 7194 → 7220 (session20/call3).
//
// Occupancy (MIN_BLOCKS, __launch_bounds__'s minimum of blocks a
// multiprocessor; TiledOptions.Occupancy). factor_rows keeps a row of the
// diagonal tile in each lane's registers, and where it is inlined the
// float whole-matrix kernels take 255 registers: two blocks (8 warps) a
// multiprocessor, as the default grid launches. The tile products, which
// are most of the work at larger batches, issued an instruction every 5
// cycles a warp at that occupancy (session 19's ncu). With MIN_BLOCKS = 4
// (float whole-matrix kernels only) the diagonal tiles are factored by
// factor_subblocks (factor_quarters in the split ones: Upper since session
// 53, Lower since 61) and ptxas must fit 128 registers, so that four blocks
// fit a multiprocessor (the split kernel's 50 KB of shared memory four
// times over); the chain from one diagonal tile to the next is longer by
// the slower factor (15736 cycles against 7679, session 17). They take
// 121–126 registers (CUDA 13, TestKernelResources, session 33) and no
// local memory.
// H200, the cholesky-gpumode suite (float32 Upper, one process, session 20
// call 2, before SplitTile's ldmatrix fragments, µs; split products, one
// block → four): n = 512 at 640 matrices 2998 → 1935, n = 1024 at 60 1472
// → 1034, n = 2048 at 8 1259 → 1119; but n = 512 at 16 152.5 → 196.6,
// n = 1024 at 4 292.3 → 376.0, n = 2048 at 2 587.0 → 778.9, n = 4096 at
// one 1448 → 1704, where the chain is the time. Exact products at n = 512,
// 640 matrices: 6538 → 3772. The routing tables choose between them.
//
// Three blocks (MIN_BLOCKS = 3, the float 3xTF32 whole-matrix kernels
// only; Upper since session 59, Lower since session 60): the one-block
// kernel's diagonal machinery (factor_rows, with TIGHT, and the deferred
// store) with the four-block kernel's row pairs, in 168 registers (no
// local memory under CUDA 13; stack frames under NVRTC 12.4, which the
// tests do not use). Lower's kernel, through the public Potrf on an H100
// (session 60, call 3, GPU MODE's inputs, µs, one block / four / three):
// n = 4096 at one matrix 1172 / 1730 / 1117, at two 2124 / 1953 / 1597,
// n = 2048 at 8 1234 / 1033 / 875.5, n = 8192 at one 8026 / 5908 / 5504;
// but n = 2048 at 2 458.4 / 794.3 / 512.8, n = 1024 at 60 1493 / 982.8 /
// 1017 (its four-block twin factored with factor_subblocks then; against
// its factor_quarters, session 60's call 5, the three-block kernel still
// led Lower at n = 2048 with 8 matrices, 4096 with 2 and 8192 with one, by
// 3.7–6.3 %, before the eager rsqrt gained the four-block one 1.2–3.8 %
// in session 61). Between the two at the suite's
// middle: session 59's stamps (lab/chain4.py, H100) put the four-block
// kernel's step from one diagonal tile to the next at 11.5–12.1 µs, 6.5 of
// it factor_quarters, against the one-block kernel's 7.25, whose two blocks
// a multiprocessor are short of the products' throughput from about eight
// matrices of 2048. H100, chol_tiled launched from CuPy (lab/occ3.py, one
// process, L2 evicted, median of 7, interleaved, the same bits), µs, one
// block / four / three: Upper n = 4096 at one matrix 1106.0 / 1271.7 /
// 1027.6, at two 1922.7 / 1451.1 / 1354.4, n = 2048 at 8 1134.4 / 777.1 /
// 773.2; but n = 2048 at 2 469.5 / 607.2 / 504.0, n = 8192 at one
// 7009 / 4543 / 4651, n = 1024 at 60 1392 / 809 / 915, n = 512 at 640
// 2940 / 1701 / 1980. The same with factor_quarters (within 2 % of four
// blocks where three led) or without row pairs (8–23 % slower than with
// them) lost.
//
// Panels (PANEL, the blocked driver's Options.TiledPanels). The same kernel
// factors one outer panel of the blocked driver: rows and columns from j0,
// width columns of them, reading A − D (D the outer update cuBLAS made)
// where it reads A, and writing the TF32 split of every tile below a
// diagonal one to hi and lo for later split products when hi is not null.
// Its last column has no diagonal task below it, so that column's tasks
// include tile (j + 1, j). A matrix that failed in an earlier panel (info
// is final at launch) stores nothing. PotrfTiled's instantiation
// (PANEL = false) fixes j0 = 0, width = n and no D or split, so that the
// compiler drops all of it: with the panel arguments live, the float32
// exact kernel took 147 registers instead of 116 and the whole driver ran
// 3–6 % slower (session 12, call2-variants.log.xz; the same build with
// PANEL ran within 1 % of the old one, call3-variants.log.xz).
//
// Workspace: tickets[0] the counter and tickets[1 + f] tile f's flag, zero
// at launch (the host clears them); x, X_j per diagonal tile. magic is
// ⌊2⁶²/count⌋ + 1 (tiled.go's divMagic), for the ticket's division.
//
// Failure, as chol_diag and chol_apply: the diagonal tile that meets the
// first failing pivot writes info (tile (0, 0) of the first panel writes
// it in any case),
// stores the columns before the pivot and the pivot; the tiles below it
// store only the columns before the pivot, and later tiles of that matrix
// store nothing. They still set their flags, so nothing waits forever.

// ld_cg loads through L2 only: tiles other blocks wrote are read after
// their flags, and L1 is not coherent with other SMs' stores.
__device__ __forceinline__ int ld_cg(const int* p) { return __ldcg(p); }
__device__ __forceinline__ float ld_cg(const float* p) { return __ldcg(p); }
__device__ __forceinline__ double ld_cg(const double* p) { return __ldcg(p); }
__device__ __forceinline__ cfloat ld_cg(const cfloat* p) {
    const float2 v = __ldcg(reinterpret_cast<const float2*>(p));
    return cfloat{v.x, v.y};
}
__device__ __forceinline__ cdouble ld_cg(const cdouble* p) {
    const double2 v = __ldcg(reinterpret_cast<const double2*>(p));
    return cdouble{v.x, v.y};
}

__device__ __forceinline__ int ld_acquire(const int* p) {
    int v;
    asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

// wait_flags returns, in every thread of the block, once thread 0 has seen
// both flags set (b may equal a).
__device__ __forceinline__ void wait_flags(const int* a, const int* b) {
    if (threadIdx.x == 0) {
        while (ld_acquire(a) == 0) {
        }
        while (ld_acquire(b) == 0) {
        }
    }
    __syncthreads();
}

// count_in adds one to the counter at p, wrapping to 0 after `last`, and
// returns the value it found: acq_rel at CTA scope, so the thread that finds
// `last` sees every write the others made before they counted in (and
// release below passes them on).
__device__ __forceinline__ unsigned count_in(unsigned* p, unsigned last) {
    unsigned old;
    asm volatile("atom.acq_rel.cta.shared::cta.inc.u32 %0, [%1], %2;"
                 : "=r"(old)
                 : "r"((unsigned)__cvta_generic_to_shared(p)), "r"(last)
                 : "memory");
    return old;
}

// release sets flag f with release order: the caller's stores, and those
// of threads it passed a barrier with, are visible before it.
__device__ __forceinline__ void release(int* f) { asm volatile("st.release.gpu.global.b32 [%0], %1;" ::"l"(f), "r"(1) : "memory"); }

// publish sets flag f once every thread's stores of the task are done:
// the barrier orders them before thread 0's release store.
__device__ __forceinline__ void publish(int* f) {
    __syncthreads();
    if (threadIdx.x == 0) release(f);
}

// load_tile puts L(r0 + r, c0 + c) − D(r0 + r, c0 + c) for r < nr, c < nc
// into s[r][c] (zero elsewhere; no D when d is null), only c ≤ r when lower:
// a diagonal tile's other triangle is not ours to read.
template <typename T, int TS, int NT, bool UPPER>
__device__ __forceinline__ void load_tile(T (*s)[TS + 1], const T* a, long long lda, long long r0, long long c0, int nr,
                                          int nc, bool lower, const T* d = nullptr, long long ldd = 0) {
#pragma unroll 4
    for (int e = threadIdx.x; e < TS * TS; e += NT) {
        const int fast = e % TS, slow = e / TS;
        const int r = UPPER ? slow : fast;
        const int c = UPPER ? fast : slow;
        T v = from_real<T>(0);
        if (r < nr && c < nc && (!lower || c <= r)) {
            v = ld_cg(a + nat<UPPER>(r0 + r, c0 + c, lda));
            if (d != nullptr) v = sub(v, d[nat<UPPER>(r0 + r, c0 + c, ldd)]);
            if (UPPER) v = conj_(v);
        }
        s[r][c] = v;
    }
}


// store_tile writes s[r][c] to L(r0 + r, c0 + c) for r < nr, c < nc.
// With hi not null it also writes the TF32 split of each value to hi and
// lo (leading dimension ldh).
template <typename T, int TS, int NT, bool UPPER>
__device__ __forceinline__ void store_tile(T* a, long long lda, const T (*s)[TS + 1], long long r0, long long c0, int nr,
                                           int nc, float* hi = nullptr, float* lo = nullptr, long long ldh = 0) {
#pragma unroll 4
    for (int e = threadIdx.x; e < TS * TS; e += NT) {
        const int fast = e % TS, slow = e / TS;
        const int r = UPPER ? slow : fast;
        const int c = UPPER ? fast : slow;
        if (r < nr && c < nc) a[nat<UPPER>(r0 + r, c0 + c, lda)] = UPPER ? conj_(s[r][c]) : s[r][c];
    }
    if (hi != nullptr) {
        // K-major in both orientations (split_store): columns fastest.
#pragma unroll 4
        for (int e = threadIdx.x; e < TS * TS; e += NT) {
            const int r = e / TS, c = e % TS;
            if (r < nr && c < nc) split_store(hi, lo, nat<true>(r0 + r, c0 + c, ldh), s[r][c]);
        }
    }
}

// A tile in registers: thread (tx, ty) of 16×8 holds rows ty + 8r,
// columns tx + 16q, as v[r][q] (row(r, q), col(r, q)).
template <typename T, int TS> struct Tile {
    static constexpr int RI = TS / 8, CQ = TS / 16;
    T v[RI][CQ];
    __device__ __forceinline__ int row(int r, int) const { return threadIdx.x / 16 + 8 * r; }
    __device__ __forceinline__ int col(int, int q) const { return threadIdx.x % 16 + 16 * q; }
    template <int LD> __device__ __forceinline__ void from(const T (*s)[LD]) {
#pragma unroll
        for (int r = 0; r < RI; ++r)
#pragma unroll
            for (int q = 0; q < CQ; ++q) v[r][q] = s[row(r, q)][col(r, q)];
    }
    template <int LD> __device__ __forceinline__ void to(T (*s)[LD]) const {
#pragma unroll
        for (int r = 0; r < RI; ++r)
#pragma unroll
            for (int q = 0; q < CQ; ++q) s[row(r, q)][col(r, q)] = v[r][q];
    }
    // mul<true>: v −= P·Qᴴ (P, Q tiles in shared memory); mul<false>: v += P·Qᴴ.
    template <bool SUB, int LD> __device__ __forceinline__ void mul(const T (*p)[LD], const T (*q)[LD]) {
#pragma unroll 8
        for (int u = 0; u < TS; ++u) {
            T pa[RI], qb[CQ];
#pragma unroll
            for (int r = 0; r < RI; ++r) pa[r] = p[row(r, 0)][u];
#pragma unroll
            for (int c = 0; c < CQ; ++c) qb[c] = q[col(0, c)][u];
#pragma unroll
            for (int r = 0; r < RI; ++r)
#pragma unroll
                for (int c = 0; c < CQ; ++c)
                    v[r][c] = SUB ? sub_mul_conj(v[r][c], pa[r], qb[c]) : add_mul_conj(v[r][c], pa[r], qb[c]);
        }
    }
};

// mma_tf32 is d += a·b for one m16n8k8 TF32 fragment set (PTX ISA's
// fragment layouts for .m16n8k8 with .tf32).
__device__ __forceinline__ void mma_tf32(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// ldsm4 loads four 8×8 b16 matrices (ldmatrix .x4): lane l gives the
// address of row l mod 8 of matrix l/8, and gets in r[i] the 32 bits at
// byte 4(l mod 4) of row l/4 of matrix i. For 32-bit data a matrix is 8
// rows of 4 floats, the layout of one register of mma's TF32 fragments.
__device__ __forceinline__ void ldsm4(unsigned (&r)[4], const float* p) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"((unsigned)__cvta_generic_to_shared(p)));
}

// SplitTile is a 32×32 float tile whose products run on the tensor cores
// in split precision: P·Qᴴ = Ph·Qhᴴ + Ph·Qlᴴ + Pl·Qhᴴ with Ph the TF32
// rounding of P (tf32_bits) and Pl = P − Ph, of which the tensor cores
// read only the TF32 part; the dropped terms are about 2⁻²² of |P|·|Q|, so
// the tile keeps FP32 accuracy, as the blocked driver's Split3TF32 updates
// do. Pl is passed unrounded: for the NaN the GPU's arithmetic makes
// (0x7fffffff) the rounding carries into the sign bit and gives −0, so Ph
// is −0 and only Pl = NaN keeps the NaN in the product.
//
// Warp w holds rows 16(w/2) … +15 and columns 16(w mod 2) … +15 as two
// m16n8 accumulators, f = 0, 1: v[2f + h][q] is row 16(w/2) + lane/4 + 8h,
// column 16(w mod 2) + 8f + 2(lane mod 4) + q, mma's accumulator layout.
//
// Fragments (session 20). In chol_tiled's split loop each fragment is one
// ldmatrix instead of four LDS, and the diagonal task's two products of a
// step share P's fragments and their split (mul_pair): with plain loads
// the compiler had shared them itself, a volatile ldmatrix it cannot, and
// ldmatrix alone made the loop longer (408 → 426 SASS instructions, NVRTC
// 12.4; with mul_pair about 320 → 298 on other tasks' path and 408 → 370
// on the diagonal task's). H200, chol_tiled launched from CuPy, one
// process, L2 evicted, µs, before → after (session20/call2-lab.log):
// 3xTF32 Lower n = 4096 at one matrix 1516.5 → 1362.1 (ldmatrix alone
// 1433.5), Upper 1443.9 → 1375.1; Lower n = 2048 at 8 1319.8 → 1246.1, at
// four blocks a multiprocessor 1236.5 → 1144.1; Upper n = 1024 at 60, four
// blocks, 1034.0 → 1008.8; n = 512 at 16 148.5 → 149.7 and n = 1024 at 4
// 288.2 → 291.2.
struct SplitTile {
    static constexpr int RI = 4, CQ = 2;
    float v[RI][CQ];
    __device__ __forceinline__ int row(int r, int) const {
        return 16 * (threadIdx.x / 64) + (threadIdx.x % 32) / 4 + 8 * (r & 1);
    }
    __device__ __forceinline__ int col(int r, int q) const {
        return 16 * ((threadIdx.x / 32) & 1) + 8 * (r >> 1) + 2 * (threadIdx.x % 4) + q;
    }
    template <int LD> __device__ __forceinline__ void from(const float (*s)[LD]) {
#pragma unroll
        for (int r = 0; r < RI; ++r)
#pragma unroll
            for (int q = 0; q < CQ; ++q) v[r][q] = s[row(r, q)][col(r, q)];
    }
    template <int LD> __device__ __forceinline__ void to(float (*s)[LD]) const {
#pragma unroll
        for (int r = 0; r < RI; ++r)
#pragma unroll
            for (int q = 0; q < CQ; ++q) s[row(r, q)][col(r, q)] = v[r][q];
    }
    // As Tile's: v −= P·Qᵀ (SUB) or v += P·Qᵀ, k = 8 columns of P and Q per
    // step. A fragment of P (rows r0 + g, + 8; columns u + t, + 4) and two
    // of Qᵀ (rows u + t, + 4; columns c0 + 8f + g), g = lane/4, t = lane mod 4.
    template <bool SUB, int LD> __device__ __forceinline__ void mul(const float (*p)[LD], const float (*q)[LD]) {
        mul_impl<SUB, Single>(*this, p, p, q);
    }
    // mul_pair is mul and d.mul<SUB>(p, p) together, P's fragments read
    // and split once for both: the diagonal task's two products of a step.
    template <bool SUB, int LD>
    __device__ __forceinline__ void mul_pair(SplitTile& d, const float (*p)[LD], const float (*q)[LD]) {
        mul_impl<SUB, Pair>(d, p, p, q);
    }
    // mul_rows is mul and d.mul<SUB>(p2, q) together, Q's fragments read
    // and split once for both: the two tiles of one tile column that a
    // task of chol_tiled's four-block split kernels makes (Row pairs).
    // Each accumulator takes the same instructions in the same order as
    // from mul, so the bits are mul's.
    template <bool SUB, int LD>
    __device__ __forceinline__ void mul_rows(SplitTile& d, const float (*p)[LD], const float (*p2)[LD], const float (*q)[LD]) {
        mul_impl<SUB, Rows>(d, p, p2, q);
    }

  private:
    // frag_a reads P's fragment (rows r0 + g, + 8; columns u + t, + 4),
    // frag_b Qᵀ's two (b0, b1 of f = 0, then of f = 1; rows c0 + 8f + g of
    // q). Where the pitch keeps rows 16-byte aligned (the split loop's
    // buffers, LD = TS + 4) one ldmatrix reads each (ldsm4's matrices:
    // P's rows +0/+8 × columns +0/+4, Q's columns +0/+4 × rows +0/+8);
    // the 8-row phases then hit 32 banks, as the 4 LDS did.
    template <int LD> __device__ __forceinline__ static void frag_a(float (&pa)[4], const float (*p)[LD], int r0, int u) {
        const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
        if constexpr (LD % 4 == 0) {
            const int mi = lane / 8, rr = lane % 8;
            unsigned r[4];
            ldsm4(r, &p[r0 + rr + 8 * (mi & 1)][u + 4 * (mi >> 1)]);
#pragma unroll
            for (int e = 0; e < 4; ++e) pa[e] = __uint_as_float(r[e]);
        } else {
            pa[0] = p[r0 + g][u + t], pa[1] = p[r0 + g + 8][u + t];
            pa[2] = p[r0 + g][u + t + 4], pa[3] = p[r0 + g + 8][u + t + 4];
        }
    }
    template <int LD> __device__ __forceinline__ static void frag_b(float (&qb)[4], const float (*q)[LD], int c0, int u) {
        const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
        if constexpr (LD % 4 == 0) {
            const int mi = lane / 8, rr = lane % 8;
            unsigned r[4];
            ldsm4(r, &q[c0 + rr + 8 * (mi >> 1)][u + 4 * (mi & 1)]);
#pragma unroll
            for (int e = 0; e < 4; ++e) qb[e] = __uint_as_float(r[e]);
        } else {
#pragma unroll
            for (int f = 0; f < 2; ++f) qb[2 * f] = q[c0 + 8 * f + g][u + t], qb[2 * f + 1] = q[c0 + 8 * f + g][u + t + 4];
        }
    }
    // split_a splits one A fragment (negated when SUB), split_b one B
    // fragment's pair of values (split_tf32's h and l as mma operands).
    template <bool SUB>
    __device__ __forceinline__ static void split_a(unsigned (&ah)[4], unsigned (&al)[4], const float (&pa)[4]) {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const float x = SUB ? -pa[e] : pa[e];
            ah[e] = tf32_bits(x);
            al[e] = __float_as_uint(x - __uint_as_float(ah[e]));
        }
    }
    __device__ __forceinline__ static void split_b(unsigned (&h)[2], unsigned (&l)[2], float b0, float b1) {
        h[0] = tf32_bits(b0), h[1] = tf32_bits(b1);
        l[0] = __float_as_uint(b0 - __uint_as_float(h[0])), l[1] = __float_as_uint(b1 - __uint_as_float(h[1]));
    }
    // mma3 adds the three split products of A (ah, al) and one B fragment (h, l).
    __device__ __forceinline__ static void mma3(float (&acc)[4], float (&low)[4], const unsigned (&ah)[4],
                                                const unsigned (&al)[4], const unsigned (&h)[2], const unsigned (&l)[2]) {
        mma_tf32(low, al, h[0], h[1]);
        mma_tf32(low, ah, l[0], l[1]);
        mma_tf32(acc, ah, h[0], h[1]);
    }
    // The products of mul_impl: this tile's alone (Single), with d's
    // P·Pᵀ (Pair, mul_pair), or with d's P2·Qᵀ (Rows, mul_rows).
    enum Mode { Single, Pair, Rows };
    template <bool SUB, Mode MODE, int LD>
    __device__ __forceinline__ void mul_impl(SplitTile& d, const float (*p)[LD], const float (*p2)[LD], const float (*q)[LD]) {
        const int r0 = 16 * (threadIdx.x / 64), c0 = 16 * ((threadIdx.x / 32) & 1);
        // Two accumulators a tile, the Ph·Qhᴴ terms and the small ones,
        // halve the chain of dependent mma instructions (a product at one
        // matrix is on the critical path). [1] is d's unless Single.
        constexpr bool PAIR = MODE != Single;
        constexpr int NP = PAIR ? 2 : 1;
        float acc[NP][2][4], low[NP][2][4];
#pragma unroll
        for (int f = 0; f < 2; ++f)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                acc[0][f][e] = v[2 * f + e / 2][e % 2], low[0][f][e] = 0.0f;
                if constexpr (PAIR) acc[NP - 1][f][e] = d.v[2 * f + e / 2][e % 2], low[NP - 1][f][e] = 0.0f;
            }
#pragma unroll
        for (int u = 0; u < 32; u += 8) {
            float pa[4], qb[4];
            frag_a(pa, p, r0, u);
            frag_b(qb, q, c0, u);
            unsigned ah[4], al[4], bh[2][2], bl[2][2];
            split_a<SUB>(ah, al, pa);
#pragma unroll
            for (int f = 0; f < 2; ++f) {
                split_b(bh[f], bl[f], qb[2 * f], qb[2 * f + 1]);
                mma3(acc[0][f], low[0][f], ah, al, bh[f], bl[f]);
            }
            if constexpr (MODE == Pair) {
                float pb[4];
                frag_b(pb, p, c0, u);
#pragma unroll
                for (int f = 0; f < 2; ++f) {
                    unsigned h[2], l[2];
                    split_b(h, l, pb[2 * f], pb[2 * f + 1]);
                    mma3(acc[NP - 1][f], low[NP - 1][f], ah, al, h, l);
                }
            } else if constexpr (MODE == Rows) {
                float pc[4];
                frag_a(pc, p2, r0, u);
                unsigned ch[4], cl[4];
                split_a<SUB>(ch, cl, pc);
#pragma unroll
                for (int f = 0; f < 2; ++f) mma3(acc[NP - 1][f], low[NP - 1][f], ch, cl, bh[f], bl[f]);
            }
        }
#pragma unroll
        for (int f = 0; f < 2; ++f)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                v[2 * f + e / 2][e % 2] = acc[0][f][e] + low[0][f][e];
                if constexpr (PAIR) d.v[2 * f + e / 2][e % 2] = acc[NP - 1][f][e] + low[NP - 1][f][e];
            }
    }
};

// TileRow is where one thread's share (copy_tile's layout) of the next
// tile of one tile row of L lies, L(r0 + …, k·TS + …) for k = 0, 1, … in
// turn: its first element, and how many of its rows are in the matrix.
// Each copy steps to the next tile, and each element to the next by one
// 64-bit add (next: NT/32 rows on for Upper, columns for Lower), instead
// of an address computed from (r, c) (Copies in chol_tiled's comment).
// wide: Upper's 16-byte copies (copy_tile), four columns of a row a thread.
template <int TS, int NT, bool UPPER> struct TileRow {
    const float* p;
    int rows; // nr − this thread's first row (Upper: rows r + (NT/32)·e, wide r + (NT/8)·e)
    __device__ __forceinline__ TileRow(const float* a, long long lda, long long r0, int nr, bool wide) {
        const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
        const int r = UPPER ? (wide ? threadIdx.x / 8 : w) : lane % 8 + 8 * w;
        rows = nr - r;
        p = a + nat<UPPER>(r0 + r, UPPER ? (wide ? 4 * (threadIdx.x % 8) : lane) : lane / 8, lda);
    }
};

// cp_async4 starts the copy of one float from global to shared memory
// (cp.async, through L1, no register); with in false it writes zero and
// reads nothing (ignore-src). commit and wait_async<N>: cp.async's groups,
// wait_async<N> returning once at most N of this thread's latest groups are
// still in flight. Through L1 is safe for tiles other blocks wrote: a tile
// is copied only after warp 0's acquire of its flag and a barrier, which
// order the copy after the writer's release as they order a load.
__device__ __forceinline__ void cp_async4(float* dst, const float* src, bool in) {
    asm volatile("{\n .reg .pred p;\n setp.eq.u32 p, %2, 0;\n cp.async.ca.shared.global [%0], [%1], 4, p;\n}" ::"r"(
                     (unsigned)__cvta_generic_to_shared(dst)),
                 "l"(src), "r"((unsigned)in)
                 : "memory");
}
// cp_async16 copies 16 bytes the same way (through L2 only: .ca takes
// only sizes up to 16 bytes on every architecture, .cg is the 16-byte
// form); with in false it writes 16 zero bytes and reads nothing (a source
// size of 0). dst and src 16-byte aligned.
__device__ __forceinline__ void cp_async16(float* dst, const float* src, bool in) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"((unsigned)__cvta_generic_to_shared(dst)), "l"(src),
                 "r"(in ? 16 : 0)
                 : "memory");
}
__device__ __forceinline__ void commit_async() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N> __device__ __forceinline__ void wait_async() { asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory"); }

// copy_tile starts the copies of the next tile of row t into s and steps t
// to the tile after; next = copy_step(wide, lda). Rows past the matrix are
// zero. Lower copies 8 rows × 4 columns a warp (32-byte pieces of four
// columns), so that its stores to rows of pitch TS + 4 fall in 32 different
// banks; Upper copies 32 columns of one row, and with wide (t made wide,
// every row 16-byte aligned: chol_tiled's wide) 4 rows of 8 pieces of 16
// bytes, two copies a thread instead of eight.
//
// Why wide. In the four-block kernel at n = 8192, one matrix (float32
// 3xTF32 Upper, session 33, lab/diag.py: CuPy, L2 evicted, µs), the loop
// without its copies took 4426 against 6229 and without its split
// arithmetic 4863: issuing instructions, not the bytes, bounds it, and a
// 4-byte copy is an instruction and a 64-bit add per float. Wide copies
// (call 2, the same bits): n = 8192 at one matrix 6266 → 5496, with one
// block a multiprocessor 7780 → 6786, n = 4096 at one 1266 → 1175,
// n = 2048 at 8 1035 → 951, n = 512 at 640 1899 → 1801, n = 2048 at 2
// 554 → 550. Lower's rows are columns of the matrix, whose 16-byte pieces
// would need another shared layout and fragment loads: not done.
template <bool UPPER, int NT> __device__ __forceinline__ long long copy_step(bool wide, long long lda) {
    return (UPPER && wide ? NT / 8 : NT / 32) * lda;
}
template <int TS, int NT, bool UPPER>
__device__ __forceinline__ void copy_tile(float (*s)[TS + 4], TileRow<TS, NT, UPPER>& t, long long next, bool wide) {
    if (UPPER && wide) {
        float* const d = &s[threadIdx.x / 8][4 * (threadIdx.x % 8)];
        const float* q = t.p;
#pragma unroll
        for (int e = 0; e < TS * TS / (4 * NT); ++e) {
            cp_async16(d + NT / 8 * e * (TS + 4), q, NT / 8 * e < t.rows);
            q += next;
        }
        t.p += TS;
        return;
    }
    const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
    float* const d = UPPER ? &s[w][lane] : &s[lane % 8 + 8 * w][lane / 8];
    const float* q = t.p;
#pragma unroll
    for (int e = 0; e < TS * TS / NT; ++e) {
        cp_async4(UPPER ? d + NT / 32 * e * (TS + 4) : d + NT / 32 * e, q, UPPER ? NT / 32 * e < t.rows : t.rows > 0);
        q += next;
    }
    t.p += UPPER ? TS : TS / (NT / 32) * next;
}

// split_stages is the number of shared buffers of chol_tiled's split loop
// (S − 1 steps of tile copies in flight during a step's products), the
// same for every MIN_BLOCKS; they are the launch's dynamic shared memory,
// whose size tiled.go's splitSharedBytes computes from the same numbers.
// Why dynamic: in session 21 (call 6, stages.py, µs, one process, L2
// evicted, float32 Upper), the three buffers moved from static to dynamic
// shared memory, nothing else changed, took one block a multiprocessor
// at n = 4096, one matrix from 1381.6 to 1336.8, at n = 8192 from 8481 to
// 7723, and were within 2 % elsewhere; and four buffers, with four blocks a multiprocessor, n = 8192
// from 6554.8 to 6377.4, n = 2048 at 8 from 1077.4 to 1055.0, n = 1024 at
// 60 from 1013.9 to 995.9, n = 4096 at 2 from 2057.4 to 2016.9. With one
// block four buffers gained under 1 % more and gave the Upper kernel an
// 8 B stack frame under CUDA 13, so it keeps three; five and six were no
// better anywhere. Since session 33 the four-block kernels copy three
// tile rows a step (split_rows, Row pairs in chol_tiled's comment) and
// keep three stages, which is what fits. Through the public Potrf
// (session 22, call 6: the cholesky-gpumode suite's cases, float32
// Upper, the previous build and this one run twice each, interleaved,
// µs): n = 8192 at one matrix
// 6644, 6574 → 6360, 6356; 4096 at one 1375, 1379 → 1349, 1349; 4096 at 2
// 2074, 2076 → 2035, 2039; 2048 at 8 1072, 1080 → 1063, 1060; 1024 at 60
// 1008, 1012 → 1005, 1004. Lower moved by −1.2 % to +0.5 % (TestTiming,
// call 5, the same cases, the two builds one after the other).
enum { split_stages = 3 };

// split_rows is the number of tile rows a step of the split loop copies:
// row c's and one row i, or two (i, i + 1) in the kernels with row pairs
// (chol_tiled's PAIRS: the split kernels for three or four blocks a
// multiprocessor). Three rows of four stages would not fit four blocks a
// multiprocessor.
template <int MIN_BLOCKS> struct split_rows {
    static constexpr int value = MIN_BLOCKS >= 3 ? 3 : 2;
};

// pick_type is std::conditional (NVRTC has no <type_traits>).
template <bool B, typename X, typename Y> struct pick_type { using type = X; };
template <typename X, typename Y> struct pick_type<false, X, Y> { using type = Y; };

// Prefix is where chol_tiled's prefix tasks lie (PRE). Group g holds the
// prefix task of diagonal task g + ahead when that diagonal exists and the
// prefix would take at least min_steps steps (k < g − 1, the columns whose
// tiles are all made in earlier groups); the prefix tasks of a matrix are
// numbered p = g − min_steps − 1 = 0, 1, …. tiled.go's prefixTasks counts
// them with the same numbers.
template <bool PRE> struct Prefix {
    static constexpr int ahead = 10, min_steps = 8;
    __device__ __forceinline__ static bool in_group(int g, int nt) { return PRE && g > min_steps && g + ahead < nt; }
    __device__ __forceinline__ static int count(int nt) { return PRE ? max(0, nt - ahead - 1 - min_steps) : 0; }
};

template <typename T, int TS, int NT, bool UPPER, bool SPLIT, bool PANEL, int MIN_BLOCKS>
__global__ void __launch_bounds__(NT, MIN_BLOCKS)
    chol_tiled(T* __restrict__ a, long long lda, long long stride, int n, int count, int* __restrict__ info,
               int* __restrict__ tickets, T* __restrict__ x, int j0, int width, const T* __restrict__ d, long long ldd,
               long long dstride, float* __restrict__ hi, float* __restrict__ lo, long long ldh, long long hstride,
               unsigned long long magic) {
    using R = typename real_of<T>::type;
    using TileT = typename pick_type<SPLIT, SplitTile, Tile<T, TS>>::type;
    static_assert(NT == 128 && TS == 32, "Tile's layout: 16×8 threads, 4×2 entries each; SplitTile's: 4 warps of 16×16");
    // ROWS: the diagonal tiles are factored by factor_rows, and the idle
    // warps store tile (j, j − 1) during the factor (Deferred store above).
    // factor_rows needs the registers of one block a multiprocessor
    // (Occupancy above), or three with the 3xTF32 products. QUARTERS: the
    // 3xTF32 kernels for four blocks factor them with factor_quarters
    // instead of factor_subblocks.
    static_assert(MIN_BLOCKS == 1 || MIN_BLOCKS == 4 || (MIN_BLOCKS == 3 && SPLIT && !PANEL && sizeof(T) == 4),
                  "Occupancy: the kernels are built for one or four blocks a multiprocessor, the float 3xTF32 ones for three too");
    constexpr bool ROWS = sizeof(T) == 4 && MIN_BLOCKS <= 3;
    constexpr bool QUARTERS = sizeof(T) == 4 && MIN_BLOCKS == 4 && SPLIT;
    __shared__ T s_a[TS][TS + 1];
    __shared__ T s_b[TS][TS + 1];
    __shared__ T s_c[ROWS ? TS : 1][TS + 1]; // tile (j, j − 1) of a diagonal task
    __shared__ int s_ticket;
    __shared__ int s_jm[2]; // a task's j and m, for the diagonal factor's epilogue
    __shared__ unsigned s_stored; // warps 2 and 3 done storing tile (j, j − 1) (ROWS; count_in)

    const int tid = threadIdx.x;
    if (ROWS && tid == 0) s_stored = 0; // the task loop's barriers come before any count_in
    // factor_quarters' mbarriers (QUARTERS); the task loop's barriers come before its first call.
    if constexpr (QUARTERS) quarters_init();
    if constexpr (ROWS) rows_init(); // factor_rows' mbarriers
    // The panel: rows and columns from j0 on, width columns of them (all
    // when width = n − j0); n, i, j and c below count from j0. PotrfTiled's
    // instantiation fixes the whole matrix (see Panels above).
    if constexpr (!PANEL) {
        j0 = 0;
        width = n;
        d = nullptr;
        hi = lo = nullptr;
    }
    n -= j0;
    const int nt = (n + TS - 1) / TS, wt = (min(width, n) + TS - 1) / TS;
    // Group g < wt has diagonal task g and, for g ≥ 1, the tiles (i, g − 1),
    // i ≥ g + 1; a panel narrower than the matrix has a last group g = wt,
    // the tiles (i, wt − 1), i ≥ wt, (wt, wt − 1) among them, which no
    // diagonal task below makes.
    // PRE: the split whole-matrix kernels built for one block a
    // multiprocessor take prefix tasks (Prefix above; Prefix tasks in the
    // comment).
    constexpr bool PRE = SPLIT && !PANEL && MIN_BLOCKS == 1;
    using Pre = Prefix<PRE>;
    // PAIRS: the split kernels built for three or four blocks a
    // multiprocessor make the tiles below the diagonal task's two at a
    // time, (i, j) and (i + 1, j) (Row pairs in the comment): group g ≥ 1
    // has diagonal task g, then ⌊(nt − g)/2⌋ pair tasks, the last of them
    // one tile when nt − g − 1 is odd.
    constexpr bool PAIRS = SPLIT && !PANEL && MIN_BLOCKS >= 3;
    static_assert(!PAIRS || split_rows<MIN_BLOCKS>::value == 3, "PAIRS copies three tile rows a step");
    const long long tasks =
        (PAIRS ? nt + (long long)(nt - 1) * (nt - 1) / 4 : (long long)wt * nt - (long long)wt * (wt + 1) / 2 + 1 + Pre::count(nt)) *
        count;
    int* const flags = tickets + 1;
    // The flag of tile (i, k) of matrix m: column-major over the lower
    // tiles, matrix fastest.
    auto flag = [&](int i, int k, int m) {
        return flags + ((long long)k * nt - (long long)k * (k - 1) / 2 + (i - k)) * count + m;
    };
    const T zero = from_real<T>(R(0));
    // tasks is read from shared memory at each ticket: held in registers
    // through the loop it cost the exact float kernels 56 B of local memory
    // (session 18).
    __shared__ long long s_tasks;
    if (tid == 0) s_tasks = tasks;
    // Prefix task p of matrix m (slot p·count + m): its flag after the
    // tiles', its two partial sums (C of tile (j, j − 1), then of (j, j),
    // row-major as in s_a) after the inverses. Read from shared memory where
    // used, as tasks: held in registers through the loop they gave the
    // float kernels a 16 B stack frame (NVRTC 12.4 and CUDA 13).
    __shared__ int* s_pre_flags;
    __shared__ T* s_pre_sums;
    if (tid == 0) {
        s_pre_flags = flags + (long long)nt * (nt + 1) / 2 * count;
        s_pre_sums = x + (long long)count * wt * (TS * TS);
    }

#pragma unroll 1
    for (;;) {
        if (tid == 0) s_ticket = atomicAdd(tickets, 1);
        __syncthreads();
        const int t = s_ticket; // an int32 counter: PotrfTiled and the panels keep tasks plus the grid below 2³¹
        if (t >= s_tasks) return; // uniform (s_tasks is set before the first barrier)
        // pos = t / count by the host's magic = ⌊2⁶²/count⌋ + 1, exact for
        // t < 2³¹: an integer division is a subroutine, whose call needed an
        // 8 B stack frame (local memory) in the kernels at 255 registers,
        // for 64-bit and 32-bit division alike (session 19).
        const unsigned long long low = (unsigned long long)t * magic;
        int pos = (int)((__umul64hi((unsigned long long)t, magic) << 2) | (low >> 62));
        const int m = t - pos * count;
        int g = 0; // the group (Order above)
        for (;;) {
            const int size = (g == 0 ? 1 : g < wt ? (PAIRS ? 1 + (nt - g) / 2 : nt - g) : nt - wt) + Pre::in_group(g, nt);
            if (pos < size) break;
            pos -= size;
            ++g;
        }
        const bool diag = g < wt && pos == 0;
        // The prefix task of diagonal task g + ahead is second in its
        // group; its i and j are that diagonal task's.
        const bool pre = Pre::in_group(g, nt) && pos == 1;
        if (Pre::in_group(g, nt) && pos > 1) --pos;
        const int j = diag ? g : pre ? g + Pre::ahead : g - 1;
        const int i = diag || pre ? j : g < wt ? (PAIRS ? g + 2 * pos - 1 : g + pos) : wt + pos;
        // A pair task's second tile, (i + 1, j), where it exists (PAIRS).
        const bool two = PAIRS && !diag && i + 1 < nt;
        T* const am = a + m * stride + (long long)j0 * (lda + 1);
        const T* const dm = d != nullptr ? d + m * dstride : nullptr;
        float* const hm = hi != nullptr ? hi + m * hstride + (long long)j0 * (ldh + 1) : nullptr;
        float* const lm = lo != nullptr ? lo + m * hstride + (long long)j0 * (ldh + 1) : nullptr;
        const int wj = min(TS, n - j * TS); // the diagonal tile's order

        // C = A(i, c) − Σ_{k<c} L(i, k)·L(c, k)ᴴ for the off-diagonal tile
        // (i, c) this task makes: (i, j), or (j, j − 1) for a diagonal task.
        // Where diagonal task j has a prefix task, that task sums the steps
        // k < kp of both its tiles and the diagonal task the steps k0 = kp
        // to k1 = j − 1 (Prefix tasks above).
        const bool pair = i == j; // a diagonal or prefix task: C of tile (j, j) too
        const int c = pair ? j - 1 : j;
        const int kp = j - Pre::ahead - 1;
        const int k0 = diag && j >= Pre::ahead && Pre::in_group(j - Pre::ahead, nt) ? kp : 0;
        const int k1 = pair && !diag ? kp : c;
        if (tid == 0) {
            s_jm[0] = j, s_jm[1] = m; // read after the first barrier below
        }
        // The prefix task's slot, its flag and its sums.
        auto pre_slot = [&] { return (long long)(kp - Pre::min_steps) * count + m; };
        auto pre_flag = [&] { return s_pre_flags + pre_slot(); };
        auto pre_sum = [&] { return s_pre_sums + pre_slot() * (2 * TS * TS); };
        const int nr = min(TS, n - i * TS);
        const int nr2 = two ? min(TS, n - (i + 1) * TS) : 0; // rows of tile (i + 1, j)
        TileT cc, cd; // C, and the diagonal tile's own when pair, or tile (i + 1, j)'s when two
        if (k0 > 0) {
            // Both sums from the prefix task.
            const T* const psum = pre_sum();
            wait_flags(pre_flag(), pre_flag());
#pragma unroll 4
            for (int e = tid; e < TS * TS; e += NT) {
                s_a[e / TS][e % TS] = ld_cg(psum + e);
                s_b[e / TS][e % TS] = ld_cg(psum + TS * TS + e);
            }
        } else {
            if (c >= 0) load_tile<T, TS, NT, UPPER>(s_a, am, lda, (long long)i * TS, (long long)c * TS, nr, TS, false, dm, ldd);
            if (pair) load_tile<T, TS, NT, UPPER>(s_b, am, lda, (long long)j * TS, (long long)j * TS, wj, wj, true, dm, ldd);
            if (PAIRS && !diag) // zero where there is no tile (i + 1, j)
                load_tile<T, TS, NT, UPPER>(s_b, am, lda, (long long)(i + 1) * TS, (long long)c * TS, nr2, TS, false, dm, ldd);
        }
        __syncthreads();
        if (c >= 0) cc.from(s_a);
        if (pair || (PAIRS && !diag)) cd.from(s_b);
        __syncthreads();
        if constexpr (SPLIT) {
            // The same loop with later tiles' copies in flight during the
            // products (cp.async into S = split_stages shared buffers) and
            // one barrier a step: at step k's barrier every thread has its
            // copies of step k landed, every thread is done with step
            // k − 1, whose buffer then takes step k + S − 1's copies, and
            // warp 0 has seen the flags of step k + S − 1. The buffers
            // are the launch's dynamic shared memory (split_stages says
            // why), pitch TS + 4: mma's fragment loads hit 32 banks.
            constexpr int S = split_stages;
            extern __shared__ __align__(16) float s_split[];
            float (*const s_p)[TS][TS + 4] = reinterpret_cast<float (*)[TS][TS + 4]>(s_split); // S buffers for row i's tiles,
            float (*const s_q)[TS][TS + 4] = s_p + S;                                           // S for row c's
            float (*const s_p2)[TS][TS + 4] = s_q + S;                                          // and S for row i + 1's (PAIRS)
            if (k1 > k0) {
                // Warp 0 reads the flags of 32 steps at once, one step a
                // lane, and keeps in ready how many leading steps it has
                // seen final: away from the front of the factorization a
                // step's tiles are final long before, and its flags then
                // cost no round trip to L2 of their own. It waits only for
                // the steps the next copy needs, as wait_flags would.
                int ready = k0;
                auto wait_steps = [&](int need) {
                    if (tid < 32) {
                        need = min(need, k1);
                        while (ready < need) {
                            const int kk = ready + tid;
                            const bool set = kk >= k1 || (ld_acquire(flag(i, kk, m)) != 0 && ld_acquire(flag(c, kk, m)) != 0 &&
                                                          (!two || ld_acquire(flag(i + 1, kk, m)) != 0));
                            const unsigned seen = __ballot_sync(0xffffffffu, set);
                            ready += seen == 0xffffffffu ? 32 : __ffs(~seen) - 1;
                        }
                    }
                };
                // The copies go through the steps in order, k = k0, k0 + 1,
                // …, one group a step (an empty one past the last step, so
                // that wait_async<1> always means step k's).
                // wide: every row of every matrix is 16-byte aligned (a
                // panel's first column, j0, is a multiple of 32), so that
                // Upper copies 16 bytes at once (copy_tile). From the
                // arguments, which stay in the constant bank: a flag kept
                // through the task loop would take a register.
                const bool wide = UPPER && (lda & 3) == 0 && (count == 1 || (stride & 3) == 0) &&
                                  (reinterpret_cast<unsigned long long>(a) & 15) == 0;
                TileRow<TS, NT, UPPER> rp(am, lda, (long long)i * TS, nr, wide), rq(am, lda, (long long)c * TS, TS, wide);
                // Row i + 1 (PAIRS; all zero when it is not two's: nr2 = 0).
                TileRow<TS, NT, UPPER> rp2(am, lda, (long long)(i + 1) * TS, nr2, wide);
                rp.p += nat<UPPER>(0, (long long)k0 * TS, lda);
                rq.p += nat<UPPER>(0, (long long)k0 * TS, lda);
                if (PAIRS) rp2.p += nat<UPPER>(0, (long long)k0 * TS, lda);
                const long long next = copy_step<UPPER, NT>(wide, lda);
                auto copy = [&](int k) {
                    if (k < k1) {
                        copy_tile<TS, NT, UPPER>(s_p[k % S], rp, next, wide);
                        copy_tile<TS, NT, UPPER>(s_q[k % S], rq, next, wide);
                        if (PAIRS && !diag) copy_tile<TS, NT, UPPER>(s_p2[k % S], rp2, next, wide);
                    }
                    commit_async();
                };
                wait_steps(k0 + S - 1);
                __syncthreads();
#pragma unroll
                for (int k = 0; k < S - 1; ++k) copy(k0 + k);
#pragma unroll 1
                for (int k = k0; k < k1; ++k) {
                    wait_async<S - 2>();
                    wait_steps(k + S);
                    __syncthreads();
                    copy(k + S - 1);
                    const int b = k % S;
                    if (pair)
                        cc.template mul_pair<true>(cd, s_p[b], s_q[b]); // and cd −= P·Pᵀ: row j of L is s_p here
                    else if (PAIRS)
                        cc.template mul_rows<true>(cd, s_p[b], s_p2[b], s_q[b]); // and cd −= P2·Qᵀ, zero unless two
                    else
                        cc.template mul<true>(s_p[b], s_q[b]);
                }
                __syncthreads(); // every thread is done reading s_p and s_q
            }
        } else {
#pragma unroll 1
            for (int k = k0; k < k1; ++k) {
                wait_flags(flag(i, k, m), flag(c, k, m));
                load_tile<T, TS, NT, UPPER>(s_a, am, lda, (long long)i * TS, (long long)k * TS, nr, TS, false);
                load_tile<T, TS, NT, UPPER>(s_b, am, lda, (long long)c * TS, (long long)k * TS, TS, TS, false);
                __syncthreads();
                cc.template mul<true>(s_a, s_b);
                if (pair) cd.template mul<true>(s_a, s_a); // row j of L is s_a here
                __syncthreads();
            }
        }

        if (pair && !diag) {
            // A prefix task: the two partial sums, for the diagonal task
            // (k0 > 0 above); nothing of the matrix is written.
            T* const psum = pre_sum();
            cc.to(s_a);
            cd.to(s_b);
            __syncthreads();
#pragma unroll 4
            for (int e = tid; e < TS * TS; e += NT) {
                psum[e] = s_a[e / TS][e % TS];
                psum[TS * TS + e] = s_b[e / TS][e % TS];
            }
            publish(pre_flag());
            continue;
        }

        // info so far: final for every column before the ones this task
        // makes. A matrix that failed in an earlier panel (its info is final
        // at launch) makes nothing here.
        int f = j0 > 0 ? ld_cg(info + m) : 0;
        // defer: a diagonal task with ROWS stores and publishes tile
        // (j, j − 1) while its factor runs (uniform: no other task writes
        // this matrix's info before flag (j, j)). With ROWS, L(i, c)
        // goes to s_c, where a diagonal task's stays for its update and those
        // stores.
        bool defer = false;
        T (*const s_lc)[TS + 1] = ROWS ? s_c : s_a;
        if (c >= 0) {
            // L(i, c) = C·X_cᴴ, on the columns before a failure in column c
            // (none if the matrix failed before it). C's columns from the
            // failure on are dropped first: NaN·0 through X's zero upper
            // part would spoil the columns before it. Any value of info
            // past column c (a later diagonal may write it meanwhile) gives
            // the same lim, so the block agrees.
            wait_flags(flag(c, c, m), flag(c, c, m));
            f = ld_cg(info + m);
            // X_c(r, u) to s_b[r][u] before info is known, so that both
            // loads are in flight at once (Hand-over above; X_c goes unused
            // where the matrix failed).
            const T* const xm = x + ((long long)m * wt + c) * (TS * TS);
#pragma unroll
            for (int e = tid; e < TS * TS; e += NT) s_b[e % TS][e / TS] = ld_cg(xm + e);
            const int lim = f == 0 ? TS : min(TS, f - 1 - j0 - c * TS);
            defer = ROWS && diag && f == 0;
            // L(row, c) from src, C of tile (row, c) of rows rows.
            auto solve = [&](const TileT& src, int row, int rows) {
                if (lim > 0) {
#pragma unroll
                    for (int r = 0; r < src.RI; ++r)
#pragma unroll
                        for (int q = 0; q < src.CQ; ++q)
                            s_a[src.row(r, q)][src.col(r, q)] = src.col(r, q) < lim ? src.v[r][q] : zero;
                    __syncthreads();
                    TileT l;
#pragma unroll
                    for (int r = 0; r < l.RI; ++r)
#pragma unroll
                        for (int q = 0; q < l.CQ; ++q) l.v[r][q] = zero;
                    l.template mul<false>(s_a, s_b);
                    if (!ROWS) __syncthreads(); // every thread is done reading s_a
                    l.to(s_lc);
                    __syncthreads();
                    if (!defer)
                        store_tile<T, TS, NT, UPPER>(am, lda, s_lc, (long long)row * TS, (long long)c * TS, rows, lim, hm, lm, ldh);
                }
                if (!defer) publish(flag(row, c, m)); // its barrier also frees s_a for a second tile
            };
            solve(cc, i, nr);
            if (two) solve(cd, i + 1, nr2);
        }
        if (diag && f == 0) {
            // The last update, L(j, j−1) from shared memory, then the
            // diagonal tile itself.
            if (c >= 0) cd.template mul<true>(s_lc, s_lc);
            __syncthreads();
#pragma unroll
            for (int r = 0; r < cd.RI; ++r)
#pragma unroll
                for (int q = 0; q < cd.CQ; ++q) {
                    const int row = cd.row(r, q), col = cd.col(r, q);
                    T v = from_real<T>(row == col ? R(1) : R(0));
                    if (row < wj && col <= row) v = row == col ? from_real<T>(re(cd.v[r][q])) : cd.v[r][q];
                    s_a[row][col] = v;
                    s_b[row][col] = zero;
                }
            __syncthreads();
            int fail;
            R dfail;
            if constexpr (ROWS) {
                // Warps 2 and 3 store tile (j, j − 1), a row (Upper) or column
                // a warp and step, while warps 0 and 1 factor (factor_rows).
                // (store_tile's pattern for 96 threads, inside factor_rows or
                // before it, cost 16–64 B of local memory, session 18.)
                // Between the full
                // barriers before and after, they read only s_c and warps 0
                // and 1 touch only s_a, s_b and factor_rows' arrays. The last
                // of them to finish releases the tile's flag (count_in on
                // s_stored, which wraps back to 0). Until session 34 they met
                // at a named barrier (bar.sync 1, NT − 32) and thread 32
                // released it: racecheck then reported hazards between
                // accesses a full barrier orders (s_a's writes before the
                // factor and factor_rows' reads, load_tile's and
                // Tile::from's; sessions 21, 22 and 34, call 2 with source
                // lines), and none in the kernels without it. With count_in,
                // 0 hazards (float32 exact and 3xTF32, both triangles, n = 97;
                // bench/results/h200/session34/, call 3).
                if (defer && tid >= 64) {
                    const int lane = tid % 32;
#pragma unroll 1
                    for (int sl = tid / 32 - 2; sl < TS; sl += NT / 32 - 2) {
                        const int r = UPPER ? sl : lane, q = UPPER ? lane : sl;
                        if (r < nr) am[nat<UPPER>((long long)i * TS + r, (long long)c * TS + q, lda)] = UPPER ? conj_(s_c[r][q]) : s_c[r][q];
                        // A panel's TF32 split, K-major as store_tile writes it: row sl, a column a lane.
                        if (hm != nullptr && sl < nr)
                            split_store(hm, lm, nat<true>((long long)i * TS + sl, (long long)c * TS + lane, ldh), s_c[sl][lane]);
                    }
                    __syncwarp(); // the warp's stores before its lane 0 counts it in
                    if (lane == 0 && count_in(&s_stored, NT / 32 - 3) == NT / 32 - 3) release(flag(i, c, m));
                }
                factor_rows<NT, SPLIT, MIN_BLOCKS == 3>(s_a, s_b, wj, j + 1 < nt, fail, dfail);
            } else {
                // factor_quarters in the 3xTF32 kernels for four blocks a
                // multiprocessor: 1.5–18 % faster than factor_subblocks
                // (factor_quarters' comment). The one-block kernels keep
                // factor_rows (ROWS above).
                if constexpr (QUARTERS) factor_quarters<NT>(s_a, s_b, wj, j + 1 < nt, fail, dfail);
                else factor_subblocks<T, TS, NT>(s_a, s_b, wj, j + 1 < nt, fail, dfail);
            }
            {
                // j and m again from shared memory, and the flag published
                // here, so that nothing of the task need stay in registers
                // through factor_rows (Prefix tasks above).
                const int j = s_jm[0], m = s_jm[1], wj = min(TS, n - j * TS);
                // X_j and info, then the flag, then L(j, j), which no task
                // reads (Hand-over above).
                if (j + 1 < nt) store_inverse<T, TS, NT>(x + ((long long)m * wt + j) * (TS * TS), s_b);
                if (tid == 0 && ((j0 == 0 && j == 0) || fail != 0)) info[m] = fail != 0 ? j0 + j * TS + fail : 0;
                publish(flag(j, j, m));
                store_block<T, TS, NT, UPPER>(a + m * stride + (long long)(j0 + j * TS) * (lda + 1), lda, s_a, s_b, wj, fail, dfail, nullptr);
            }
        } else if (diag) {
            publish(flag(j, j, m));
        }
    }
}
