// warp.cu: the warp tier ("native:warp"), one matrix per warp for
// 32 < n ≤ 64, two rows of L per lane in registers (warp.go says where it
// sits among the tiers; potrf.cu's comment gives the method it extends).
//
// Shape. Lane i holds row i in ra[0..31] (a row above 32 has no column past
// 31 in the lower triangle) and row i + 32 in rb[0..NC-1], NC = n rounded
// up to a multiple of 4: 32 + NC values, 96 at n = 64: float32 to NC = 64
// (NVRTC 11.8, sm_90: 150–254 registers, no spills, once the stores stopped
// holding NC offsets live) and float64 to NC = 56 (CUDA 13: 178–254
// registers; it spills from 60, warp.go's maxWarp). Rows n..NC-1 hold the
// identity, as in potrf_reg, so the body tests neither the lane nor n.
// Every loop is unrolled; the registers are indexed only by constants.
//
// Why a warp. The CTA tier at n = 48…64 runs one block of 64 threads per
// matrix with a block-wide barrier per column. Here a step's only barrier
// is __syncwarp, as in potrf_reg. [H200] 65,536 float matrices, Lower:
// n = 48 468 µs against the CTA tier's 711 (61 % of copy bandwidth against
// 40 %), n = 64 899 against 1088 (56 % against 47 %). Upper goes through
// the tile (potrf.cu's upper_tile), filled by cp.async, in every layout
// but float's with 16-byte aligned columns, which take the wide tile below
// (wide_fill; warp.go's warpWide says where). Filled through registers the
// tile lost to the CTA tier from n = 48 (n = 64: 1424 against 1117;
// bench/results/h200/session8/warp-warp-timing.log), and so did aligned
// columns moved in place (session14/). [H200] 65,536 float matrices, µs,
// in place against the cp.async tile (Lower beside):
// n = 40 491.9 against 473.7 (398.8), n = 48 629.0 against 655.9 (468.6),
// n = 56 970.2 against 786.9 (642.9), n = 64 1150.5 against 1033.4
// (900.8); 1,024 matrices of n = 64, 16 calls back to back, 24.9 against
// 20.3 (18.1); n = 48 16.2 against 15.0 (12.3) (session27/, call 2). The
// tables choose between this tier and the CTA tier.
// Pivots. potrf_warp takes rsqrt_fast (scalar.cuh) and sends a subnormal
// pivot to finish_in_memory (potrf.cu): with rsqrtf the Lower kernel at
// n = 64 took 193 registers (NVRTC 13), 8 warps per SM, which ncu showed as
// the limit (issue slots 48 % busy; capping the registers with
// __launch_bounds__ spilled and was no faster, session8/); now 153, 12
// warps. [H200] 65,536 float matrices against rsqrtf, µs: Lower n = 64
// 744.6 against 899.6 (68 % of copy bandwidth against 57 %), n = 33 287.6
// against 301.4, but n = 48 480.4 against 470.0 and n = 44 447.7 against
// 420.1; Upper n = 64 967.6 against 1037.3, n = 48 596.1 against 651.0
// (session28/, calls 1, 4 and 6; lab.py's eight builds in call 3).
//
// Step j: the pivot's owner is lane j mod 32 (ra for j < 32, rb after);
// one shuffle broadcasts it, each lane scales its own entries of column j,
// keeps them, publishes them in the warp's shared column (64
// entries, double-buffered by step parity as in potrf_reg), and after the
// __syncwarp subtracts L(i, j)·conj(L(k, j)) from its entries k > j: ra
// only while j < 31 (its columns stop at 31), rb always.
//
// Failure, padding, the other triangle: exactly as potrf_reg (potrf.cu).
//
// posv_warp is the same factorization followed by the two triangular
// solves in the same warp (warp_solve), so a float system of order 33…64
// is read and written once, as posv.cu's kernels do up to 32. [H200]
// 65,536 float systems, µs for 1, 8 and 16 right-hand sides, against
// posv_cta (its solve then a row per thread with a block barrier a step;
// since session 37 it runs this warp's solve, cta.cu) in one process
// (bench/results/h200/session25/, call 3): n = 48
// 688, 825, 929 against 2244, 2250, 2255; n = 64 1108, 1383, 1492 against
// 3070, 3075, 3080. Earlier solves: without half-warp chunks, n = 48 688,
// 827, 1011 (session25/, call 1); a branch around each row's update, 689,
// 886, 1118 and 1016, 1400, 1874 (session24/, call 4); the owner
// scaling row k in the chain of every step, 701, 936, 1209 and 1140, 1427,
// 2368 (session24/, call 1); the first, with a branch and a barrier on the
// owner of each step, 1219, 1232, 1929 at n = 48 (session8/).

// Warps per block; warp.go's launcher uses the same value. Two warps keep
// the Upper tile at 33.3 KB (two float matrices of 64 rows of 65).
enum { kWarpTier = 2 };

template <typename T, int NC> __device__ __forceinline__ T* warp_tile(int warp) {
    return reinterpret_cast<T*>(potrf_tile) + warp * (NC * (NC + 1));
}

template <typename T, int NC> struct wide_pitch;

// posv_wide_tile is warp `warp`'s part of the dynamic shared memory of
// posv_warp with aligned Upper columns (VEC): room for the wide tile
// (wide_fill's layout) and, after it, for warp_tile's (the solve's), as
// warp.go's posvWideBytes sizes it. Not wide_tile's static array: with
// the solve's dynamic tile beside it, the block's shared memory would double.
template <typename T, int NC> __device__ __forceinline__ T* posv_wide_tile(int warp) {
    constexpr int wide = NC * wide_pitch<T, NC>::value, solve = NC * (NC + 1);
    return reinterpret_cast<T*>(potrf_tile) + warp * (wide > solve ? wide : solve);
}

template <typename T, int NC>
__device__ __forceinline__ void warp_solve(const T* tile, int n, int lane, T* bm, long long ldb, int nrhs);

// warp_solve_call is warp_solve as a call, so the solve's registers are
// allocated apart from the factorization's, which are dead by then. Below
// NC = 64 posv_warp calls it: 150–157 registers (NVRTC 13), 12 warps per
// SM, and as fast as inlined or faster (n = 48: 700, 941, 1207 µs against
// 711, 953, 1221). At NC = 64 the call cost registers instead: 218, 8 warps
// per SM, 1289, 1645, 2503 µs, against 155 registers and 1144, 1500, 2365
// inlined (session23/, calls 2 and 3).
template <typename T, int NC>
__device__ __noinline__ void warp_solve_call(const T* tile, int n, int lane, T* bm, long long ldb, int nrhs) {
    warp_solve<T, NC>(tile, n, lane, bm, ldb, nrhs);
}

// warp_solve_tier is how posv_warp and potrs_warp solve: warp_solve
// inlined at NC = 64, warp_solve_call below (the figures above).
template <typename T, int NC>
__device__ __forceinline__ void warp_solve_tier(const T* tile, int n, int lane, T* bm, long long ldb, int nrhs) {
    if constexpr (NC == 64)
        warp_solve<T, NC>(tile, n, lane, bm, ldb, nrhs);
    else
        warp_solve_call<T, NC>(tile, n, lane, bm, ldb, nrhs);
}

// Wide Upper moves (potrf_warp's VEC: real matrices whose columns are all
// 16-byte aligned, which the launcher checks). The tile above moves one
// element a lane and instruction both ways; here the warp moves U's columns
// as 16-byte chunks: column c into tile row c (lane c's row of L) by
// cp.async, half a warp a column where a row has at most 16 chunks; the
// chunk that holds the diagonal is read up to it and the rest of the row
// zero-filled (copy_async_part), and padding rows get their 1, so each lane
// reads its rows back as vectors with nothing to select. After the loop
// the rows go back into the tile as vectors and out to U's columns as
// 16-byte stores, the diagonal's chunk element by element. Rows are an odd
// number of chunks apart (wide_pitch): the eight lanes of a quarter-warp
// reading chunk q of eight consecutive rows hit eight bank groups. Only
// the triangle is read and written.
// Why. Through the tile of NC + 1 columns, Upper ran at 52 % of copy
// bandwidth at n = 64 against Lower's 68 %: 198 registers against 153
// (four blocks a multiprocessor against six), the excess being the
// predicates of the element-by-element selection of the rows (c ≤ row,
// c = row) that the compiler kept in registers into the first steps; the
// wide tile selects nothing. [H200] 65,536 float matrices, Upper, the wide
// tile against the tile, µs (% of copy bandwidth; TestPotrfWarpTiming,
// bench/results/h200/session35/, call 2): n = 64 723.4 (71 %) against
// 966.2 (53 %) (call 2's lab), 60 660.0 (68 %) against 874.9, 56 605.2
// (64 %) against 796.2, 52 551.1 against 669.3, 48 497.8 against 597.4,
// 44 455.3 against 524.2, 40 359.2 against 447.6, 36 320.4 against 368.3;
// 1,024 matrices of n = 64 19.0 against 37.6. The same with the rows
// selected element by element took 209 registers and 935.8 µs at n = 64
// (session34/, call 1); the store's loop unrolled 219 registers and 938.9
// (session34/, call 2's lab, Pu). Registers (CUDA 13): 112–165, 158 at
// NC = 64.
template <typename T, int NC> struct wide_pitch {
    static constexpr int V = 16 / (int)sizeof(T), chunks = NC / V;
    static constexpr int value = (chunks % 2 ? chunks : chunks + 1) * V; // elements
};

