// copy.cu: batched copy of strided column-major matrices, the LAPACK
// lacpy/laset pair for a whole batch.
//
// Element (i, j) of matrix m lives at base + m*stride + j*ld + i (in
// elements). A selected part of each A (all, a triangle, a strict triangle)
// is copied to B; the rest of B is left alone, zeroed, or set to the
// identity's values. With a == nullptr nothing is read and B is only filled.
// a == b is allowed (in-place masking) when both use the same ld and stride:
// every element is read and written by the same thread.
//
// Elements move as raw bits of their size, so one instantiation per size
// serves every scalar type of that size (float64 and complex64 share the
// 8-byte one) and NaN payloads survive bit for bit. Only the identity fill
// depends on the type; the launcher passes the bits of its "one".
//
// Memory-bound, no shared memory or register arrays. The usual batch fits a
// flat 32-bit element index over the whole batch, so tiny matrices still fill
// whole warps; only batches of more than 2^31 - 1 elements fall back to one
// grid row per matrix. All index divisions are 32-bit (64-bit division is a
// called subroutine on the GPU).

struct alignas(16) bits128 {
    unsigned long long lo, hi;
};

template <typename T> __device__ __forceinline__ T from_bits(unsigned long long lo, unsigned long long hi);

template <> __device__ __forceinline__ unsigned int from_bits<unsigned int>(unsigned long long lo, unsigned long long) {
    return (unsigned int)lo;
}

template <> __device__ __forceinline__ unsigned long long from_bits<unsigned long long>(unsigned long long lo, unsigned long long) {
    return lo;
}

template <> __device__ __forceinline__ bits128 from_bits<bits128>(unsigned long long lo, unsigned long long hi) {
    bits128 v;
    v.lo = lo;
    v.hi = hi;
    return v;
}

// Part selectors; the Go launcher's CopyPart has the same values.
enum { PART_ALL = 0, PART_LOWER = 1, PART_UPPER = 2, PART_STRICT_LOWER = 3, PART_STRICT_UPPER = 4 };
// Fill of the unselected elements; the Go launcher's CopyRest has the same values.
enum { REST_KEEP = 0, REST_ZERO = 1, REST_IDENTITY = 2 };

__device__ __forceinline__ bool selected(int part, long long i, long long j) {
    switch (part) {
    case PART_LOWER: return i >= j;
    case PART_UPPER: return i <= j;
    case PART_STRICT_LOWER: return i > j;
    case PART_STRICT_UPPER: return i < j;
    default: return true;
    }
}

template <typename T>
__device__ __forceinline__ void copy_element(const T* a, long long lda, T* b, long long ldb, long long i, long long j,
                                             int part, int rest, T one, T zero) {
    if (a != nullptr && selected(part, i, j)) {
        b[j * ldb + i] = a[j * lda + i];
    } else if (rest != REST_KEEP) {
        b[j * ldb + i] = (rest == REST_IDENTITY && i == j) ? one : zero;
    }
}

template <typename T>
__global__ void copy_matrices(const T* a, long long lda, long long stride_a,
                              T* b, long long ldb, long long stride_b,
                              int rows, int cols, int count, int part, int rest,
                              unsigned long long one_lo, unsigned long long one_hi) {
    const T one = from_bits<T>(one_lo, one_hi);
    const T zero = from_bits<T>(0ull, 0ull);
    const long long per_matrix = (long long)rows * cols;
    const long long total = per_matrix * count;
    if (total <= 0x7fffffffll) {
        // Flat: consecutive threads take consecutive rows, then columns, then
        // matrices, so loads and stores coalesce whatever the shape.
        const unsigned mn = (unsigned)per_matrix;
        const unsigned urows = (unsigned)rows;
        const unsigned step = gridDim.x * blockDim.x;
        for (unsigned e = blockIdx.x * blockDim.x + threadIdx.x; e < (unsigned)total; e += step) {
            const unsigned m = e / mn;
            const unsigned r = e - m * mn;
            const unsigned j = r / urows;
            const unsigned i = r - j * urows;
            copy_element(a == nullptr ? a : a + (long long)m * stride_a, lda, b + (long long)m * stride_b, ldb,
                         (long long)i, (long long)j, part, rest, one, zero);
        }
        return;
    }
    // Wide: grid rows walk the matrices, grid columns the elements of one
    // (the launcher guarantees rows*cols < 2^31, so 32-bit division suffices).
    const unsigned mn = (unsigned)per_matrix;
    const unsigned urows = (unsigned)rows;
    const unsigned step = gridDim.x * blockDim.x;
    for (long long m = blockIdx.y; m < count; m += gridDim.y) {
        const T* am = a == nullptr ? a : a + m * stride_a;
        T* bm = b + m * stride_b;
        for (unsigned e = blockIdx.x * blockDim.x + threadIdx.x; e < mn; e += step) {
            const unsigned j = e / urows;
            const unsigned i = e - j * urows;
            copy_element(am, lda, bm, ldb, (long long)i, (long long)j, part, rest, one, zero);
        }
    }
}
