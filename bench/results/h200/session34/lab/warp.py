# Session 34 lab: where potrf_warp's Upper time goes at n = 64 (float), and 16-byte moves through its tile.
# Sources are scalar.cuh + potrf.cu + warp.cu, concatenated as the engine does (WarpSource): main's potrf.cu and
# warp.cu (head.tar.xz, a0c9984) for T and W, the working tree's for the P variants, with text substitutions:
#   T   main: Upper through the tile of NC + 1 columns, one element a lane and instruction, filled by cp.async
#   W   main with 16-byte cp.async copies into a tile of NC-element rows, chunk q of row r at q ^ (r mod 8), whole
#       chunks (the diagonal's too: up to three elements past it), rows read back as vectors and selected element
#       by element; the store as T's (call 1's lab, which stopped before timing: CuPy's RawKernel has no .ptr)
#   P   the working tree's potrf_warp<float, 64, true, true>: rows an odd number of chunks apart; a column's last
#       chunk read up to the diagonal and the rest of the row zero-filled (cp.async with a source size), so the rows
#       are read back with nothing to select; rows back as vectors, columns of U out as 16-byte stores (a rolled loop)
#   Pu  P with the store's loop unrolled
#   Pl  P's load, main's store (through the tile of NC + 1 columns)
#   Pb  P with __launch_bounds__(64, 6): at most 168 registers
# Every variant's result (the whole buffer, the other triangle and the gaps included, and info) is compared bit for
# bit with T's on SPD, failing, NaN and subnormal-pivot matrices at n = 64, 61, 57, 62 with aligned columns; and
# timed at n = 64 against the copy of the batch.
# LOCAL=1 compiles only (NVRTC at $NVRTC, cuobjdump at $CUOBJDUMP) and prints registers.
import ctypes, os, re, subprocess, sys
H = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(f"{H}/../../../../..")
P = f"{ROOT}/internal/gpu"
import tarfile
with tarfile.open(f"{H}/head.tar.xz") as tf:  # main's potrf.cu and warp.cu (a0c9984), which the variants edit
    HEAD = {m.name: tf.extractfile(m).read().decode() for m in tf.getmembers()}
BASE = (open(f"{P}/scalar/scalar.cuh").read() + '\n#line 1 "potrf.cu"\n' + HEAD["potrf.head.cu"]
        + '\n#line 1 "warp.cu"\n' + HEAD["warp.head.cu"])
# P: the working tree's sources as they are (potrf_warp with a fourth parameter, VEC: the wide moves)
TREE = (open(f"{P}/scalar/scalar.cuh").read() + '\n#line 1 "potrf.cu"\n' + open(f"{P}/potrf/potrf.cu").read()
        + '\n#line 1 "warp.cu"\n' + open(f"{P}/potrf/warp.cu").read())

LOAD_T = """#pragma unroll
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
            }"""
LOAD_W = """wide_load<T, NC>(tile, a + base, lda, n, lane);
            }
            __syncwarp();
            wide_row<T, 32>(ra, tile, lane, true, NC);
            wide_row<T, NC>(rb, tile, ib, realb, NC);"""
HELPERS = r"""
// Lab helpers (session 34): 16-byte moves through a tile of NC-element rows, chunk q of row r at q ^ (r mod 8).
template <typename T, int NC> __device__ __forceinline__ int wide_at(int r, int q) {
    constexpr int V = 16 / (int)sizeof(T);
    static_assert((NC / V) % 8 == 0, "whole groups of 8 chunks");
    return r * NC + ((q ^ (r & 7)) * V);
}
template <typename T, int NC>
__device__ __forceinline__ void wide_load(T* tile, const T* a, long long lda, int n, int lane) {
    constexpr int V = 16 / (int)sizeof(T), Q = NC / V, QP = Q <= 16 ? 16 : 32, CPI = 32 / QP;
    const int q = lane % QP, h = lane / QP;
    long long at = (long long)h * lda + q * V;
#pragma unroll
    for (int c0 = 0; c0 < NC; c0 += CPI) {
        const int c = c0 + h;
        if (q < Q && c < n && q * V <= c)
            copy_async(reinterpret_cast<pack<T>*>(tile + wide_at<T, NC>(c, q)), reinterpret_cast<const pack<T>*>(a + at));
        at = opaque(at + CPI * lda);
    }
    wait_copies();
}
template <typename T, int K>
__device__ __forceinline__ void wide_row(T (&r)[K], const T* tile, int row, bool real, int) {
    using R = typename real_of<T>::type;
    constexpr int V = 16 / (int)sizeof(T);
#pragma unroll
    for (int q = 0; q < K / V; ++q) {
        pack<T> p;
#pragma unroll
        for (int e = 0; e < V; ++e) p.v[e] = from_real<T>(R(0));
        if (real && q * V <= row) p = *reinterpret_cast<const pack<T>*>(tile + row * (K > 32 ? K : NCROW) + ((q ^ (row & 7)) * V));
#pragma unroll
        for (int e = 0; e < V; ++e) {
            const int c = q * V + e;
            T v = from_real<T>(c == row ? R(1) : R(0));
            if (real && c <= row) v = c == row ? from_real<T>(re(p.v[e])) : conj_(p.v[e]);
            r[c] = v;
        }
    }
}
"""