// wide_tile is warp `warp`'s tile: NC rows of wide_pitch elements, in
// static shared memory (34 KB a block at float NC = 64), so the launcher
// has no size of its own to keep equal to wide_pitch's.
template <typename T, int NC> __device__ __forceinline__ T* wide_tile(int warp) {
    __shared__ __align__(16) T tiles[kWarpTier][NC * wide_pitch<T, NC>::value];
    return tiles[warp];
}

// body_wide_tile is warp_body's wide tile: wide_tile for potrf_warp,
// posv_wide_tile for posv_warp. Chosen at compile time, so posv_warp does
// not declare wide_tile's static array.
template <typename T, int NC, bool SOLVE> __device__ __forceinline__ T* body_wide_tile(int warp) {
    if constexpr (SOLVE)
        return posv_wide_tile<T, NC>(warp);
    else
        return wide_tile<T, NC>(warp);
}

// copy_async_part starts the copy of the first `bytes` bytes (0 to
// sizeof(U): 4, 8 or 16) of *src into *dst, the rest of dst zeroed:
// cp.async with a source size, which reads nothing past those bytes.
template <typename U> __device__ __forceinline__ void copy_async_part(U* dst, const U* src, int bytes) {
#if __CUDA_ARCH__ >= 800
    static_assert(sizeof(U) == 4 || sizeof(U) == 8 || sizeof(U) == 16, "cp.async moves 4, 8 or 16 bytes");
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;" ::"r"((unsigned)__cvta_generic_to_shared(dst)),
                 "l"(src), "n"((int)sizeof(U)), "r"(bytes)
                 : "memory");
#else
    const char* const from = reinterpret_cast<const char*>(src);
    char* const to = reinterpret_cast<char*>(dst);
    for (int e = 0; e < (int)sizeof(U); ++e) to[e] = e < bytes ? from[e] : 0;
#endif
}

// wide_fill sets tile row r (r < NC) to row r of L for the Upper matrix at
// am (columns 16-byte aligned, leading dimension lda, order n ≤ NC): U(c,
// r) for c ≤ r, zeros after; for r ≥ n the identity's row. The calling
// lane's copies have landed when it returns; the warp's after a __syncwarp.
template <typename T, int NC>
__device__ __forceinline__ void wide_fill(T* tile, const T* am, long long lda, int n, int lane) {
    using R = typename real_of<T>::type;
    static_assert(sizeof(R) == sizeof(T), "the wide tile is for real matrices (no conjugates, no real parts)");
    constexpr int V = 16 / (int)sizeof(T), Q = NC / V, P = wide_pitch<T, NC>::value;
    constexpr int LPC = Q <= 16 ? 16 : 32, CPI = 32 / LPC; // lanes a column, columns a step
    const int q = lane % LPC, h = lane / LPC;
    long long at = (long long)h * lda + q * V;
    // Not unrolled, as wide_drain: unrolled, the float NC = 40 kernel took
    // 176 registers against 127 and lost to the tile; rolled, the others
    // take up to 15 more registers and are faster still. [H200] 65,536
    // float matrices, µs, rolled against unrolled (CUDA 13;
    // bench/results/h200/session35/, call 1's lab): n = 40 359.2 against
    // 534.7 (the tile 446.2), 48 498.5 against 528.6, 56 604.8 against
    // 638.8, 64 718.8 against 746.8.
#pragma unroll 1
    for (int c0 = 0; c0 < NC; c0 += CPI) {
        const int c = c0 + h;
        // Elements q·V … c of column c: all V, some, or none (zeros only,
        // nothing read: the source is then the matrix's first element).
        const int bytes = c < n ? max(0, min(V, c - q * V + 1)) * (int)sizeof(T) : 0;
        if (q < Q)
            copy_async_part(reinterpret_cast<pack<T>*>(tile + c * P + q * V),
                            reinterpret_cast<const pack<T>*>(am + (bytes ? at : 0)), bytes);
        at = opaque(at + CPI * lda);
    }
    wait_copies();
    __syncwarp(); // the zeros of padding rows, before their 1
    const int ib = lane + 32;
    if (ib >= n && ib < NC) tile[ib * P + ib] = T(1);
}

// wide_row sets r to tile row `row` (wide_fill's), zeros for a row past NC.
template <typename T, int NC, int K> __device__ __forceinline__ void wide_row(T (&r)[K], const T* tile, int row) {
    constexpr int V = 16 / (int)sizeof(T);
    const T* const src = tile + row * wide_pitch<T, NC>::value;
#pragma unroll
    for (int q = 0; q < K / V; ++q) {
        pack<T> p;
#pragma unroll
        for (int e = 0; e < V; ++e) p.v[e] = T(0);
        if (row < NC) p = *reinterpret_cast<const pack<T>*>(src + q * V);
#pragma unroll
        for (int e = 0; e < V; ++e) r[q * V + e] = p.v[e];
    }
}

// wide_put writes row `row` of L (row < NC) into tile row `row`, as column
// `row` of U, whole chunks: past the diagonal what the registers hold
// there, which wide_drain does not store.
template <typename T, int NC, int K> __device__ __forceinline__ void wide_put(const T (&r)[K], T* tile, int row) {
    constexpr int V = 16 / (int)sizeof(T);
    T* const dst = tile + row * wide_pitch<T, NC>::value;
#pragma unroll
    for (int q = 0; q < K / V; ++q) {
        pack<T> p;
#pragma unroll
        for (int e = 0; e < V; ++e) p.v[e] = r[q * V + e];
        *reinterpret_cast<pack<T>*>(dst + q * V) = p;
    }
}

// wide_drain stores the tile's columns of U (wide_put's) to am: element
// (r, c) for r ≤ c where r < fail − 1 (every one when fail = 0), and the
// failing pivot; whole chunks as 16-byte stores, the rest element by
// element.
template <typename T, int NC>
__device__ __forceinline__ void wide_drain(const T* tile, T* am, long long lda, int n, int lane, int fail) {
    constexpr int V = 16 / (int)sizeof(T), Q = NC / V, P = wide_pitch<T, NC>::value;
    constexpr int LPC = Q <= 16 ? 16 : 32, CPI = 32 / LPC;
    const int q = lane % LPC, h = lane / LPC, r0 = q * V;
    const int last = fail ? fail - 1 : NC;
    long long at = (long long)h * lda + r0;
    // Not unrolled: unrolled, the float NC = 64 kernel took 219 registers
    // against 151 under CUDA 13 (255 and a 72-byte stack under NVRTC 12.4);
    // nothing here is indexed by the step, so rolled costs a loop counter.
#pragma unroll 1
    for (int c0 = 0; c0 < NC; c0 += CPI) {
        const int c = c0 + h;
        if (q < Q && c < n && r0 <= c) {
            const pack<T> p = *reinterpret_cast<const pack<T>*>(tile + c * P + r0);
            T* const out = am + at;
            if (r0 + V - 1 <= c && r0 + V - 1 < last) {
                *reinterpret_cast<pack<T>*>(out) = p;
            } else {
#pragma unroll
                for (int e = 0; e < V; ++e) {
                    const int r = r0 + e;
                    if (r <= c && (r < last || (r == c && c == fail - 1))) out[e] = p.v[e];
                }
            }
        }
        at = opaque(at + CPI * lda);
    }
}

// posv_wide reports whether warp_body moves aligned Upper columns (VEC)
// through the wide tile rather than in place (potrf.cu's upper_row_load):
// always for potrf_warp, and for posv_warp but double below NC = 48.
// [H200] 65,536 systems, one right-hand side, µs, the wide tile against
// in place (bench/results/h200/session41/, calls 1 and 5): float n = 36
// 478.7 against 528.9, 48 712.1 against 799.8, 56 826.0 against 1245, 64
// 1088 against 1435; double n = 48 1379 against 1436 but 36 1118 against
// 1037, 40 1417 against 1057, 44 1271 against 1235.
template <typename T, int NC, bool SOLVE> constexpr bool posv_wide = !SOLVE || sizeof(T) == 4 || NC >= 48;

