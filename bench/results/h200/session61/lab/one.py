# Lab: one block factors one matrix whole in shared memory (chol_one, written here), for the orders where
# native:cta leads (n = 96, 128: 25–41 µs on the H100, about 8 µs a 32-column step, as chol_tiled's chain, whose
# step hands each tile over through global memory). chol_one keeps the matrix (its L view: row i of L at
# s_m[i·LD]) in shared memory and runs per 32 columns: factor_rows on the diagonal tile (L11 and X = L11⁻¹), the
# panel below as A21·Xᵀ (a thread a row), and the trailing lower tiles by SplitTile's 3xTF32 products; no flags,
# no tickets, one block a matrix. Arms, in one process, interleaved, L2 evicted, the median of REPS:
#   cta      native:cta's kernel (potrf/cta.go's source and launch, 16-byte Upper copies where aligned);
#   tiled    chol_tiled's one-block 3xTF32 kernel, launched as PotrfTiled does;
#   one      chol_one copying a float at a time (call 4's: each thread's loads one round trip after another);
#   one-vec  chol_one copying in by cp.async, every copy in flight at once (16 bytes Upper, 4 bytes Lower);
#   one-la   one-vec with look-ahead: each step updates the next diagonal tile first, and warps 2 and 3 update the
#            rest of the trailing tiles while warps 0 and 1 factor it (factor_rows leaves them idle until its end);
#   io       one-vec's copies in and out alone, no factor (the floor of the copies; not checked).
# Every other result checked: info 0 and residual under 20 n·eps; a matrix made indefinite at column 71 must report
# info 71 (chol_one leaves the rest of a failing matrix as its steps left it: a lab, not potf2's contract).
# Call 4 ran the first form (one and tiled only); call 5, which would have run this one, found too little device
# time left.
#
# Usage, from the repository root: python3 bench/results/h200/session61/lab/one.py
# Env: CASES ("128x64,128x256,128x1024,96x256,96x1024,112x256"), REPS (7), UPLO (U), COMPILE_ONLY=1. n % 4 == 0.
import os, sys

sys.path.insert(0, "bench/lab")
import tiledlab as tl