P_STORE = """    } else if constexpr (VEC && !SOLVE) {
        T* const tile = wide_tile<T, NC>(warp);
        wide_put<T, NC>(ra, tile, lane);
        if (ib < NC) wide_put<T, NC>(rb, tile, ib);
        __syncwarp();
        wide_drain<T, NC>(tile, a + opaque(base), lda, n, lane, fail);
    } else if constexpr (VEC) {"""
P_KERNEL = "template <typename T, int NC, bool UPPER, bool VEC>\n__global__ void potrf_warp("
def variant(tag):
    if tag.startswith("P"):
        s = TREE
        if "l" in tag:  # the load only: main's store through the tile of NC + 1 columns
            assert s.count(P_STORE) == 1
            s = s.replace(P_STORE, "    } else if constexpr (VEC && SOLVE) {")
        if "u" in tag:  # the drain unrolled
            old = "    // the step, so rolled costs a loop counter).\n#pragma unroll 1\n"
            assert s.count(old) == 1
            s = s.replace(old, "    // the step, so rolled costs a loop counter).\n#pragma unroll\n")
        if "b" in tag:  # at most 168 registers: six blocks of two warps a multiprocessor
            assert s.count(P_KERNEL) == 1
            s = s.replace(P_KERNEL, P_KERNEL.replace("__global__ void", "__global__ void __launch_bounds__(64, 6)"))
        return s
    s = BASE
    def sub(old, new, count=1):
        nonlocal s
        assert s.count(old) == count, (tag, old[:60], s.count(old))
        s = s.replace(old, new, 1)
    if tag == "W":
        sub(LOAD_T, LOAD_W)
        # NCROW: the row length of ra's tile rows, NC of the kernel; the helpers take it from a macro in the lab.
        sub("template <typename T, int NC, bool SOLVE, bool UPPER, bool VEC>\n__device__ __forceinline__ void warp_body",
            "#define NCROW 64\n" + HELPERS + "\ntemplate <typename T, int NC, bool SOLVE, bool UPPER, bool VEC>\n__device__ __forceinline__ void warp_body")
    return s

NAMES = ["potrf_warp<float, 64, true>", "potrf_warp<float, 64, false>"]
TAGS = os.environ.get("TAGS", "T W P Pu Pl Pb").split()

PNAMES = {"potrf_warp<float, 64, true>": "potrf_warp<float, 64, true, true>", "potrf_warp<float, 64, false>": "potrf_warp<float, 64, false, false>"}
def build(tag):
    nv = ctypes.CDLL(os.environ.get("NVRTC", "/usr/local/cuda/lib64/libnvrtc.so"))
    prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), variant(tag).encode(), b"scalar.cuh", 0, None, None)
    for k in NAMES: nv.nvrtcAddNameExpression(prog, (PNAMES[k] if tag.startswith("P") else k).encode())
    o = [b"--gpu-architecture=sm_90", b"-std=c++17"]
    rc = nv.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p * len(o))(*o))
    if rc:
        n_ = ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n_)); log = ctypes.create_string_buffer(n_.value)
        nv.nvrtcGetProgramLog(prog, log); print(tag, log.value.decode()[-3000:]); raise SystemExit(1)
    n_ = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_)); buf = ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
    path = f"/tmp/lab34-{tag}.cubin"; open(path, "wb").write(buf.raw)
    low = {}
    for k in NAMES:
        p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, (PNAMES[k] if tag.startswith("P") else k).encode(), ctypes.byref(p)); low[k] = p.value.decode()
    return path, low

if os.environ.get("LOCAL"):
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(4) as ex:
        BUILT = dict(zip(TAGS, ex.map(build, TAGS)))
    for t in TAGS:
        path, low = BUILT[t]
        res = subprocess.run([os.environ["CUOBJDUMP"], "-res-usage", path], capture_output=True, text=True).stdout
        inv = {v: k for k, v in low.items()}
        fn = None
        for line in res.splitlines():
            m = re.search(r"Function (\S+):", line)
            if m: fn = inv.get(m.group(1), m.group(1)); continue
            m = re.search(r"REG:(\d+).*STACK:(\d+).*LOCAL:(\d+)", line)
            if m and fn: print(t, fn, "regs", m.group(1), "stack", m.group(2), "local", m.group(3))
    raise SystemExit(0)

