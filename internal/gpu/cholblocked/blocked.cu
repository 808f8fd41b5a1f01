// blocked.cu: the two native kernels of the blocked Cholesky driver
// (blocked.go says how the steps fit together and why).
//
// Orientation. Both kernels work on L, the lower factor. For Upper the
// matrix holds U = Lᴴ, so L(r, c) = conj(U(c, r)) is read at c + r·ld and
// written back conjugated. "Natural" index of L(r, c) in a buffer of
// leading dimension ld: r + c·ld (Lower) or c + r·ld (Upper). The update
// buffer D written by cuBLAS (D = Σ L·Lᴴ over the columns to the left) and
// the TF32 split buffers use the same natural orientation as A, so the
// kernels read A − D element by element with one index formula.
//
// Failure. chol_diag writes info = j + k for the first pivot k (1-based in
// the block) that is not > 0 (≤ 0 or NaN); it then writes only the columns
// before it and the failing pivot, and later steps of that matrix write
// nothing (chol_diag returns on info ≠ 0, chol_apply writes only the columns
// before the failure). A failed matrix thus holds what LAPACK's potf2 leaves:
// the first k−1 columns of L, the pivot, the rest of its triangle untouched.
// No kernel has a data-dependent loop or a barrier inside a branch that
// depends on data, so NaN and Inf cannot hang anything.

struct alignas(8) cfloat {
    float re, im;
};
struct alignas(16) cdouble {
    double re, im;
};

template <typename T> struct real_of;
template <> struct real_of<float> { using type = float; };
template <> struct real_of<double> { using type = double; };
template <> struct real_of<cfloat> { using type = float; };
template <> struct real_of<cdouble> { using type = double; };

__device__ __forceinline__ float re(float x) { return x; }
__device__ __forceinline__ double re(double x) { return x; }
__device__ __forceinline__ float re(cfloat x) { return x.re; }
__device__ __forceinline__ double re(cdouble x) { return x.re; }

template <typename T> __device__ __forceinline__ T from_real(typename real_of<T>::type x);
template <> __device__ __forceinline__ float from_real<float>(float x) { return x; }
template <> __device__ __forceinline__ double from_real<double>(double x) { return x; }
template <> __device__ __forceinline__ cfloat from_real<cfloat>(float x) { return cfloat{x, 0.0f}; }
template <> __device__ __forceinline__ cdouble from_real<cdouble>(double x) { return cdouble{x, 0.0}; }

__device__ __forceinline__ float conj_(float x) { return x; }
__device__ __forceinline__ double conj_(double x) { return x; }
__device__ __forceinline__ cfloat conj_(cfloat x) { return cfloat{x.re, -x.im}; }
__device__ __forceinline__ cdouble conj_(cdouble x) { return cdouble{x.re, -x.im}; }

__device__ __forceinline__ float sub(float x, float y) { return x - y; }
__device__ __forceinline__ double sub(double x, double y) { return x - y; }
__device__ __forceinline__ cfloat sub(cfloat x, cfloat y) { return cfloat{x.re - y.re, x.im - y.im}; }
__device__ __forceinline__ cdouble sub(cdouble x, cdouble y) { return cdouble{x.re - y.re, x.im - y.im}; }

__device__ __forceinline__ float add(float x, float y) { return x + y; }
__device__ __forceinline__ double add(double x, double y) { return x + y; }
__device__ __forceinline__ cfloat add(cfloat x, cfloat y) { return cfloat{x.re + y.re, x.im + y.im}; }
__device__ __forceinline__ cdouble add(cdouble x, cdouble y) { return cdouble{x.re + y.re, x.im + y.im}; }

__device__ __forceinline__ float scale(float x, float s) { return x * s; }
__device__ __forceinline__ double scale(double x, double s) { return x * s; }
__device__ __forceinline__ cfloat scale(cfloat x, float s) { return cfloat{x.re * s, x.im * s}; }
__device__ __forceinline__ cdouble scale(cdouble x, double s) { return cdouble{x.re * s, x.im * s}; }