ONE = r'''
// chol_one (lab): one block of 128 threads factors matrix blockIdx.x, of order n ≤ NPAD, whole in shared memory.
template <int NPAD, bool UPPER, bool VEC, bool IO_ONLY = false, bool LA = false>
__global__ void __launch_bounds__(128) chol_one(float* __restrict__ a, long long lda, long long stride, int n, int count,
                                                int* __restrict__ info) {
    constexpr int LD = NPAD + 4; // rows 16-byte aligned; a row a thread reads as float4 without conflicts
    using Rows = float (*)[LD];
    extern __shared__ __align__(16) float s_m[]; // s_m[i·LD + j] = L's view: A(i, j) Lower, A(j, i) Upper, i ≥ j
    __shared__ float s_a[32][33];
    __shared__ float s_x[32][33];
    const int tid = threadIdx.x, m = blockIdx.x;
    if (m >= count) return;
    float* am = a + (long long)m * stride;
    if (tid == 0) rows_init();
    const int np = (n + 31) / 32, nr = 32 * np;
    if constexpr (UPPER && VEC) {
        // Row i of the L view is column i of A: 16-byte copies by cp.async, all in flight at once; rows and
        // columns past n read nothing (zeros), and the padding rows' pivots are set to 1 after (n % 4 == 0,
        // lda % 4 == 0: the lab's cases).
        const int q = nr / 4;
#pragma unroll 4
        for (int e = tid; e < nr * q; e += 128) {
            const int i = e / q, j = 4 * (e % q);
            const bool in = i < n && j < n && j <= i;
            cp_async16(&s_m[i * LD + j], in ? am + j + (long long)i * lda : am, in);
        }
        commit_async();
        wait_async<0>();
        __syncthreads();
        for (int i = n + tid; i < nr; i += 128) s_m[i * LD + i] = 1.0f;
    } else if constexpr (VEC) {
        // Lower: row i of the L view is row i of A, strided: 4-byte copies by cp.async, consecutive threads on
        // consecutive rows of a column (coalesced), all in flight at once.
#pragma unroll 8
        for (int e = tid; e < nr * nr; e += 128) {
            const int i = e % nr, j = e / nr;
            const bool in = i < n && j <= i;
            cp_async4(&s_m[i * LD + j], in ? am + i + (long long)j * lda : am, in);
        }
        commit_async();
        wait_async<0>();
        __syncthreads();
        for (int i = n + tid; i < nr; i += 128) s_m[i * LD + i] = 1.0f;
    } else {
        for (int e = tid; e < nr * nr; e += 128) {
            const int fast = e % nr, slow = e / nr; // consecutive threads read consecutive addresses
            const int i = UPPER ? slow : fast, j = UPPER ? fast : slow;
            if (i < j) continue;
            float v = i == j ? 1.0f : 0.0f; // padding: the identity
            if (i < n) v = UPPER ? am[j + (long long)i * lda] : am[i + (long long)j * lda];
            s_m[i * LD + j] = v;
        }
    }
    __syncthreads();
    // tile_update: C −= P·Qᵀ for the trailing tile (r0, c0) of step j0 (P, Q: rows r0, c0 of the panel's columns).
    // With all four warps, SplitTile's mapping; with warps 2 and 3 alone (half), which SplitTile gives the tile's
    // rows 16…31, twice: the tile and P seen 16 rows up first, so that those rows are the tile's rows 0…15.
    auto tile_update = [&](int r0, int c0, int j0, bool half) {
        for (int shift = half ? 16 : 0; shift >= 0; shift -= 16) {
            Rows c = reinterpret_cast<Rows>(&s_m[(r0 - shift) * LD + c0]);
            SplitTile t;
            t.from(c);
            t.template mul<true>(reinterpret_cast<const float (*)[LD]>(&s_m[(r0 - shift) * LD + j0]),
                                 reinterpret_cast<const float (*)[LD]>(&s_m[c0 * LD + j0]));
            t.to(c);
        }
    };
    auto diag_to_s_a = [&](int j0) {
        for (int e = tid; e < 1024; e += 128) {
            const int r = e / 32, c = e % 32;
            s_a[r][c] = c <= r ? s_m[(j0 + r) * LD + j0 + c] : 0.0f;
        }
    };
    int fail = 0;
    for (int p = 0; p < (IO_ONLY ? 0 : np); ++p) {
        const int j0 = 32 * p;
        if (!LA || p == 0) {
            diag_to_s_a(j0);
            __syncthreads();
        }
        if (LA && p > 0 && tid >= 64) {
            // LA: the previous step's trailing tiles but the diagonal one (done), by warps 2 and 3 while warps 0
            // and 1 factor (factor_rows leaves warps 2 and 3 idle until its last barrier).
            const int jp = j0 - 32, mt = np - p;
            for (int bi = 0; bi < mt; ++bi)
                for (int bj = 0; bj <= bi; ++bj)
                    if (bi > 0) tile_update(jp + 32 + 32 * bi, jp + 32 + 32 * bj, jp, true);
        }
        int f;
        float df;
        factor_rows<128, true, false>(s_a, s_x, min(32, n - j0), p + 1 < np, f, df);
        for (int e = tid; e < 1024; e += 128) {
            const int r = e / 32, c = e % 32;
            if (c <= r) s_m[(j0 + r) * LD + j0 + c] = s_a[r][c];
        }
        if (f != 0) fail = j0 + f;
        if (f != 0 || p + 1 == np) break; // f is the block's
        const int i = j0 + 32 + tid;
        if (i < nr) {
            float* row = &s_m[i * LD + j0];
            float v[32], l[32];
#pragma unroll
            for (int k = 0; k < 32; k += 4) ld4(row + k, &v[k]);
#pragma unroll
            for (int c = 0; c < 32; ++c) {
                float s = 0.0f;
#pragma unroll
                for (int k = 0; k <= c; ++k) s = fmaf(v[k], s_x[c][k], s);
                l[c] = s;
            }
#pragma unroll
            for (int k = 0; k < 32; k += 4) st4(row + k, &l[k]);
        }
        __syncthreads();
        if constexpr (LA) {
            // The next diagonal tile first, by every warp, then to s_a for the next step's factor.
            tile_update(j0 + 32, j0 + 32, j0, false);
            __syncthreads();
            diag_to_s_a(j0 + 32);
            __syncthreads();
        } else {
            const int mt = np - p - 1;
            for (int bi = 0; bi < mt; ++bi)
                for (int bj = 0; bj <= bi; ++bj) tile_update(j0 + 32 + 32 * bi, j0 + 32 + 32 * bj, j0, false);
            __syncthreads();
        }
    }
    __syncthreads();
    if constexpr (UPPER && VEC) {
        const int q = nr / 4;
#pragma unroll 4
        for (int e = tid; e < nr * q; e += 128) {
            const int i = e / q, j = 4 * (e % q);
            if (i >= n || j > i) continue;
            float v[4];
            ld4(&s_m[i * LD + j], v);
            float* dst = am + j + (long long)i * lda;
            if (j + 3 <= i) st4(dst, v);
            else
#pragma unroll
                for (int k = 0; k < 4; ++k)
                    if (j + k <= i) dst[k] = v[k];
        }
    } else {
        for (int e = tid; e < nr * nr; e += 128) {
            const int fast = e % nr, slow = e / nr;
            const int i = UPPER ? slow : fast, j = UPPER ? fast : slow;
            if (i < j || i >= n) continue;
            const float v = s_m[i * LD + j];
            if (UPPER) am[j + (long long)i * lda] = v;
            else am[i + (long long)j * lda] = v;
        }
    }
    if (tid == 0) info[m] = fail;
}
'''