from concurrent.futures import ProcessPoolExecutor
with ProcessPoolExecutor(8) as ex:  # before CuPy touches the device
    BUILT = dict(zip(TAGS, ex.map(build, TAGS)))
import cupy as cp, numpy as np
V = {}
for t in TAGS:
    path, low = BUILT[t]
    m = cp.RawModule(path=path); V[t] = {k: m.get_function(low[k]) for k in NAMES}
    for k in NAMES: print(f"{t} {k}: {V[t][k].num_regs} regs, local {V[t][k].local_size_bytes} B", flush=True)
    for k in NAMES: V[t][k].max_dynamic_shared_size_bytes = 2 * 64 * 68 * 4
flush = cp.empty(256 << 20, dtype=cp.uint8)

def spd(n, count, lda):
    y = cp.random.RandomState(7).standard_normal((count, n, n), dtype=cp.float32)
    s = (cp.matmul(y.transpose(0, 2, 1), y) / n + 0.01 * cp.eye(n, dtype=cp.float32)[None]).astype(cp.float32)
    a = cp.full((count, n, lda), 7.5, dtype=cp.float32)  # column-major: a[m, col, row]; rows n..lda-1 are gaps
    a[:, :, :n] = s
    return a

def launch(fn, a, n, lda, count, info, upper, tag):
    shm = (2 * 64 * 68 * 4 if tag.startswith("P") else 2 * 64 * 65 * 4) if upper else 0
    fn(((count + 1) // 2,), (64,), (a, np.int64(lda), np.int64(n * lda), np.int32(n), np.int32(count), info), shared_mem=shm)

def timed(tag, name, a0, n, lda, count):
    fn = V[tag][name]
    info = cp.zeros(count, cp.int32); a = a0.copy(); flush.fill(1)
    s, e = cp.cuda.Event(), cp.cuda.Event(); s.record()
    launch(fn, a, n, lda, count, info, name.endswith("true>"), tag)
    e.record(); e.synchronize()
    return cp.cuda.get_elapsed_time(s, e) * 1e3, a, info

MODE = os.environ.get("MODE", "all")
if MODE in ("all", "check"):
    # Bits of the variants against T's: SPD, failing at columns 0, 5, 31, 32, 40 and the last two, NaN, a subnormal pivot.
    for n, lda in [(64, 64), (64, 68), (61, 64), (57, 60), (62, 72)]:
        count = 999
        a0 = spd(n, count, lda)
        for m, k in [(1, 0), (2, 5), (3, 31), (4, 32), (5, 40), (6, n - 1), (7, n - 2)]:
            a0[m, k, k] = -1.0
        a0[8, 10, 20] = float("nan"); a0[8, 20, 10] = float("nan")
        a0[9, 3:, 3:] *= 1e-40
        name = "potrf_warp<float, 64, true>"
        _, aT, iT = timed("T", name, a0, n, lda, count)
        for t in [t for t in TAGS if t[0] in "WP"]:
            _, aX, iX = timed(t, name, a0, n, lda, count)
            same = bool(cp.all(aX.view(cp.uint32) == aT.view(cp.uint32))) and bool(cp.all(iX == iT))
            print(f"check {t} n={n} lda={lda}: {'bits and info equal' if same else 'DIFFER'}; info[:10] {iT[:10].get().tolist()}", flush=True)
if MODE in ("all", "time"):
    for n, count in [(64, 65536), (64, 1024)]:
        a0 = spd(n, count, n)
        c = cp.empty_like(a0); cs = []
        for r in range(5):
            flush.fill(r); s, e = cp.cuda.Event(), cp.cuda.Event(); s.record(); c[...] = a0; e.record(); e.synchronize()
            cs.append(cp.cuda.get_elapsed_time(s, e) * 1e3)
        cu = np.median(cs)
        for name in NAMES:
            tags = TAGS if name.endswith("true>") else ["T"]
            ts = {t: [] for t in tags}; outs = {}
            for r in range(12):
                for t in (tags if r % 2 else tags[::-1]):
                    us, a, info = timed(t, name, a0, n, n, count)
                    if r >= 2: ts[t].append(us)
                    outs[t] = a
            same = {t: bool(cp.all(outs[t] == outs["T"])) for t in outs if t[0] in "WP"}
            print(f"{name} n={n} count={count} copy {cu:.1f} µs: " + "; ".join(f"{t} {np.median(v):.1f} ({100 * cu / np.median(v):.0f} %)" for t, v in ts.items()),
                  "| bits vs T:", same, flush=True)
if MODE == "ncu":
    n, count = 64, 65536
    a0 = spd(n, count, n)
    for t, name in [("T", NAMES[0]), ("T", NAMES[1]), ("P", NAMES[0])]:
        timed(t, name, a0, n, n, count)