// x − l·conj(b), with explicit fused multiply-adds so the rounding is fixed.
__device__ __forceinline__ float sub_mul_conj(float x, float l, float b) { return fmaf(-l, b, x); }
__device__ __forceinline__ double sub_mul_conj(double x, double l, double b) { return fma(-l, b, x); }
__device__ __forceinline__ cfloat sub_mul_conj(cfloat x, cfloat l, cfloat b) {
    // l·conj(b) = (l.re·b.re + l.im·b.im) + i(l.im·b.re − l.re·b.im)
    return cfloat{fmaf(-l.im, b.im, fmaf(-l.re, b.re, x.re)), fmaf(l.re, b.im, fmaf(-l.im, b.re, x.im))};
}
__device__ __forceinline__ cdouble sub_mul_conj(cdouble x, cdouble l, cdouble b) {
    return cdouble{fma(-l.im, b.im, fma(-l.re, b.re, x.re)), fma(l.re, b.im, fma(-l.im, b.re, x.im))};
}

// x + l·conj(b).
__device__ __forceinline__ float add_mul_conj(float x, float l, float b) { return fmaf(l, b, x); }
__device__ __forceinline__ double add_mul_conj(double x, double l, double b) { return fma(l, b, x); }
__device__ __forceinline__ cfloat add_mul_conj(cfloat x, cfloat l, cfloat b) {
    return cfloat{fmaf(l.im, b.im, fmaf(l.re, b.re, x.re)), fmaf(-l.re, b.im, fmaf(l.im, b.re, x.im))};
}
__device__ __forceinline__ cdouble add_mul_conj(cdouble x, cdouble l, cdouble b) {
    return cdouble{fma(l.im, b.im, fma(l.re, b.re, x.re)), fma(-l.re, b.im, fma(l.im, b.re, x.im))};
}

// x − l·b (no conjugation).
__device__ __forceinline__ float sub_mul(float x, float l, float b) { return fmaf(-l, b, x); }
__device__ __forceinline__ double sub_mul(double x, double l, double b) { return fma(-l, b, x); }
__device__ __forceinline__ cfloat sub_mul(cfloat x, cfloat l, cfloat b) {
    return cfloat{fmaf(l.im, b.im, fmaf(-l.re, b.re, x.re)), fmaf(-l.im, b.re, fmaf(-l.re, b.im, x.im))};
}
__device__ __forceinline__ cdouble sub_mul(cdouble x, cdouble l, cdouble b) {
    return cdouble{fma(l.im, b.im, fma(-l.re, b.re, x.re)), fma(-l.im, b.re, fma(-l.re, b.im, x.im))};
}

__device__ __forceinline__ float rsqrt_(float x) { return rsqrtf(x); }
__device__ __forceinline__ double rsqrt_(double x) { return rsqrt(x); }

// Sixteen bytes of a shared column, loaded as one vector.
template <typename T> struct alignas(16) pack {
    T v[16 / sizeof(T)];
};

// The natural index of L(r, c) in a buffer of leading dimension ld.
template <bool UPPER> __device__ __forceinline__ long long nat(long long r, long long c, long long ld) {
    return UPPER ? c + r * ld : r + c * ld;
}