// warp_body is potrf_warp's whole work and posv_warp's factorization: NC,
// columns held by the second row, a multiple of 4 in (32, 64]; UPPER, the
// triangle that holds A; VEC (Upper), its columns are 16-byte aligned:
// moved through the wide tile, or in place where posv_wide says not. With
// SOLVE (posv_warp) it goes on to solve A·X = B with warp_solve unless the
// matrix failed; without, the solve is not compiled and b is not used.
template <typename T, int NC, bool SOLVE, bool UPPER, bool VEC>
__device__ __forceinline__ void warp_body(T* __restrict__ a, long long lda, long long stride, int n, int count,
                                          int* __restrict__ info, T* __restrict__ b, long long ldb, long long bstride,
                                          int nrhs) {
    static_assert(NC > 32 && NC <= 64 && NC % 4 == 0, "NC is a multiple of 4 in (32, 64]");
    using R = typename real_of<T>::type;
    constexpr int V = 16 / (int)sizeof(T); // elements per 16-byte vector: 4 or 2
    static_assert(32 % V == 0 && NC % V == 0, "whole vectors");

    __shared__ pack<T> column[2][kWarpTier][64 / V];

    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    const long long m = (long long)blockIdx.x * kWarpTier + warp;
    if (m >= count) return; // the whole warp: the kernel has no block-wide barrier
    const int ib = lane + 32;      // the second row
    const bool realb = ib < n;     // the first row, lane < 32 < n, is always real
    const long long base = m * stride;

    static_assert(UPPER || !VEC, "VEC is for Upper");
    constexpr bool WIDE = VEC && posv_wide<T, NC, SOLVE>;
    T ra[32], rb[NC];
    if constexpr (UPPER) {
        if constexpr (WIDE) {
            // 16-byte chunks through the wide tile (wide_fill); posv_warp's
            // is in its dynamic shared memory (posv_wide_tile).
            T* const tile = body_wide_tile<T, NC, SOLVE>(warp);
            wide_fill<T, NC>(tile, a + base, lda, n, lane);
            __syncwarp();
            wide_row<T, NC>(ra, tile, lane);
            wide_row<T, NC>(rb, tile, ib);
        } else if constexpr (VEC) {
            // Columns lane and ib of U in place (potrf.cu's upper_row_load).
            upper_row_load<T, 32>(ra, a + (base + (long long)lane * lda), lane, true);
            upper_row_load<T, NC>(rb, a + (base + (long long)ib * lda), ib, realb);
        } else {
            // Column c of U, rows 0..c, into tile row c (consecutive addresses
            // per lane), then each lane reads its two rows (potrf.cu's upper_tile).
            T* const tile = warp_tile<T, NC>(warp);
            if constexpr (!SOLVE && sizeof(T) == 4) {
                // float potrf_warp: by cp.async, the entries past the
                // diagonal zero-filled (copy_async_part, nothing read) and
                // padding rows given their 1, so each lane reads its rows
                // back with nothing to select, as wide_fill does (the warp
                // tier's types are real). Tile rows below 32 are read to
                // column 31 only (ra). The loop is not unrolled, as
                // wide_fill's: unrolled it took 167–254 registers.
                // Why. Selected element by element, the rows took 117–220
                // registers (198 at NC = 64), here 114–167. [H200] 65,536
                // float matrices, packed (columns not 16-byte aligned), µs
                // (bench/results/h200/session35/, call 4's lab): n = 33
                // 331.0 against 378.9, 39 389.4 against 439.4, 47 529.1
                // against 591.7, 55 639.6 against 789.8, 63 759.0 (65 % of
                // copy) against 956.6 (51 %). double stays selecting: zero-
                // filled, NC = 56 spilled 8 B and n = 33 ran 702.6 against
                // 693.2 (n = 55 1058.4 against 1342.9).
                static_assert(sizeof(R) == sizeof(T), "the warp tier's types are real");
#pragma unroll 1
                for (int c = 0; c < NC; ++c) {
                    const bool ina = c < n && lane <= c;
                    copy_async_part(tile + c * (NC + 1) + lane, a + (base + (ina ? lane + c * lda : 0)), ina ? (int)sizeof(T) : 0);
                    if (c >= 32 && ib < NC) {
                        const bool inb = c < n && ib <= c;
                        copy_async_part(tile + c * (NC + 1) + ib, a + (base + (inb ? ib + c * lda : 0)), inb ? (int)sizeof(T) : 0);
                    }
                }
                wait_copies();
                if (ib >= n && ib < NC) tile[ib * (NC + 1) + ib] = T(1); // over this lane's own zero
                __syncwarp();
#pragma unroll
                for (int c = 0; c < 32; ++c) ra[c] = tile[lane * (NC + 1) + c];
#pragma unroll
                for (int c = 0; c < NC; ++c) rb[c] = ib < NC ? tile[ib * (NC + 1) + c] : T(0);
            } else {
                // posv_warp copies through registers: with cp.async it took
                // 255 registers and 64 B of local memory at NC = 56 (CUDA
                // 13), and at n = 64 with 16 right-hand sides ran 2833 µs
                // against 2584 (65,536 systems;
                // bench/results/h200/session27/, call 2). double potrf_warp
                // copies by cp.async, as potrf_reg does.
                if constexpr (SOLVE) {
#pragma unroll
                    for (int c = 0; c < NC; ++c) {
                        if (c < n && lane <= c) tile[c * (NC + 1) + lane] = a[base + lane + c * lda];
                        if (c < n && ib <= c) tile[c * (NC + 1) + ib] = a[base + ib + c * lda];
                    }
                } else {
#pragma unroll
                    for (int c = 0; c < NC; ++c) {
                        if (c < n && lane <= c) copy_async(tile + c * (NC + 1) + lane, a + (base + lane + c * lda));
                        if (c >= 32 && c < n && ib <= c) copy_async(tile + c * (NC + 1) + ib, a + (base + ib + c * lda));
                    }
                    wait_copies();
                }
                __syncwarp();
#pragma unroll
                for (int c = 0; c < 32; ++c) {
                    T v = from_real<T>(c == lane ? R(1) : R(0));
                    if (c <= lane) {
                        const T x = tile[lane * (NC + 1) + c]; // U(c, lane)
                        v = c == lane ? from_real<T>(re(x)) : conj_(x);
                    }
                    ra[c] = v;
                }
#pragma unroll
                for (int c = 0; c < NC; ++c) {
                    T v = from_real<T>(c == ib ? R(1) : R(0));
                    if (realb && c <= ib) {
                        const T x = tile[ib * (NC + 1) + c];
                        v = c == ib ? from_real<T>(re(x)) : conj_(x);
                    }
                    rb[c] = v;
                }
            }
        }
    } else {
#pragma unroll
        for (int c = 0; c < 32; ++c) {
            T v = from_real<T>(c == lane ? R(1) : R(0));
            if (c <= lane) {
                const T x = a[base + lane + c * lda];
                v = c == lane ? from_real<T>(re(x)) : x;
            }
            ra[c] = v;
        }
#pragma unroll
        for (int c = 0; c < NC; ++c) {
            T v = from_real<T>(c == ib ? R(1) : R(0));
            if (realb && c <= ib) {
                const T x = a[base + ib + c * lda];
                v = c == ib ? from_real<T>(re(x)) : x;
            }
            rb[c] = v;
        }
    }

    T* const outa = a + opaque(base + lane);
    T* const outb = a + opaque(base + ib);
    T* const col0 = reinterpret_cast<T*>(&column[0][warp][0]);
    T* const col1 = reinterpret_cast<T*>(&column[1][warp][0]);
    // potrf_warp's pivots take rsqrt_fast, and a positive one it refuses
    // stops the loop as a failure would; finish_in_memory (potrf.cu) takes
    // the matrix on from there. posv_warp keeps rsqrt_: its solve reads L
    // from the registers. The rsqrt stays predicated on the failure test:
    // formed whatever the test gives (pivot_rsqrt, as potrf_reg and
    // potrf_cta do), the float in-place Upper kernels took 173 to 255
    // registers (112 to 165) and 65,536 matrices ran 12 % slower at n = 64
    // and 31 % at n = 48, though 1,024 of n = 64 ran 3.0 % faster ([H100],
    // bench/results/h200/session70/, call 1).
    constexpr bool kFast = !SOLVE;
    int fail = 0; // j+1 of the first pivot that is not > 0 (kFast: that rsqrt_fast refuses)

#pragma unroll
    for (int j = 0; j < NC; ++j) {
        const R d = j < 32 ? __shfl_sync(0xffffffffu, re(ra[j < 32 ? j : 0]), j % 32)
                           : __shfl_sync(0xffffffffu, re(rb[j]), j % 32);
        // NaN fails too; padding pivots are 1.
        if (!(kFast ? rsqrt_fast_takes(d) : d > R(0)) && fail == 0) fail = j + 1;
        const R s = fail == 0 ? (kFast ? rsqrt_fast(d) : rsqrt_(d)) : R(0);
        const R diag = isinf(d) ? d : d * s;
        const T lb = ib == j ? from_real<T>(diag) : scale(rb[j], s);
        T la = from_real<T>(R(0));
        if (j < 32) la = lane == j ? from_real<T>(diag) : scale(ra[j < 32 ? j : 0], s);

        // Column j of the rows is final: L(row, j), or on the failing
        // pivot's owner the pivot itself, as potf2 leaves it. Both
        // triangles store after the loop: stores inside it (potrf_reg's
        // Lower) cost 32 registers here (NVRTC 11.8, float NC = 64: 200).
        if (j < 32) ra[j < 32 ? j : 0] = fail == j + 1 && lane == j ? from_real<T>(d) : la;
        rb[j] = fail == j + 1 && ib == j ? from_real<T>(d) : lb;

        T* const col = (j & 1) ? col1 : col0;
        if (j < 31) col[lane] = la; // read back only for columns k < 32 of ra
        col[ib] = lb;
        __syncwarp();

        if (j < 31) {
#pragma unroll
            for (int kb = 0; kb < 32; kb += V) {
                if (kb + V <= j + 1) continue; // constant once j is
                const pack<T> p = *reinterpret_cast<const pack<T>*>(col + kb);
#pragma unroll
                for (int e = 0; e < V; ++e) {
                    const int k = kb + e;
                    if (k > j) ra[k] = sub_mul_conj(ra[k], la, p.v[e]);
                }
            }
        }
#pragma unroll
        for (int kb = 0; kb < NC; kb += V) {
            if (kb + V <= j + 1) continue;
            // At most 16 elements of the column in flight: left alone, the
            // compiler loads all of it ahead of the products (64 values
            // beside the 96 of the rows).
            if (kb % 16 == 0) asm volatile("" ::: "memory");
            const pack<T> p = *reinterpret_cast<const pack<T>*>(col + kb);
#pragma unroll
            for (int e = 0; e < V; ++e) {
                const int k = kb + e;
                if (k > j) rb[k] = sub_mul_conj(rb[k], lb, p.v[e]);
            }
        }
    }

    // Column c of L (row c of U) is final when c < fail − 1 (every column
    // when fail = 0); the failing pivot is the one other element written
    // (potrf_reg's rule). The offsets c·lda are stepped through an opaque
    // value: computed as c·lda the compiler kept them all live (float
    // NC = 64 Upper: 243 registers, against 168).
    const int last = fail ? fail - 1 : NC;
    if constexpr (!UPPER) {
        long long at = 0;
#pragma unroll
        for (int c = 0; c < NC; ++c) { // column c of L, rows ≥ c, two per lane
            if (c < 32 && lane >= c && (c < last || (lane == c && c == fail - 1))) outa[at] = ra[c < 32 ? c : 0];
            if (realb && ib >= c && (c < last || (ib == c && c == fail - 1))) outb[at] = rb[c];
            at = opaque(at + lda);
        }
    } else if constexpr (WIDE) {
        T* const tile = body_wide_tile<T, NC, SOLVE>(warp);
        wide_put<T, NC>(ra, tile, lane);
        if (ib < NC) wide_put<T, NC>(rb, tile, ib);
        __syncwarp();
        wide_drain<T, NC>(tile, a + opaque(base), lda, n, lane, fail);
    } else if constexpr (VEC) {
        upper_row_store<T, 32>(ra, a + opaque(base + (long long)lane * lda), lane, true, fail);
        upper_row_store<T, NC>(rb, a + opaque(base + (long long)ib * lda), ib, realb, fail);
    } else {
        // Rows of L back to columns of U through the tile.
        T* const tile = warp_tile<T, NC>(warp);
#pragma unroll
        for (int c = 0; c < 32; ++c)
            if (c <= lane) tile[lane * (NC + 1) + c] = c == lane && lane == fail - 1 ? ra[c] : conj_(ra[c]);
#pragma unroll
        for (int c = 0; c < NC; ++c)
            if (ib < NC && c <= ib) tile[ib * (NC + 1) + c] = c == ib && ib == fail - 1 ? rb[c] : conj_(rb[c]);
        __syncwarp();
        long long at = 0;
#pragma unroll
        for (int c = 0; c < NC; ++c) { // column c of U: rows 0..c, two per lane
            if (c < n && lane <= c && (lane < last || (lane == c && c == fail - 1)))
                outa[at] = tile[c * (NC + 1) + lane];
            if (c < n && ib <= c && (ib < last || (ib == c && c == fail - 1)))
                outb[at] = tile[c * (NC + 1) + ib];
            at = opaque(at + lda);
        }
    }

    if constexpr (kFast) {
        if (fail != 0) { // uniform over the warp
            // The matrix is found again from the indices, behind opaque(), so
            // that nothing is kept live through the steps for this rare path
            // (finish_in_memory says what it cost).
            __syncwarp(); // the stored pivot, seen by every lane
            T* const am = a + opaque((long long)blockIdx.x * kWarpTier + threadIdx.x / 32) * stride;
            if (re(am[(long long)(fail - 1) * (lda + 1)]) > R(0))
                fail = finish_in_memory<T, UPPER, 32>(am, lda, n, fail - 1, lane, 0xffffffffu);
        }
    }
    if (lane == 0) info[m] = fail;

    if constexpr (SOLVE) {
        if (fail != 0) return; // uniform over the warp: B is neither read nor written
        // The registers hold rows of L for either triangle (Upper's are
        // Uᴴ's); Upper's store through either tile must be read out first.
        if constexpr (UPPER && (WIDE || !VEC)) __syncwarp();
        T* const tile = WIDE ? posv_wide_tile<T, NC>(warp) : warp_tile<T, NC>(warp);
#pragma unroll
        for (int c = 0; c < 32; ++c)
            if (c <= lane) tile[lane * (NC + 1) + c] = ra[c];
#pragma unroll
        for (int c = 0; c < NC; ++c)
            if (ib < NC && c <= ib) tile[ib * (NC + 1) + c] = rb[c];
        __syncwarp();
        warp_solve_tier<T, NC>(tile, n, lane, b + m * bstride, ldb, nrhs);
    }
}

