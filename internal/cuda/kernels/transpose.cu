// transpose.cu: B = Aᵀ or Aᴴ for a batch of strided column-major matrices,
// writing only a chosen part of each B (in B's own coordinates), so that a
// transposed result can go back into one triangle of a matrix whose other
// triangle must stay as it is.
//
// One 32×32 tile per block, read with consecutive threads on consecutive
// rows of A and written with consecutive threads on consecutive rows of B,
// through a shared tile padded to 33 columns against bank conflicts; both
// global sides coalesce. grid.z walks the batch (more matrices than
// gridDim.z loop).

struct cfloat_t {
    float x, y;
};
struct cdouble_t {
    double x, y;
};

__device__ __forceinline__ float conj_of(float v) { return v; }
__device__ __forceinline__ double conj_of(double v) { return v; }
__device__ __forceinline__ cfloat_t conj_of(cfloat_t v) {
    v.y = -v.y;
    return v;
}
__device__ __forceinline__ cdouble_t conj_of(cdouble_t v) {
    v.y = -v.y;
    return v;
}

// Part selectors, as copy.cu's and the Go launcher's CopyPart.
enum { T_PART_ALL = 0, T_PART_LOWER = 1, T_PART_UPPER = 2, T_PART_STRICT_LOWER = 3, T_PART_STRICT_UPPER = 4 };

// A comparison chain, not a switch: with the switch and strided tile loops
// this kernel had before, NVRTC 13 gave the double instantiation 8 bytes of
// local memory (TestKernelAttributes); this form and the fixed-count loops
// below compile to none.
__device__ __forceinline__ bool t_selected(int part, int i, int j) {
    const int d = i - j;
    return part == T_PART_ALL || (part == T_PART_LOWER && d >= 0) || (part == T_PART_UPPER && d <= 0) ||
           (part == T_PART_STRICT_LOWER && d > 0) || (part == T_PART_STRICT_UPPER && d < 0);
}

// A is rows×cols, B cols×rows: B(r, c) = op(A(c, r)) where part selects (r, c).
template <typename T, bool CONJ>
__global__ void __launch_bounds__(256) transpose_matrices(const T* a, long long lda, long long stride_a,
                                                          T* b, long long ldb, long long stride_b,
                                                          int rows, int cols, int count, int part) {
    __shared__ T tile[32][33];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i0 = blockIdx.x * 32, j0 = blockIdx.y * 32; // the tile's origin in A
    for (long long m = blockIdx.z; m < count; m += gridDim.z) {
        const T* am = a + m * stride_a;
        T* bm = b + m * stride_b;
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            const int k = ty + 8 * q, i = i0 + tx, j = j0 + k;
            if (i < rows && j < cols) tile[k][tx] = am[(long long)j * lda + i];
        }
        __syncthreads();
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            const int k = ty + 8 * q, r = j0 + tx, c = i0 + k; // B(r, c) = A(c, r) = tile[tx][k]
            if (r < cols && c < rows && t_selected(part, r, c)) {
                T v = tile[tx][k];
                if (CONJ) v = conj_of(v);
                bm[(long long)c * ldb + r] = v;
            }
        }
        __syncthreads();
    }
}