// chol_diag factors the w×w diagonal block of one panel, L11·L11ᴴ =
// A11 − D11, for one matrix per block of NB threads, and writes L11 over
// A11 (its uplo triangle only), info, and X = L11⁻¹ to x (NB×NB per matrix,
// column-major) when x is not null.
//
// Shape. Thread i holds row i of the block in registers (rows w..NB-1 are
// identity padding, so no test on w inside the loops), as the register
// tier does for n ≤ 32; NB = 64 for float (64 registers of row, 128 in all
// with NVRTC 11.8 for sm_90), 32 for the other types (108 to 198 in all);
// none spills. Right-looking, one barrier per column:
// every thread publishes its current A(i, j) unscaled in a shared column
// (double-buffered by step parity, so no second barrier), reads the pivot d
// from it, and updates its row with u·conj(A(k, j)), u = A(i, j)/d, which is
// L(i,j)·conj(L(k,j)) without the owner-scaled broadcast that would need a
// second barrier. Measured basis: [B200] barriers, not flops, bound the
// diagonal factor; 64-thread blocks (2 warps) beat wider ones
// (kernel-lessons §20); rsqrt instead of sqrt and a divide (§9).
//
// Inverse (§12). Thread c computes column c of X by forward substitution,
// X(r, c) = (δ(r,c) − Σ_{t<r} L(r,t)·X(t,c)) / L(r,r), from L in shared
// memory (a broadcast read per term) and its own column in registers: no
// barrier after L is in place. Four partial sums shorten the dependency
// chain ([B200] §20: a 2016-FMA chain ran at ≈20 cycles per FMA; four
// accumulators cut it to 504). 1/L(r,r) is the rsqrt the factorization
// already computed. After a failure at column k (0-based) the scale is 0,
// so rows ≥ k of X are 0 for finite data, and its leading k×k block is the
// inverse of L's whatever the data: the apply kernel writes only the
// columns before k, which use only that block.
template <typename T, int NB, bool UPPER>
__global__ void __launch_bounds__(NB) chol_diag(T* __restrict__ a, long long lda, long long stride,
                                                const T* __restrict__ d, long long ldd, long long dstride,
                                                T* __restrict__ x, int* __restrict__ info, int j, int w, int first) {
    static_assert(NB == 32 || NB == 64, "NB is 32 or 64");
    using R = typename real_of<T>::type;
    constexpr int V = 16 / (int)sizeof(T); // elements per 16-byte vector: 4, 2 or 1
    static_assert(NB % V == 0, "the shared column is whole vectors");

    __shared__ T s_l[NB][NB + 1]; // L(r, c) at [r][c]; the pitch NB+1 keeps row and column walks conflict-free
    __shared__ pack<T> s_col[2][NB / V];
    __shared__ R s_rdiag[NB]; // 1/L(r, r)

    const int i = threadIdx.x;
    const long long m = blockIdx.x;
    // A matrix that failed in an earlier panel is left alone (uniform over
    // the block, before any barrier).
    if (!first && info[m] != 0) return;

    T* const am = a + m * stride + (long long)j * (lda + 1);         // element (j, j)
    const T* const dm = d != nullptr ? d + m * dstride : nullptr; // D11, already offset

    // Load A11 − D11 (lower part of L's orientation, real diagonal),
    // identity outside the w×w block. Consecutive threads take consecutive
    // addresses in either orientation; the unrolling keeps 16 loads in
    // flight per thread (a 64-thread block is otherwise latency-bound here).
#pragma unroll 16
    for (int e = i; e < NB * NB; e += NB) {
        const int fast = e % NB, slow = e / NB;
        const int r = UPPER ? slow : fast;
        const int c = UPPER ? fast : slow;
        T v = from_real<T>(r == c ? R(1) : R(0));
        if (r < w && c <= r) {
            T y = am[nat<UPPER>(r, c, lda)];
            if (dm != nullptr) y = sub(y, dm[nat<UPPER>(r, c, ldd)]);
            v = r == c ? from_real<T>(re(y)) : (UPPER ? conj_(y) : y);
        }
        s_l[r][c] = v;
    }
    __syncthreads();

    T rr[NB];
#pragma unroll
    for (int c = 0; c < NB; ++c) rr[c] = s_l[i][c];

    int fail = 0;      // 1-based column of the first pivot that is not > 0
    R dfail = R(0);    // that pivot
#pragma unroll
    for (int jj = 0; jj < NB; ++jj) {
        T* const col = reinterpret_cast<T*>(&s_col[jj & 1][0]);
        col[i] = rr[jj];
        __syncthreads();
        const R dv = re(col[jj]);
        if (!(dv > R(0)) && fail == 0 && jj < w) { // NaN fails too; padding pivots never count
            fail = jj + 1;
            dfail = dv;
        }
        const R sc = fail == 0 ? rsqrt_(dv) : R(0);
        if (i == 0) s_rdiag[jj] = sc;
        const T l = scale(rr[jj], sc); // L(i, jj) for i > jj
        const T u = scale(l, sc);      // L(i, jj) / L(jj, jj), without forming sc² (which overflows for tiny d)
        // L(jj, jj) = d·rsqrt(d), except that d = +Inf gives +Inf as sqrt would.
        rr[jj] = i == jj ? from_real<T>(isinf(dv) ? dv : dv * sc) : l;
        // Entries k > i of the row are outside the triangle: they are updated
        // too (no test on i), stay finite for finite data, and are never
        // stored or read as part of L.
#pragma unroll
        for (int kb = 0; kb < NB; kb += V) {
            if (kb + V <= jj + 1) continue; // constant once jj is
            const pack<T> p = s_col[jj & 1][kb / V];
#pragma unroll
            for (int e = 0; e < V; ++e) {
                const int k = kb + e;
                if (k > jj) rr[k] = sub_mul_conj(rr[k], u, p.v[e]);
            }
        }
    }

    // The rows go to shared memory (s_l was last read before the first
    // barrier of the loop), then out with coalesced stores.
#pragma unroll
    for (int c = 0; c < NB; ++c)
        if (c <= i) s_l[i][c] = rr[c];
    __syncthreads();

    const int lim = fail != 0 ? fail - 1 : w; // columns [0, lim) of L are final
#pragma unroll 8
    for (int e = i; e < NB * NB; e += NB) {
        const int fast = e % NB, slow = e / NB;
        const int r = UPPER ? slow : fast;
        const int c = UPPER ? fast : slow;
        const bool pivot = fail != 0 && r == fail - 1 && c == r;
        if (r < w && c <= r && (c < lim || pivot)) {
            const T v = pivot ? from_real<T>(dfail) : s_l[r][c];
            am[nat<UPPER>(r, c, lda)] = UPPER ? conj_(v) : v;
        }
    }
    if (i == 0) {
        if (first) {
            info[m] = fail != 0 ? j + fail : 0;
        } else if (fail != 0) {
            info[m] = j + fail;
        }
    }
    if (x == nullptr) return; // the last panel: nothing below to solve for

    T xv[NB];
#pragma unroll
    for (int r = 0; r < NB; ++r) {
        T acc[4];
#pragma unroll
        for (int q = 0; q < 4; ++q) acc[q] = from_real<T>(R(0));
        acc[0] = from_real<T>(r == i ? R(1) : R(0));
#pragma unroll
        for (int t = 0; t < r; ++t) acc[t & 3] = sub_mul(acc[t & 3], s_l[r][t], xv[t]);
        xv[r] = scale(add(add(acc[0], acc[1]), add(acc[2], acc[3])), s_rdiag[r]);
    }
    __syncthreads(); // every thread is done reading L
#pragma unroll
    for (int r = 0; r < NB; ++r) s_l[r][i] = xv[r];
    __syncthreads();
    T* const xm = x + m * (long long)(NB * NB);
#pragma unroll 8
    for (int e = i; e < NB * NB; e += NB) xm[e] = s_l[e % NB][e / NB]; // X(r, c) at r + c·NB
}

