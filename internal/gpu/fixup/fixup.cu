// fixup.cu: small batched passes that let a composition of vendor calls keep
// LAPACK's per-matrix contract.
//
// restore_failed copies matrix m of src over matrix m of dst only where
// info[m] != 0: a solve composed as factor-then-substitute runs the
// substitution on every matrix, and this puts back the right-hand side (or
// the factors) of the matrices whose factorization failed.
//
// real_diagonal zeroes the imaginary part of each diagonal element: a
// Hermitian rank-k update built from a general product leaves rounding
// residue there (x·conj(x) computed with a fused multiply-add is not exactly
// real), and LAPACK's herk defines the diagonal as real.
//
// nan_info sets info[m] = j + 1 for the first diagonal element j of a factor
// that is NaN, where info[m] is still 0: cuSOLVER's Cholesky reports only
// non-positive pivots, and a NaN in the input spreads to every diagonal
// element from its row on, so the first NaN is the failing leading minor
// LAPACK's rule names. An infinite diagonal element is not a failure: LAPACK
// takes a +Inf pivot as positive (info 0, L(k, k) = +Inf, zeros below it),
// cuSOLVER's batched call gives the same factor, and a -Inf pivot or an
// infinite product past it shows as a non-positive or NaN pivot cuSOLVER or
// this pass reports (session 53 on an H100: flagging +Inf here had the
// vendor arms fail matrices the CPU and the native tiers factor).
//
// cast_part converts the lower (or upper) triangle of k n×n matrices
// between float and double: matrix s of dst gets matrix s of src, where a
// non-null index maps s to a batch index on that side (a gather from src or
// a scatter into dst). A float32 Cholesky whose tensor-core products failed
// a matrix is redone in float64 with it: the failed matrices gathered,
// widened, factored, and their factors narrowed back.
//
// scatter_info sets info[index[s]] = from[s] for the k statuses of such a
// gathered refactorization.
//
// All of them are memory-bound with a flat element index over the batch (a grid
// stride covers the rest); no shared memory, no register arrays.

struct alignas(16) bits128 {
    unsigned long long lo, hi;
};

template <typename E>
__global__ void restore_failed(const E* __restrict__ src, long long lds, long long strides,
                               E* __restrict__ dst, long long ldd, long long strided,
                               int rows, int cols, int count, const int* __restrict__ info) {
    const long long per = (long long)rows * cols;
    const long long total = per * count;
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total;
         t += (long long)gridDim.x * blockDim.x) {
        const int m = (int)(t / per);
        if (info[m] == 0) continue;
        const long long r = t - m * per;
        const int j = (int)(r / rows);
        const int i = (int)(r - (long long)j * rows);
        dst[m * strided + j * ldd + i] = src[m * strides + j * lds + i];
    }
}

// R is the real type; c points at interleaved (re, im) pairs.
template <typename R>
__global__ void real_diagonal(R* c, long long ld, long long stride, int n, int count) {
    const long long total = (long long)n * count;
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total;
         t += (long long)gridDim.x * blockDim.x) {
        const int m = (int)(t / n);
        const int j = (int)(t - (long long)m * n);
        c[2 * (m * stride + j * ld + j) + 1] = R(0);
    }
}

// One thread per matrix: the scan is n loads, far less than the factorization.
template <typename R, int STRIDE_R>
__global__ void nan_info(const R* a, long long ld, long long stride, int n, int count, int* info) {
    const int m = blockIdx.x * blockDim.x + threadIdx.x;
    if (m >= count || info[m] != 0) return;
    for (int j = 0; j < n; ++j) {
        const R* d = a + STRIDE_R * (m * stride + j * ld + j);
        bool bad = isnan(d[0]);
        if (STRIDE_R == 2) bad = bad || isnan(d[1]);
        if (bad) {
            info[m] = j + 1;
            return;
        }
    }
}

template <typename From, typename To>
__global__ void cast_part(const From* __restrict__ src, long long lds, long long strides, const int* __restrict__ src_index,
                          To* __restrict__ dst, long long ldd, long long strided, const int* __restrict__ dst_index,
                          int n, int k, int lower) {
    const long long per = (long long)n * n;
    const long long total = per * k;
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total;
         t += (long long)gridDim.x * blockDim.x) {
        const int s = (int)(t / per);
        const long long r = t - s * per;
        const int j = (int)(r / n);
        const int i = (int)(r - (long long)j * n);
        if (lower ? i < j : i > j) continue;
        const long long ms = src_index != nullptr ? src_index[s] : s;
        const long long md = dst_index != nullptr ? dst_index[s] : s;
        dst[md * strided + j * ldd + i] = (To)src[ms * strides + j * lds + i];
    }
}

__global__ void scatter_info(const int* __restrict__ from, const int* __restrict__ index, int k, int* __restrict__ info) {
    const int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s < k) info[index[s]] = from[s];
}
