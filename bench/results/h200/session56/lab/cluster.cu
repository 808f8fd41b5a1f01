// cluster.cu (lab, session 56; never shipped): float32 Cholesky of one matrix of order n ≤ NP per thread-block
// cluster of CL blocks (sm_90), the matrix held in the cluster's shared memory for the whole factorization. Why:
// the cholesky-gpumode suite's chains at one to sixteen matrices (n512 b16, n256 b64) are latency: chol_tiled takes
// 8.3-9.1 µs a tile step whatever n is, handing tiles between blocks through global memory and flags. Here a step
// is one cluster barrier and reads from a peer's shared memory (lab/handoff.py times both kinds of hand-over).
//
// Layout. Tile columns of 32 are dealt to the blocks cyclically (block r owns c = r, r + CL, …); each block keeps
// its tile columns' rows c·32 … in shared memory ([row][33]: row r at r·33, every access conflict-free), and a
// buffer P for the current panel's rows below its diagonal tile. Right-looking by tile columns, step j:
//  1. the owner of column j factors it: warp 0 the diagonal tile in registers (row l in lane l, shuffles), then
//     every thread a row of the tile column below (X = A·L_jjᵀ⁻¹, the row in registers);
//  2. a cluster barrier publishes the panel (and the owner's failure flag);
//  3. every block copies the panel's rows from the owner's shared memory into P;
//  4. every block updates its tile columns c > j (rows ≥ c·32) by P·P_cᵀ: a thread 4 columns × (nt − c) rows.
// Upper (column-major, A = UᵀU) runs the same on the transpose: element (r, c) of the lower triangle is U(c, r).
// Failure: the first pivot that is not > 0 (or NaN) sets info = its column + 1; every block stops after that step.
// The identity beyond n. Lab only: no Potrf contract (a failed matrix's contents are not LAPACK's). Compiled after
// cluster.cuh (cl_rank, cl_sync, peer), which cluster.py puts before it.
#define NT 256
#define TS 32
#define PITCH 33

template <bool UPPER> __device__ __forceinline__ long long at(int r, int c, long long ld) {
    return UPPER ? c + (long long)r * ld : r + (long long)c * ld;
}