// split_tf32 writes v = h + l with h rounded to TF32 (the top 10 explicit
// mantissa bits, to nearest, ties away from zero, as cvt.rna.tf32.f32) and
// l = v − h, which is exact in FP32. A TF32 product of h then loses nothing.
__device__ __forceinline__ void split_tf32(float v, float& h, float& l) {
    const unsigned u = (__float_as_uint(v) + 0x1000u) & 0xffffe000u;
    h = __uint_as_float(u);
    l = v - h;
}

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

    float* const hm = SPLIT ? hi + m * hstride + nat<UPPER>((long long)j + w + i0, j, ldh) : nullptr;
    float* const lm = SPLIT ? lo + m * hstride + nat<UPPER>((long long)j + w + i0, j, ldh) : nullptr;
#pragma unroll
    for (int e = tid; e < TR * NB; e += kApplyThreads) {
        const int r = UPPER ? e / NB : e % TR;
        const int c = UPPER ? e % NB : e / TR;
        if (r < nr && c < lim) {
            const T v = UPPER ? conj_(s_p[r][c]) : s_p[r][c];
            am[nat<UPPER>(r, c, lda)] = v;
            if constexpr (SPLIT) {
                float h, l;
                split_tf32(v, h, l);
                hm[nat<UPPER>(r, c, ldh)] = h;
                lm[nat<UPPER>(r, c, ldh)] = l;
            }
        }
    }
}