// The split body: potrf_warp's work for float64 above NC = 56, where
// warp_body's 32 + NC values a lane spill (warp.go's maxWarp),
// potrs_warp's for float64 (every NC), and posv_split's for float64 and
// float32 (posv.go's posvSplit says at which orders). The matrix's lower
// triangle goes into the warp's packed tile (tri_at: by rows, or by
// columns for posv_split's Lower, split_rows; 16.6 KB for double at
// NC = 64, half of warp_tile's square) by cp.async, every copy in flight
// at once.
// potrf_split factors it there left-looking by panels of 16 columns: for
// the panel at column c0, lane i takes its rows i and i + 32 of the
// panel's columns from the tile (32 values; rows i < 32 only while c0 <
// 32), subtracts L(row, j)·L(c0 + k, j) for the finished columns
// j < c0 in order (its own rows' L from the tile, the panel rows' L as
// broadcasts), runs warp_body's steps on the panel, and puts the rows back.
// The tile then holds L, which goes out to A. potrs_split fills the tile
// the same way with the factor and solves from it (tri_solve).
// Bits. Each element takes the same fused products in the same order as
// in warp_body (step j subtracts L(i, j)·L(k, j); the panels do so for
// j = 0, 1, … in order), so L and info are warp_body's bits, and
// finish_in_memory's where it takes over; X is warp_solve's. Failure,
// padding and the other triangle follow warp_body.
// Why. [H200] 65,536 float64 matrices, µs, one process
// (bench/results/h200/session42/, call 1): potrf_cta ran Lower n = 64 in
// 1905, n = 57 in 1793, Upper n = 64 in 2595; potrs_warp solved Lower
// n = 64 with 1 and 16 right-hand sides in 1543 and 2483 against
// potrs_split's 630 and 1552, Upper 1540 and 2468 against 541 and 1492
// (potrs_warp read the factor through registers, four columns at a time,
// and its square tile, 33 KB a warp, allowed 6 warps a multiprocessor).
// The first split body held two blocks of 32 columns (64 values a lane,
// the second block's update as one product): 180 registers, 8 warps a
// multiprocessor (call 2's ncu: the register file of each scheduler held
// two), and with __launch_bounds__ for 12 warps it spilled 48–72 B and
// lost (1517 against 1402, call 2). The panels take 106–138 registers, 12
// warps: Lower n = 64 1230 against 1419, Upper 1225 against 1386, Lower
// n = 57 1217 against 1283 (call 4). Below NC = 60 warp_body stays: Lower
// n = 56 917 against the panels' 1043 (call 4; Upper 1310 against 1038
// there, but slower at small batches: warp.go's warpSplit). A posv
// kernel on the two-block body (the factorization, then tri_solve in the
// same warp: 184–188 registers) lost to the two launches at 16 right-hand
// sides (Lower n = 64 4066 against 2962) and won little at one (Upper
// 1827 against 1923, Lower 2168 against 2040; call 1), so Posv took the
// two launches; on the panels it wins (posv_split, session 44). For
// float32 (session 68) the panels take 80–111 registers against
// posv_warp's 158 at NC = 64 (NVRTC 13), and tri_solve's half-warp
// chunks, which posv_warp's registers kept from it at NC = 64 (warp_solve):
// [H100] 16,384 float systems, µs, posv_split against posv_warp, one
// process (bench/results/h200/session68/, split-lab1 and split-lab2 logs):
// Lower n = 64 with 1, 4, 16 right-hand sides 307.4, 327.8, 407.5 against
// 329.0, 348.5, 490.6, Upper n = 61 with 1 and 16 268.0 and 388.3
// against 483.1 and 747.2.

// tri_at is the offset of L(i, k), i ≥ k, in a warp's packed tile, by
// rows (row i at i(i + 1)/2) or by columns (column k at k·NC − k(k − 1)/2,
// rows k…NC−1 in order). split_fill copies a column of A to consecutive
// words where it is a row of the tile's L (Upper by rows) or a column
// (Lower by columns); split_rows says which layout each kernel takes.
template <int NC, bool ROWS> __device__ __forceinline__ int tri_at(int i, int k) {
    if constexpr (ROWS) return i * (i + 1) / 2 + k;
    else return k * (2 * NC - k - 1) / 2 + i;
}