uplo = os.environ.get("UPLO", "U")
U = "true" if uplo == "U" else "false"
tree = open("internal/gpu/cholblocked/blocked.cu").read()
one_names = {(np_, v): f"chol_one<{np_}, {U}, {v}>" for np_ in (96, 128) for v in ("false", "true")}
one_names.update({(np_, "io"): f"chol_one<{np_}, {U}, true, true>" for np_ in (96, 128)})
one_names.update({(np_, "la"): f"chol_one<{np_}, {U}, true, false, true>" for np_ in (96, 128)})
tiled = tl.one_block_split(uplo)[(uplo, 1)]
kernels = {(uplo, 1): tiled, **{("one", *k): e for k, e in one_names.items()}}
os.environ.setdefault("CUBINS", "/tmp/one61")
os.makedirs(os.environ["CUBINS"], exist_ok=True)
results = tl.build({"one": tree + ONE}, kernels)
for e in one_names.values():
    r, l, f = results[0][2][e]
    print(f"   {e}: {r} regs, local {l} B, frame {f} B")
if os.environ.get("COMPILE_ONLY") == "1":
    sys.exit(0)  # native:cta's kernels compile through warplab, which needs the GPU machine's cupy

import cupy as cp
import numpy as np

name, path, info, low, msg = results[0]
mod = cp.RawModule(path=path)
by = {v: k for k, v in low.items()}
f_tiled = mod.get_function(by[tiled])
f_tiled.max_dynamic_shared_size_bytes = tl.split_shared_bytes(1)
f_one = {}
for key, e in one_names.items():
    f_one[key] = mod.get_function(by[e])
    f_one[key].max_dynamic_shared_size_bytes = key[0] * (key[0] + 4) * 4
# native:cta's kernels as session 46's lab/cta.py builds them: warplab's prelude (the scalar prelude, potrf.cu,
# sweeps.cu) and cta.cu, potrf/cta.go's CTASource; one program for both buckets' kernels of this triangle.
import warplab as wl

