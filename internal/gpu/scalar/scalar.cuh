// scalar.cuh: the element types and scalar helpers every native kernel
// source starts with (internal/gpu/scalar prepends it): the complex types,
// their real parts and conjugates, and the multiply-adds written as explicit
// fused multiply-adds, so every kernel rounds a product the same way (the
// fused solves must reproduce the factor of the Cholesky kernels bit for
// bit), and the element copies from global to shared memory by cp.async that
// stage a triangle's columns (copy_async, wait_copies, and commit_copies and
// wait_groups for copies in groups), and opaque. All are inline; a kernel
// pays only for what it uses.

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

// x + l·b (no conjugation).
__device__ __forceinline__ float add_mul(float x, float l, float b) { return fmaf(l, b, x); }
__device__ __forceinline__ double add_mul(double x, double l, double b) { return fma(l, b, x); }
__device__ __forceinline__ cfloat add_mul(cfloat x, cfloat l, cfloat b) {
    return cfloat{fmaf(-l.im, b.im, fmaf(l.re, b.re, x.re)), fmaf(l.im, b.re, fmaf(l.re, b.im, x.im))};
}
__device__ __forceinline__ cdouble add_mul(cdouble x, cdouble l, cdouble b) {
    return cdouble{fma(-l.im, b.im, fma(l.re, b.re, x.re)), fma(l.im, b.re, fma(l.re, b.im, x.im))};
}

__device__ __forceinline__ float rsqrt_(float x) { return rsqrtf(x); }
__device__ __forceinline__ double rsqrt_(double x) { return rsqrt(x); }

// rsqrt_fast is rsqrt_ for the x that rsqrt_fast_takes: the float one is a
// bare rsqrt.approx.ftz, with rsqrtf's bits on normal floats and +Inf below
// them, where rsqrtf scales x first. That scaling, inlined or as selects,
// cost potrf_warp 45 registers and about a quarter of its time at n = 64
// (bench/results/h200/session27/, call 3), so a kernel that takes rsqrt_fast
// sends the pivots it refuses down a path of their own (potrf.cu's
// finish_in_memory).
__device__ __forceinline__ float rsqrt_fast(float x) {
    float y;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}
__device__ __forceinline__ double rsqrt_fast(double x) { return rsqrt(x); }

// rsqrt_fast_takes says whether rsqrt_fast(x) equals rsqrt_(x) for x > 0:
// from the smallest normal float up (+Inf too); any positive double. NaN is
// refused.
__device__ __forceinline__ bool rsqrt_fast_takes(float x) { return x >= 1.17549435e-38f; }
__device__ __forceinline__ bool rsqrt_fast_takes(double x) { return x > 0.0; }

// pivot_rsqrt is a pivot's scale: rsqrt(d) (rsqrt_fast where FAST) while
// ok (no pivot has failed so far), else 0. EAGER forms the rsqrt whatever
// ok is and selects after: written as ok ? rsqrt(d) : 0 (EAGER false), the
// compiler predicates the MUFU.RSQ on the failure test (its SETP and SEL
// ahead of it on the pivot's chain). The same values either way;
// blocked.cu's factor_step_block (session 58), potrf_reg and potrf_cta
// choose EAGER by kernel (the figures at their uses).
template <bool FAST, bool EAGER = true, typename R> __device__ __forceinline__ R pivot_rsqrt(R d, bool ok) {
    if constexpr (EAGER) {
        const R rs = FAST ? rsqrt_fast(d) : rsqrt_(d);
        return ok ? rs : R(0);
    } else {
        return ok ? (FAST ? rsqrt_fast(d) : rsqrt_(d)) : R(0);
    }
}

// copy_async starts the copy of one element from global to shared memory
// (cp.async, sm_80 on, through L1; before sm_80 a load and a store);
// wait_copies returns once every copy the calling thread started has
// landed in shared memory, for it: a __syncwarp after it shows them to the
// rest of the warp.
template <typename T> __device__ __forceinline__ void copy_async(T* dst, const T* src) {
#if __CUDA_ARCH__ >= 800
    static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16, "cp.async moves 4, 8 or 16 bytes");
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"((unsigned)__cvta_generic_to_shared(dst)), "l"(src),
                 "n"((int)sizeof(T))
                 : "memory");
#else
    *dst = *src;
#endif
}
__device__ __forceinline__ void wait_copies() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_all;" ::: "memory");
#endif
}

// commit_copies closes the group of copies the calling thread started since
// its last group; wait_groups<N> returns once at most N of its groups are
// still in flight (the copies of the older ones have landed, for it).
__device__ __forceinline__ void commit_copies() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}
template <int N> __device__ __forceinline__ void wait_groups() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
#endif
}

// opaque returns x, or the pointer p, hidden from the optimiser: an address
// built from it is not one the compiler has kept live from other uses, and
// a pointer stepped as p = opaque(p + ld) is not rebuilt as base + c·ld at
// each step. potrf.cu and posv.cu give the measured reasons where they use it.
__device__ __forceinline__ long long opaque(long long x) {
    asm volatile("" : "+l"(x));
    return x;
}
template <typename T> __device__ __forceinline__ T* opaque(T* p) {
    asm volatile("" : "+l"(p));
    return p;
}