// split_rows is whether split_body packs the tile by rows: always but for
// posv_split's Lower, whose columns by rows land one word per row of the
// tile. potrf_split and potrs_split keep rows (below).
// Why. posv_split Lower ran 8 % behind Upper by rows: [H200] 16,384
// float64 systems of n = 48, 1 and 16 right-hand sides, µs, Lower 299.3
// and 409.3, Upper 276.0 and 388.0; Lower with Upper's copies (symmetric
// A, the same values) 274.9 and 386.6 (lab/lower.py,
// bench/results/h200/session45/, call 1). Lanes rotated so each
// half-warp's words fell in 16 bank pairs ran slower (305.1): the scatter
// costs, not bank conflicts. By columns, with split_panel stepping a
// pointer to column j (tri_at's quadratic offset each step lost: 292.2 and
// 385.9 at n = 48, and slower than rows from n = 49), 116 registers at
// NC = 44 and 48 (140 by rows: 16 warps a multiprocessor against 12):
// Lower n = 48 273.4 and 371.5 against rows' 300.1 and 408.2, n = 36
// 237.8 and 311.5 against 241.0 and 318.8, n = 64 420.9 and 596.0 against
// 426.8 and 610.4; 65,536 systems of n = 48 1037.5 and 1423 against 1147
// and 1570 (lab/routes.py, call 3). potrf_split Lower by columns lost
// (n = 64: 343.2 against 335.6, 65,536 matrices 1254 against 1230; call
// 3), and so did potrs_split at 1 and 4 right-hand sides (n = 48 120.7
// and 141.6 against 115.1 and 136.8, call 2).
template <bool UPPER, bool SOLVE> constexpr bool split_rows = UPPER || !SOLVE;

// tri_tile is L in a packed tile, for the solves (sweeps.cu). By rows,
// lanes reading L(lane, k) hit 32 different words mod 32 (triangular
// numbers mod 32 are a permutation of 0…31) and L(k, lane) consecutive
// words; by columns the other way round.
template <typename T, int NC, bool ROWS> struct tri_tile {
    const T* p;
    __device__ __forceinline__ T operator()(int i, int k) const { return p[tri_at<NC, ROWS>(i, k)]; }
};

// split_pitch is the elements of one warp's packed tile, rounded up to
// whole 16-byte vectors; warp.go's splitBytes uses the same value.
template <typename T, int NC> struct split_pitch {
    static constexpr int V = 16 / (int)sizeof(T), elems = NC * (NC + 1) / 2;
    static constexpr int value = (elems + V - 1) / V * V;
};

template <typename T, int NC> __device__ __forceinline__ T* split_tile(int warp) {
    return reinterpret_cast<T*>(potrf_tile) + warp * split_pitch<T, NC>::value;
}

// split_fill copies the lower triangle of the Hermitian matrix at am into
// the packed tile, rows and columns below n (real types: Upper's U(c, r) is
// L(r, c)): Lower column c's rows c… and Upper column r's rows 0…r are
// consecutive in memory and go to consecutive lanes, and to consecutive
// words but for Lower by rows (split_rows). The calling lane's copies have
// landed when it returns; the warp's after a __syncwarp.
template <typename T, int NC, bool UPPER, bool ROWS>
__device__ __forceinline__ void split_fill(T* tile, const T* am, long long lda, int n, int lane) {
    static_assert(ROWS || !UPPER, "Upper's tile is by rows");
    long long at = 0; // column c (Lower) or r (Upper) at c·lda
#pragma unroll 1
    for (int c = 0; c < n; ++c) {
        if constexpr (UPPER) {
            // U(0…c, c) into tile row c.
            if (lane <= c) copy_async(tile + tri_at<NC, true>(c, lane), am + (at + lane));
            if (lane + 32 <= c) copy_async(tile + tri_at<NC, true>(c, lane + 32), am + (at + lane + 32));
        } else {
            // L(c…n−1, c) into tile column c.
            const int r = c + lane;
            if (r < n) copy_async(tile + tri_at<NC, ROWS>(r, c), am + (at + r));
            if (r + 32 < n) copy_async(tile + tri_at<NC, ROWS>(r + 32, c), am + (at + r + 32));
        }
        at = opaque(at + lda);
    }
    wait_copies();
}

// split_row sets x[c] to L(r, c0 + c) from the tile where c0 + c ≤ r and to
// the identity's entries beyond; a row r ≥ n is the identity's.
template <typename T, int NC, bool ROWS, int K>
__device__ __forceinline__ void split_row(T (&x)[K], const T* tile, int r, int c0, int n) {
    using R = typename real_of<T>::type;
#pragma unroll
    for (int c = 0; c < K; ++c) {
        const int k = c0 + c;
        T v = from_real<T>(k == r ? R(1) : R(0));
        if (r < n && k <= r) v = tile[tri_at<NC, ROWS>(r, k)];
        x[c] = v;
    }
}

// split_put writes x[c] into the tile as L(r, c0 + c) for c0 + c ≤ r.
template <typename T, int NC, bool ROWS, int K>
__device__ __forceinline__ void split_put(const T (&x)[K], T* tile, int r, int c0) {
#pragma unroll
    for (int c = 0; c < K; ++c)
        if (c0 + c <= r) tile[tri_at<NC, ROWS>(r, c0 + c)] = x[c];
}

// split_steps runs warp_body's steps j = 0…K−1 on the panel at column c0:
// x holds rows lane + c0 − O of its columns, so the pivot of column c0 + j
// is on lane O + j and the column buffer holds row c0 + k at O + k; with
// TWO, y holds rows below the panel, which only take the updates. col0
// and col1 are the warp's two column buffers of 32; fail as in warp_body,
// counting from column 0; FAST as split_body's.
template <typename T, int K, bool TWO, int O, bool FAST>
__device__ __forceinline__ void split_steps(T (&x)[K], T (&y)[K], int lane, int c0, T* col0, T* col1, int& fail) {
    using R = typename real_of<T>::type;
    constexpr int V = 16 / (int)sizeof(T);
    static_assert(O % V == 0 && O + K <= 32, "the panel's rows are whole vectors of the column buffer");
#pragma unroll
    for (int j = 0; j < K; ++j) {
        const R d = __shfl_sync(0xffffffffu, re(x[j]), O + j);
        if (!(FAST ? rsqrt_fast_takes(d) : d > R(0)) && fail == 0) fail = c0 + j + 1;
        const R s = fail == 0 ? (FAST ? rsqrt_fast(d) : rsqrt_(d)) : R(0);
        const R diag = isinf(d) ? d : d * s;
        const T lx = lane == O + j ? from_real<T>(diag) : scale(x[j], s);
        x[j] = fail == c0 + j + 1 && lane == O + j ? from_real<T>(d) : lx;
        T ly = from_real<T>(R(0));
        if constexpr (TWO) {
            ly = scale(y[j], s);
            y[j] = ly;
        }
        if (j == K - 1) break; // nothing left to update
        T* const col = (j & 1) ? col1 : col0;
        col[lane] = lx;
        __syncwarp();
#pragma unroll
        for (int kb = 0; kb < K; kb += V) {
            if (kb + V <= j + 1) continue;
            const pack<T> p = *reinterpret_cast<const pack<T>*>(col + O + kb);
#pragma unroll
            for (int e = 0; e < V; ++e) {
                const int k = kb + e;
                if (k > j) {
                    x[k] = sub_mul_conj(x[k], lx, p.v[e]);
                    if constexpr (TWO) y[k] = sub_mul_conj(y[k], ly, p.v[e]);
                }
            }
        }
    }
}

// split_panel factors the columns C0…C0+15 below NC in the tile (the
// comment above): the lane's rows of the panel from the tile, the products
// of the finished columns subtracted, the panel's steps, the rows back.
template <typename T, int NC, bool ROWS, int C0, bool FAST>
__device__ __forceinline__ void split_panel(T* tile, int lane, int n, T* col0, T* col1, int& fail) {
    if constexpr (C0 < NC) {
        constexpr int K = 16;
        constexpr bool TOP = C0 < 32; // rows lane (x) still have columns here
        const int ib = lane + 32;
        T x[K], y[K];
        if constexpr (TOP) split_row<T, NC, ROWS, K>(x, tile, lane, C0, n);
        split_row<T, NC, ROWS, K>(y, tile, ib, C0, n);
        // L(i, j) is row_i[j] by rows, col_j[i] by columns (split_rows:
        // tri_at's offset computed each step lost).
        const T* const row_x = tile + tri_at<NC, true>(lane, 0);
        const T* const row_y = tile + tri_at<NC, true>(ib < NC ? ib : 0, 0);
        const T* col_j = tile;
        const int iy = ib < NC ? ib : 0; // no address past the tile
#pragma unroll 4
        for (int j = 0; j < C0; ++j) {
            const T lx = TOP ? (ROWS ? row_x[j] : col_j[lane]) : from_real<T>(0);
            const T ly = ib < NC ? (ROWS ? row_y[j] : col_j[iy]) : from_real<T>(0);
#pragma unroll
            for (int c = 0; c < K; ++c) {
                if (C0 + c >= NC) break; // padding columns: nothing in the tile
                const T p = ROWS ? tile[tri_at<NC, true>(C0 + c, j)] : col_j[C0 + c];
                if constexpr (TOP) x[c] = sub_mul_conj(x[c], lx, p);
                y[c] = sub_mul_conj(y[c], ly, p);
            }
            col_j += NC - 1 - j; // from L(0, j)'s place to L(0, j + 1)'s
        }
        if constexpr (TOP) {
            split_steps<T, K, true, C0, FAST>(x, y, lane, C0, col0, col1, fail);
        } else {
            T none[K]; // split_steps' second rows, unused without TWO
            split_steps<T, K, false, C0 - 32, FAST>(y, none, lane, C0, col0, col1, fail);
        }
        __syncwarp(); // every lane has read its rows and the panel's before they are rewritten
        if constexpr (TOP) split_put<T, NC, ROWS, K>(x, tile, lane, C0);
        if (ib < NC) split_put<T, NC, ROWS, K>(y, tile, ib, C0);
        __syncwarp();
    }
}