cta_names = {np_: f"potrf_cta<float, {np_}, 16, {U}>" for np_ in (96, 128)}
K = wl.build({"cta": '\n#line 1 "cta.cu"\n' + wl.read("internal/gpu/potrf/cta.cu")}, {"cta": list(cta_names.values())})
f_cta = {}
for np_, e in cta_names.items():
    f_cta[np_] = K.fn[("cta", e)]
    f_cta[np_].max_dynamic_shared_size_bytes = 16 * ((np_ // 16) * np_ - 16 * ((np_ // 16) * (np_ // 16 - 1) // 2)) * 4

sms = cp.cuda.Device().attributes["MultiProcessorCount"]
flush = cp.empty(256 << 20, cp.uint8)


def launch_one(c, np_, v="false"):
    n = c.n
    f_one[(np_, v)]((c.count,), (128,), (c.a, np.int64(n), np.int64(n * n), np.int32(n), np.int32(c.count), c.info),
                    shared_mem=np_ * (np_ + 4) * 4)


def launch_cta(c, np_):
    # cta.go's ctaLaunch: a block of np threads a matrix, the trapezoid of 16-column panels; vec (16-byte Upper
    # copies) where cta.go's upperVectors allows them: the lab's matrices are n×n, n % 4 == 0, 256-byte aligned.
    n = c.n
    vec = 1 if uplo == "U" and n % 4 == 0 else 0
    f_cta[np_]((c.count,), (np_,), (c.a, np.int64(n), np.int64(n * n), np.int32(n), c.info, np.int32(vec)),
               shared_mem=f_cta[np_].max_dynamic_shared_size_bytes)


def launch_tiled(c):
    f_tiled((min(2 * sms, c.tiles),), (128,), c.args(), shared_mem=tl.split_shared_bytes(1))


bad = 0
reps = int(os.environ.get("REPS", "7"))
arm_names = ["cta", "tiled", "one", "one-vec", "one-la", "io"]
print(f"{uplo}: µs, the median of {reps} interleaved repetitions, L2 evicted; residual ‖LLᵀ − A‖₁/(‖A‖₁·n·eps); io: "
      "chol_one's copies alone (no factor, not checked)")
print(f"{'case':>9} " + " ".join(f"{a:>8}" for a in arm_names) + f" {'la/cta':>8}   residuals")
for spec in os.environ.get("CASES", "128x64,128x256,128x1024,96x256,96x1024,112x256").split(","):
    n, count = map(int, spec.split("x"))
    np_ = 96 if n <= 96 else 128
    c = tl.Case(n, count, uplo)
    arms = {"cta": lambda: launch_cta(c, np_), "tiled": lambda: launch_tiled(c), "one": lambda: launch_one(c, np_),
            "one-vec": lambda: launch_one(c, np_, "true"), "one-la": lambda: launch_one(c, np_, "la"),
            "io": lambda: launch_one(c, np_, "io")}
    ts = {a: [] for a in arms}
    res = {}
    for r in range(reps + 1):
        for a, go in arms.items():
            flush.fill(r)
            c.reset()
            e0, e1 = cp.cuda.Event(), cp.cuda.Event()
            e0.record()
            go()
            e1.record()
            e1.synchronize()
            if r > 0:
                ts[a].append(cp.cuda.get_elapsed_time(e0, e1) * 1000)
            if r == reps and a != "io":
                res[a] = c.check()
    for a, (inf, resid) in res.items():
        if inf != 0 or resid >= 20:
            bad += 1
            print(f"{spec} {a}: BAD (info {inf}, residual {resid:.3f})")
    med = {a: float(np.median(t)) for a, t in ts.items()}
    print(f"{spec:>9} " + " ".join(f"{med[a]:8.2f}" for a in arm_names) + f" {med['one-la'] / med['cta']:8.3f}   "
          + ", ".join(f"{a} {res[a][1]:.3f}" for a in res), flush=True)

# A failing matrix: the diagonal entry of column 71 made −1 in the second of four copies of n = 128.
c = tl.Case(128, 4, uplo)
A = c.A0.reshape(4, 128 * 128).copy()
A[1, 70 + 70 * 128] = -1.0
c.A0 = A.ravel()
for v in ("false", "true", "la"):
    c.reset()
    launch_one(c, 128, v)
    cp.cuda.Device().synchronize()
    got = c.info.get().tolist()
    print(f"failing matrix, {v}: info {got} (want [0, 71, 0, 0])")
    if got != [0, 71, 0, 0]:
        bad += 1
print("every result checked" if bad == 0 else f"{bad} BAD")
sys.exit(1 if bad else 0)