template <int NP, int CL, bool UPPER>
__device__ __forceinline__ void chol_cluster(float* a, long long lda, long long stride, int n, int* info) {
    constexpr int TPC = NP / TS;               // tile columns at most
    constexpr int OWN = (TPC + CL - 1) / CL;   // tile columns a block owns
    extern __shared__ float sm[];
    float* const own = sm;                     // [OWN][NP][PITCH]
    float* const P = sm + OWN * NP * PITCH;    // [NP][PITCH]
    __shared__ float inv[TS];
    __shared__ int fail;
    const unsigned rank = cl_rank();
    const int t = threadIdx.x;
    float* const A = a + (long long)(blockIdx.x / CL) * stride;
    const int nt = (n + TS - 1) / TS, nr = nt * TS;
    if (t == 0) fail = 0;

    // Own tile columns in: the lower triangle, the identity past n, zero above the diagonal.
    for (int o = 0; o < OWN; ++o) {
        const int c = rank + CL * o;
        if (c >= nt) break;
        float* const dst = own + o * NP * PITCH;
        const int rows = nr - c * TS;
        for (int e = t; e < rows * TS; e += NT) {
            // Coalesced: Lower's columns run down rows, Upper's (U's rows) along q.
            const int r = c * TS + (UPPER ? e / TS : e % rows), q = UPPER ? e % TS : e / rows, col = c * TS + q;
            float v = r == col ? 1.f : 0.f;
            if (r < n && col < n && r >= col) v = A[at<UPPER>(r, col, lda)];
            dst[r * PITCH + q] = v;
        }
    }
    __syncthreads();
    cl_sync();

    int failed = 0;
    for (int j = 0; j < nt; ++j) {
        const unsigned owner = j % CL;
        const int jo = j / CL;
        if (rank == owner) {
            float* const col = own + jo * NP * PITCH;
            if (t < 32) {
                float row[TS];
#pragma unroll
                for (int q = 0; q < TS; ++q) row[q] = col[(j * TS + t) * PITCH + q];
                int f = 0;
#pragma unroll
                for (int k = 0; k < TS; ++k) {
                    const float d = __shfl_sync(0xffffffffu, row[k], k);
                    if (f == 0 && !(d > 0.f) && j * TS + k < n) f = j * TS + k + 1;
                    const float s = sqrtf(d), is = 1.f / s;
                    if (t == k) row[k] = s;
                    else if (t > k) row[k] *= is;
                    if (t == 0) inv[k] = is;
#pragma unroll
                    for (int q = k + 1; q < TS; ++q) {
                        const float lqk = __shfl_sync(0xffffffffu, row[k], q);
                        if (t >= q) row[q] -= row[k] * lqk;
                    }
                }
#pragma unroll
                for (int q = 0; q < TS; ++q) col[(j * TS + t) * PITCH + q] = q <= t ? row[q] : 0.f;
                if (t == 0) fail = f;
            }
            __syncthreads();
            if (!fail) {
                const float* const L = col + j * TS * PITCH;
                for (int r = (j + 1) * TS + t; r < nr; r += NT) {
                    float x[TS];
#pragma unroll
                    for (int q = 0; q < TS; ++q) x[q] = col[r * PITCH + q];
#pragma unroll
                    for (int k = 0; k < TS; ++k) {
                        x[k] *= inv[k];
#pragma unroll
                        for (int q = k + 1; q < TS; ++q) x[q] -= x[k] * L[q * PITCH + k];
                    }
#pragma unroll
                    for (int q = 0; q < TS; ++q) col[r * PITCH + q] = x[q];
                }
            }
            __syncthreads();
        }
        cl_sync(); // panel j and the owner's fail, for every block
        const int f = *peer(&fail, owner);
        if (f) {
            failed = f;
            break;
        }
        const float* const src = peer(own + jo * NP * PITCH, owner);
        for (int e = t; e < (nr - (j + 1) * TS) * TS; e += NT) {
            const int i = ((j + 1) * TS + e / TS) * PITCH + e % TS;
            P[i] = src[i];
        }
        __syncthreads();
        for (int o = 0; o < OWN; ++o) {
            const int c = rank + CL * o;
            if (c <= j || c >= nt) continue;
            float* const dst = own + o * NP * PITCH;
            const int q0 = 4 * (t % 8), rg = t / 8, cnt = nt - c;
            float acc[TPC - 1][4];
#pragma unroll
            for (int i = 0; i < TPC - 1; ++i)
#pragma unroll
                for (int u = 0; u < 4; ++u) acc[i][u] = 0.f;
#pragma unroll 2
            for (int k = 0; k < TS; ++k) {
                float qv[4];
#pragma unroll
                for (int u = 0; u < 4; ++u) qv[u] = P[(c * TS + q0 + u) * PITCH + k];
#pragma unroll
                for (int i = 0; i < TPC - 1; ++i) {
                    if (i < cnt) {
                        const float pv = P[(c * TS + rg + 32 * i) * PITCH + k];
#pragma unroll
                        for (int u = 0; u < 4; ++u) acc[i][u] += pv * qv[u];
                    }
                }
            }
#pragma unroll
            for (int i = 0; i < TPC - 1; ++i) {
                if (i < cnt) {
#pragma unroll
                    for (int u = 0; u < 4; ++u) dst[(c * TS + rg + 32 * i) * PITCH + q0 + u] -= acc[i][u];
                }
            }
        }
        __syncthreads();
    }
    cl_sync(); // no block leaves while a peer may still read its shared memory

    for (int o = 0; o < OWN; ++o) {
        const int c = rank + CL * o;
        if (c >= nt) break;
        const float* const srcc = own + o * NP * PITCH;
        const int rows = nr - c * TS;
        for (int e = t; e < rows * TS; e += NT) {
            const int r = c * TS + (UPPER ? e / TS : e % rows), q = UPPER ? e % TS : e / rows, col = c * TS + q;
            if (r < n && col < n && r >= col) A[at<UPPER>(r, col, lda)] = srcc[r * PITCH + q];
        }
    }
    if (rank == 0 && t == 0) info[blockIdx.x / CL] = failed;
}

#define CHOL_CLUSTER(NP, CL, UPLO, UPPER)                                                                          \
    extern "C" __global__ void __cluster_dims__(CL, 1, 1) __launch_bounds__(NT, 1)                                  \
        chol_cluster_##NP##_##CL##_##UPLO(float* a, long long lda, long long stride, int n, int* info) {           \
        chol_cluster<NP, CL, UPPER>(a, lda, stride, n, info);                                                       \
    }
CHOL_CLUSTER(512, 8, L, false)
CHOL_CLUSTER(512, 8, U, true)
CHOL_CLUSTER(256, 4, L, false)
CHOL_CLUSTER(256, 4, U, true)
CHOL_CLUSTER(256, 8, U, true)