template <typename T, int NC, int G, int H, typename A>
__device__ __forceinline__ void group_chunk(const A& at, int n, int lane,
                                            const typename real_of<T>::type (&inv)[(NC + G - 1) / G], T* bm,
                                            long long ldb, int c0, T* pub);

template <typename T, int NC, int G, typename A>
__device__ __forceinline__ void group_inverses(typename real_of<T>::type (&inv)[(NC + G - 1) / G], const A& at, int n,
                                               int lane);

// kTriGroups is the narrowest chunk of right-hand sides tri_solve deals
// to groups of lanes (halves or quarters, tri_group).
constexpr int kTriGroups = 8;

// tri_group is the group of lanes (group_chunk) that solves tri_solve's
// chunks: quarter-warps where NC is 36 or 40, half-warps above (the
// figures below).
template <int NC> constexpr int tri_group = NC <= 40 ? 8 : 16;

// tri_solve is warp_solve's work on L in the packed tile, so X has
// warp_solve's bits: chunks of 16 and 8 right-hand sides dealt to groups
// of lanes (group_chunk; every NC), the rest as warp_chunk (warp_tail).
// The groups cut the shared-memory traffic a step: a row of Y through the
// buffer serves up to four rows a lane instead of two, and a group's loads
// of L are G addresses. [H200] ncu, 16,384 float64 systems, n = 64, 16
// right-hand sides: warp_chunk kept L1/shared 74 % busy and the issue
// slots 44 %, 530 µs; the halves 80 % and 56 %, 420 µs. 65,536 systems,
// µs, warp_chunk against halves from 16 columns and from 8 (kTriGroups =
// 16, 8; lab/tri.py, bench/results/h200/session43/, call 2): n = 64 with
// 16 right-hand sides 1557 against 1244 and 1254, with 8 941 against 954
// and 897; n = 48 with 16 1152 against 810 and 816, with 8 709 against 675
// and 585. Halves of 2 for 4 columns lost (n = 64: 830 against 745). The
// groups' 1/L(row, row) are computed only where groups run: computed first
// for every B they cost narrow ones 3 % (n = 64 with 1 right-hand side:
// 652 against 632, call 2); so placed, 626.8 against HEAD's 627.3 (call
// 4's A/B of the CLIs).
// Quarters (four groups of 8 lanes, G = 8) step rows in blocks of 8, so
// at NC = 40 the lanes carry 40 rows where halves carry 48. [H200] 65,536
// float64 systems, µs, quarters against halves (lab/groups.py,
// bench/results/h200/session44/, call 1): n = 40 with 16 right-hand sides
// 635.7 against 700.6, with 32 1101.9 against 1233, with 1 to 12 within
// 1 % (106 registers against 114); call 2, n = 33, 36, 37, 40, 65,536
// and 16,384 systems: 16 right-hand sides 5–9 % faster, 32 8–11 %, 1 to
// 12 from 1 % faster to 1.8 % slower (8 at n = 33: 433.6 against 426.1),
// the same bits. Where halves carry no padding rows they won: n = 48 with
// 16 815 against 870, n = 64 1249 against 1484 (136 and 180 registers
// against 114 and 144); at n = 56 quarters won with 16 and 32 right-hand
// sides but lost with 8 and 12 (846 against 791; call 1).
template <typename T, int NC, bool ROWS>
__device__ __forceinline__ void tri_solve(const T* tile, int n, int lane, T* bm, long long ldb, int nrhs) {
    using R = typename real_of<T>::type;
    constexpr int G = tri_group<NC>;
    __shared__ __align__(16) T pubs[kWarpTier][2 * 16];
    T* const pub = pubs[threadIdx.x / 32];
    const tri_tile<T, NC, ROWS> at{tile};
    int c0 = 0;
    if (nrhs >= kTriGroups) {
        R inv[(NC + G - 1) / G];
        group_inverses<T, NC, G>(inv, at, n, lane);
#pragma unroll 1
        for (; c0 + 16 <= nrhs; c0 += 16) group_chunk<T, NC, G, G / 2>(at, n, lane, inv, bm, ldb, c0, pub);
        if (c0 + 8 <= nrhs) group_chunk<T, NC, G, G / 4>(at, n, lane, inv, bm, ldb, c0, pub), c0 += 8;
    }
    if (c0 == nrhs) return;
    const int ib = lane + 32;
    const R inva = R(1) / re(at(lane, lane));
    const R invb = ib < n ? R(1) / re(at(ib, ib)) : R(0);
    warp_tail<T, 8>(at, n, lane, inva, invb, bm, ldb, c0, nrhs, pub);
}

// split_body is potrf_split's whole work and posv_split's factorization:
// the lower triangle into the warp's packed tile (split_fill), the panels,
// L out to A and info, as the comment above says. With SOLVE (posv_split)
// it goes on, unless the matrix failed, to solve A·X = B from the tile
// (tri_solve), so X has the bits of potrs_split given this factor;
// without, b is not used.
template <typename T, int NC, bool UPPER, bool SOLVE>
__device__ __forceinline__ void split_body(T* __restrict__ a, long long lda, long long stride, int n, int count,
                                           int* __restrict__ info, T* __restrict__ b, long long ldb, long long bstride,
                                           int nrhs) {
    static_assert(NC > 32 && NC <= 64 && NC % 4 == 0, "NC is a multiple of 4 in (32, 64]");
    using R = typename real_of<T>::type;
    static_assert(sizeof(R) == sizeof(T), "the warp tier's types are real");
    __shared__ pack<T> column[2][kWarpTier][32 * sizeof(T) / 16];

    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    const long long m = (long long)blockIdx.x * kWarpTier + warp;
    if (m >= count) return; // the whole warp: the kernel has no block-wide barrier
    T* const am = a + m * stride;
    T* const tile = split_tile<T, NC>(warp);
    T* const col0 = reinterpret_cast<T*>(&column[0][warp][0]);
    T* const col1 = reinterpret_cast<T*>(&column[1][warp][0]);

    constexpr bool ROWS = split_rows<UPPER, SOLVE>;
    // FAST: the pivots take rsqrt_fast, a positive one it refuses going on
    // in memory (below); float posv_split keeps rsqrt_, as posv_warp does,
    // since its solve reads L from the tile (for double the two are one).
    constexpr bool FAST = !SOLVE || sizeof(T) == 8;
    split_fill<T, NC, UPPER, ROWS>(tile, am, lda, n, lane);
    __syncwarp();
    int fail = 0;
    split_panel<T, NC, ROWS, 0, FAST>(tile, lane, n, col0, col1, fail);
    if (fail == 0) split_panel<T, NC, ROWS, 16, FAST>(tile, lane, n, col0, col1, fail); // uniform over the warp
    if (fail == 0) split_panel<T, NC, ROWS, 32, FAST>(tile, lane, n, col0, col1, fail);
    if (fail == 0) split_panel<T, NC, ROWS, 48, FAST>(tile, lane, n, col0, col1, fail);

    // L out of the tile: columns before last (every one when fail = 0) and
    // the failing pivot.
    const int last = fail ? fail - 1 : NC;
    long long at = 0;
#pragma unroll 1
    for (int c = 0; c < n; ++c) {
        if constexpr (UPPER) {
            // Column c of U: U(r, c) = L(c, r), rows r ≤ c, two per lane.
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int r = lane + 32 * h;
                if (r <= c && (r < last || (r == c && c == fail - 1))) am[at + r] = tile[tri_at<NC, ROWS>(c, r)];
            }
        } else {
            // Column c of L: rows c…n−1, two per lane.
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int r = c + lane + 32 * h;
                if (r < n && (c < last || (r == c && c == fail - 1))) am[at + r] = tile[tri_at<NC, ROWS>(r, c)];
            }
        }
        at = opaque(at + lda);
    }

    // A positive pivot rsqrt_fast refuses (none for double, whose
    // rsqrt_fast takes every positive value) goes on in memory, as in
    // warp_body.
    if (FAST && fail != 0) { // uniform over the warp
        __syncwarp(); // the stored pivot, seen by every lane
        T* const again = a + opaque((long long)blockIdx.x * kWarpTier + threadIdx.x / 32) * stride;
        if (re(again[(long long)(fail - 1) * (lda + 1)]) > R(0))
            fail = finish_in_memory<T, UPPER, 32>(again, lda, n, fail - 1, lane, 0xffffffffu);
    }
    if (lane == 0) info[m] = fail;

    if constexpr (SOLVE) {
        // A matrix finish_in_memory factored has fail = 0 but its tile is
        // not L: none here (with SOLVE only double is FAST, and its
        // rsqrt_fast takes every positive pivot).
        if (fail != 0) return; // uniform over the warp: B is neither read nor written
        tri_solve<T, NC, ROWS>(tile, n, lane, b + m * bstride, ldb, nrhs);
    }
}

// potrf_split is potrf_warp on the split body (the comment above), for the
// buckets warp.go's warpSplit names. The dynamic shared memory holds the
// warps' packed tiles (warp.go's splitBytes).
template <typename T, int NC, bool UPPER>
__global__ void potrf_split(T* __restrict__ a, long long lda, long long stride, int n, int count, int* __restrict__ info) {
    split_body<T, NC, UPPER, false>(a, lda, stride, n, count, info, nullptr, 0, 0, 0);
}

// posv_split solves A·X = B for one matrix per warp: potrf_split's
// factorization, then potrs_split's solve from the same tile, so A, info
// and X have the bits of those two launches (and of potrf_warp's where it
// exists: the panels keep warp_body's bits). Arguments as posv_warp's.
// Why. Posv's two launches read A twice, and potrs_split waits on its
// copies before it solves; here the tile already holds L. 136–142
// registers, 12 warps a multiprocessor as both launches had; Lower at
// NC = 44 and 48, packed by columns, 116 and 16 warps (split_rows). [H200]
// 65,536 float64 systems, 1, 4, 8, 16 right-hand sides, µs, against
// potrf_split then potrs_split (lab/fused.py,
// bench/results/h200/session44/, call 4): Lower n = 64 1620, 1745, 1965,
// 2332 against 1868, 1984, 2137, 2479; Upper n = 60 1434, 1553, 1750, 2060
// against 1750, 1853, 1981, 2300. Against warp_body's factor then
// potrs_split it won in Upper (n = 56: 1348 against 1811 with 1) but tied
// in Lower (n = 56 with 16: 2044 against 2022), and posv_warp kept Lower
// with few right-hand sides (n = 48 with 1: 1148 against 1052) until
// Lower's tile went by columns (1036 against 1056, split_rows); posv.go's
// posvSplit takes it where it won. The first split body's posv kernel lost
// (the comment above): 184–188 registers, 8 warps.
template <typename T, int NC, bool UPPER>
__global__ void posv_split(T* __restrict__ a, long long lda, long long stride, int n, T* __restrict__ b, long long ldb,
                           long long bstride, int nrhs, int count, int* __restrict__ info) {
    split_body<T, NC, UPPER, true>(a, lda, stride, n, count, info, b, ldb, bstride, nrhs);
}

// potrs_split is potrs_warp (same arguments, same X to the bit) with the
// factor in the packed tile, filled by split_fill, for the buckets warp.go's
// potrsSplit names (the figures above).
template <typename T, int NC, bool UPPER>
__global__ void potrs_split(const T* __restrict__ a, long long lda, long long stride, int n, T* __restrict__ b,
                            long long ldb, long long bstride, int nrhs, int count, const int* __restrict__ info) {
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    const long long m = (long long)blockIdx.x * kWarpTier + warp;
    if (m >= count) return;                       // the whole warp
    if (info != nullptr && info[m] != 0) return; // the whole warp too
    T* const tile = split_tile<T, NC>(warp);
    split_fill<T, NC, UPPER, true>(tile, a + m * stride, lda, n, lane);
    __syncwarp();
    tri_solve<T, NC, true>(tile, n, lane, b + m * bstride, ldb, nrhs);
}

// potrf_warp factors one matrix per warp (warp_body), Upper through the
// tile, or with VEC (16-byte aligned columns, real types) the wide tile.
template <typename T, int NC, bool UPPER, bool VEC>
__global__ void potrf_warp(T* __restrict__ a, long long lda, long long stride, int n, int count, int* __restrict__ info) {
    warp_body<T, NC, false, UPPER, VEC>(a, lda, stride, n, count, info, nullptr, 0, 0, 0);
}

// posv_warp solves A·X = B for one matrix per warp: the factorization
// exactly as potrf_warp's of the same UPPER (A gets the same bits, info the
// same value, whichever way the columns move), then, unless it failed, the
// rows of L (Uᴴ for Upper) into the warp's tile (dynamic shared memory,
// warpTileBytes; posvWideBytes with the wide tile) and warp_solve
// (warp_solve_tier). B is n×nrhs column-major with leading dimension ldb,
// matrix m at m·bstride. Upper spilled about 300 bytes at n = 64 under
// NVRTC 11.8 and was left out; under CUDA 13 it took 126–246 registers in
// place and 153–248 through the tile, 0 B of local memory (session25/,
// call 4); through the wide tile (session41/, call 1) float 125–178,
// double 242 (NC = 48). [H200] Upper in place, 65,536
// float systems, 1, 4 and 16 right-hand sides, against the vendor's Upper
// composition (posv's TestPosvTiming, session25/ call 5): n = 48 7.42×,
// 6.55×, 6.28×; n = 64 5.95×, 5.54×, 5.39×; the wide tile is faster still
// (posv_wide's figures). Through the tile (columns not on 16 bytes) it has
// not been timed against posv_cta, which served Upper before
// (session25/zz_tile_test.go.txt would).
template <typename T, int NC, bool UPPER, bool VEC>
__global__ void posv_warp(T* __restrict__ a, long long lda, long long stride, int n, T* __restrict__ b, long long ldb,
                          long long bstride, int nrhs, int count, int* __restrict__ info) {
    warp_body<T, NC, true, UPPER, VEC>(a, lda, stride, n, count, info, b, ldb, bstride, nrhs);
}

// potrs_warp solves A·X = B given A's factor as potrf_warp and posv_warp
// leave it (L in the lower triangle, or U = Lᴴ in the upper for UPPER;
// only that triangle is read, the diagonal's real part only), one matrix
// per warp: the rows of L go into the warp's tile, then warp_solve as
// posv_warp runs it, so X has the bits posv_warp gives for the same
// factor. A zero on the diagonal gives infinities and NaNs, as LAPACK's
// substitution does. info, when not null, is a factorization's: a warp
// whose matrix has info ≠ 0 returns at once, B neither read nor written
// (posv.Posv factors and then solves in two launches for float64 Lower
// n = 49…56 with many right-hand sides, posv.go's solveApart; the orders
// where posv_warp would spill take posv_split). float64 takes potrs_split
// instead at every NC (tri_solve's comment, warp.go's potrsSplit). For
// double it took 142
// registers and no local memory at every bucket to NC = 64 (CUDA 13), and
// solved 65,536 float64 systems of order 64 with 1, 4 and 16 right-hand
// sides in 1524, 1666, 2463 µs against potrs_cta's 2881, 2906, 4675
// (session30/, lab). [H200] 65,536 float systems, 1, 4
// and 16 right-hand sides, Lower (batchlas tune potrs, session25/ call 3):
// n = 64 708, 787, 1106 µs against the vendor's 2124, 2049, 3576. Upper
// (session25/ call 4, zz_upper_test.go.txt): n = 64 706, 786, 1106 against
// the vendor's 2102, 1957, 3516 and potrs_cta's 2001, 2007, 2017; n = 48
// 343, 386, 513 against 1652, 1280, 2111 and 1300, 1304, 1318. potrs_cta,
// its block then waiting at a barrier on every step of both substitutions,
// lost to the vendor in both triangles (Upper n = 64 with 4: 2007 against
// 1957); it now solves with this warp's steps (cta.cu's cta_solve).
template <typename T, int NC, bool UPPER>
__global__ void potrs_warp(const T* __restrict__ a, long long lda, long long stride, int n, T* __restrict__ b,
                           long long ldb, long long bstride, int nrhs, int count, const int* __restrict__ info) {
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    const long long m = (long long)blockIdx.x * kWarpTier + warp;
    if (m >= count) return; // the whole warp: the kernel has no block-wide barrier
    if (info != nullptr && info[m] != 0) return; // the whole warp too
    const int ib = lane + 32;
    const bool realb = ib < n;
    const T* const am = a + m * stride;
    T* const tile = warp_tile<T, NC>(warp);
    if constexpr (UPPER) {
        // Column r of U, rows c ≤ r, is row r of L conjugated: consecutive
        // addresses across the lanes, read and written.
#pragma unroll 4
        for (int r = 0; r < NC; ++r) {
            if (r < n && lane <= r) {
                const T x = am[lane + r * lda];
                tile[r * (NC + 1) + lane] = lane == r ? from_real<T>(re(x)) : conj_(x);
            }
            if (r < n && ib <= r) {
                const T x = am[ib + r * lda];
                tile[r * (NC + 1) + ib] = ib == r ? from_real<T>(re(x)) : conj_(x);
            }
        }
    } else {
        // Column c of L, rows ≥ c: consecutive addresses across the lanes.
#pragma unroll 4
        for (int c = 0; c < NC; ++c) {
            if (c < 32 && c <= lane) {
                const T x = am[lane + c * lda];
                tile[lane * (NC + 1) + c] = c == lane ? from_real<T>(re(x)) : x;
            }
            if (realb && c <= ib) {
                const T x = am[ib + c * lda];
                tile[ib * (NC + 1) + c] = c == ib ? from_real<T>(re(x)) : x;
            }
        }
    }
    __syncwarp();
    warp_solve_tier<T, NC>(tile, n, lane, b + m * bstride, ldb, nrhs);
}

// group_sweeps is warp_sweeps with the warp split in 32/G groups of G
// lanes (halves, G = 16, or quarters, G = 8), each solving H of the
// chunk's right-hand sides: lane i of a group holds rows i, i + G, …
// (NR = ⌈NC/G⌉ of them) in x[r], inv[r] being 1/L(row, row) (0 for a row
// ≥ n), pub the group's two buffers of G/2 values (H ≤ G/2). The steps,
// their order and every product are warp_sweeps', so X has the same bits;
// what changes is the work a step issues. A row is idle once the sweep has
// passed it, and with rows dealt out by G a step of part p (k in
// Gp…Gp+G−1) updates NR − p rows of H values, where warp_sweeps updates
// both of a lane's rows, of W = 2H values, until k reaches 32: at NC = 48
// with halves, 16 values a step on average against 26.7, and row k comes
// in half as many loads.
template <typename T, int NC, int G, int H, typename A>
__device__ __forceinline__ void group_sweeps(const A& at, int n, int i,
                                             const typename real_of<T>::type (&inv)[(NC + G - 1) / G],
                                             T (&x)[(NC + G - 1) / G][H], T* pub) {
    constexpr int NR = (NC + G - 1) / G;
    static_assert(H <= G / 2, "a group's buffer holds G/2 values");
    // Row i + G·r is real for every lane when its block ends below NC − 3
    // (n ≥ NC − 3), known at compile time; else it is tested.
    const auto real = [&](int r) { return G * r + G - 1 < NC - 3 || i + G * r < n; };
    // L·Y = B: part p steps k = Gp…, rows i + Gr for r ≥ p; row p only
    // where i > k − Gp.
#pragma unroll
    for (int p = 0; p < NR; ++p) {
        const int end = G * p + G < n ? G * p + G : n;
#pragma unroll 4
        for (int k = G * p; k < end; ++k) {
            const int o = k - G * p;
            const auto s = group_bcast<G>(inv[p], o);
            T y[H];
            group_take<T, H, G>(y, x[p], o, i, pub + (k & 1) * 16);
#pragma unroll
            for (int r = p; r < NR; ++r) {
                const bool on = (r > p || i > o) && real(r);
                const T l = scale(at(on ? i + G * r : 0, k), s);
                const T lm = on ? l : from_real<T>(0);
#pragma unroll
                for (int j = 0; j < H; ++j) x[r][j] = sub_mul(x[r][j], lm, y[j]);
            }
        }
    }
#pragma unroll
    for (int r = 0; r < NR; ++r)
#pragma unroll
        for (int j = 0; j < H; ++j) x[r][j] = scale(x[r][j], inv[r]);
    // Lᴴ·X = Y: part p steps k = …Gp backwards, rows i + Gr for r ≤ p;
    // row p only where i < k − Gp. Buffers the other way round, as in
    // warp_sweeps.
#pragma unroll
    for (int p = NR - 1; p >= 0; --p) {
        const int end = G * p + G < n ? G * p + G : n;
#pragma unroll 4
        for (int k = end - 1; k >= G * p; --k) {
            const int o = k - G * p;
            const auto s = group_bcast<G>(inv[p], o);
            T y[H];
            group_take<T, H, G>(y, x[p], o, i, pub + (~k & 1) * 16);
#pragma unroll
            for (int r = 0; r <= p; ++r) {
                const bool on = r < p || i < o;
                const T l = scale(at(k, on ? i + G * r : 0), s);
                const T lm = on ? l : from_real<T>(0);
#pragma unroll
                for (int j = 0; j < H; ++j) x[r][j] = sub_mul_conj(x[r][j], y[j], lm);
            }
        }
    }
#pragma unroll
    for (int r = 0; r < NR; ++r)
#pragma unroll
        for (int j = 0; j < H; ++j) x[r][j] = scale(x[r][j], inv[r]);
}

// group_inverses sets inv[r] to 1/L(row, row) for the calling lane's rows
// in group_chunk's layout (row = lane mod G + G·r), 0 for a row ≥ n.
template <typename T, int NC, int G, typename A>
__device__ __forceinline__ void group_inverses(typename real_of<T>::type (&inv)[(NC + G - 1) / G], const A& at, int n,
                                               int lane) {
    using R = typename real_of<T>::type;
#pragma unroll
    for (int r = 0; r < (NC + G - 1) / G; ++r) {
        const int row = lane % G + G * r;
        inv[r] = row < n ? R(1) / re(at(row, row)) : R(0);
    }
}

// group_chunk loads (32/G)·H right-hand sides from column c0 of B, group g
// (lanes gG…gG+G−1) columns c0 + gH…, solves them with group_sweeps and
// stores them back. Group g's buffers start at pub + g·G/2, whatever H, so
// halves address them as session 43's half_chunk did.
template <typename T, int NC, int G, int H, typename A>
__device__ __forceinline__ void group_chunk(const A& at, int n, int lane,
                                            const typename real_of<T>::type (&inv)[(NC + G - 1) / G], T* bm,
                                            long long ldb, int c0, T* pub) {
    constexpr int NR = (NC + G - 1) / G;
    const int i = lane % G;
    const int c = c0 + (lane / G) * H;
    T x[NR][H];
#pragma unroll
    for (int r = 0; r < NR; ++r)
#pragma unroll
        for (int j = 0; j < H; ++j) {
            const int row = i + G * r;
            x[r][j] = row < n ? bm[row + (long long)(c + j) * ldb] : from_real<T>(0);
        }
    group_sweeps<T, NC, G, H>(at, n, i, inv, x, pub + (lane / G) * (G / 2));
#pragma unroll
    for (int r = 0; r < NR; ++r)
#pragma unroll
        for (int j = 0; j < H; ++j) {
            const int row = i + G * r;
            if (row < n) bm[row + (long long)(c + j) * ldb] = x[r][j];
        }
}

// warp_solve overwrites B with the solution of L·Lᴴ·X = B for the warp's
// matrix, row i of L in row i of the warp's tile, B n×nrhs column-major at
// bm: lane i holds rows i and i + 32 of B, in chunks of 16 right-hand sides
// and then 8, 4, 2 and 1 for what is left, so no chunk carries unused
// columns; up to NC = 48 a chunk of 16 is two halves of 8 (group_chunk).
// Reads of the tile are conflict-free: L(row, k) strides by NC + 1 (odd)
// across lanes, L(k, row) by 1.
template <typename T, int NC>
__device__ __forceinline__ void warp_solve(const T* tile, int n, int lane, T* bm, long long ldb, int nrhs) {
    using R = typename real_of<T>::type;
    __shared__ __align__(16) T pubs[kWarpTier][2 * 16];
    T* const pub = pubs[threadIdx.x / 32];
    const row_tile<T, NC> at{tile};
    const int ib = lane + 32;
    const R inva = R(1) / re(tile[lane * (NC + 1) + lane]);
    const R invb = ib < n ? R(1) / re(tile[ib * (NC + 1) + ib]) : R(0);
    // Half-warp chunks (group_chunk, G = 16) where NC ≤ 48, for 16 columns only.
    // [H200] 65,536 float systems, 16 right-hand sides (session25/, call
    // 2, lab builds): n = 48 921–931 µs against 1012 with warp_chunk,
    // n = 33 642 against 683; the landed build 929 and 643 (call 3). At 8
    // columns they were no faster (n = 48 833–846 against 826), and at
    // NC = 64 (four rows a lane) they ran 16 in 2816 against 1478, and
    // spilled (184–232 B) with chunks of 4 or 2 as halves. For double at
    // NC = 48, halves of 4 and 2 for 8 and 4 columns lost too: 1621 and
    // 1456 µs against 1297 and 1161 (65,536 systems; session30/, lab).
    // Quarters (tri_solve's choice at NC ≤ 40) lost here: 65,536 systems,
    // n = 40 with 16 right-hand sides, potrs_warp float 450.5 µs against
    // 395.8, posv_warp float 738.4 against 710.8, posv_warp double 1261
    // against 1298 but 1842 against 1802 with 32 (lab/final.py,
    // bench/results/h200/session44/, call 2).
    constexpr int NR = (NC + 15) / 16;
    int c0 = 0;
    if constexpr (NR <= 3) {
        R inv[NR]; // 1/L(row, row) of the lane's rows in group_chunk's layout
        group_inverses<T, NC, 16>(inv, at, n, lane);
#pragma unroll 1
        for (; c0 + 16 <= nrhs; c0 += 16) group_chunk<T, NC, 16, 8>(at, n, lane, inv, bm, ldb, c0, pub);
    } else {
#pragma unroll 1
        for (; c0 + 16 <= nrhs; c0 += 16) warp_chunk<T, 16>(at, n, lane, inva, invb, bm, ldb, c0, pub);
    }
    warp_tail<T, 16>(at, n, lane, inva, invb, bm, ldb, c0, nrhs, pub);
}
