# Lab (GPU machine): chol_tiled's 32×32 float diagonal factor alone on one block of 128 threads, clock64 around
# each call (as session 17's fb.py): factor_rows and factor_subblocks from the tree's blocked.cu against
# lab/quarters.cuh's factor_quarters (its steps dealt to the four warps, the inverse overlapped: "quarters"; the
# inverse after the factor: "late"; with mbarriers instead of named barriers: "mbar"; with a __syncthreads after
# each step: "full"; "quarters4", "mbar4" and
# "subblocks4" built for four blocks a multiprocessor, 128 registers), each with and without the inverse. Every variant's L, X, failing column and
# pivot are compared with factor_rows' bit for bit on SPD, padded, failing, NaN, Inf and ill-conditioned tiles, and
# factor_rows' with numpy's Cholesky (float64) on the columns before a failure.
#
# Usage, from the repository root: python3 bench/results/h200/session48/lab/factor.py [ROOT]
# Env: NVRTC, CUOBJDUMP (default /usr/local/cuda/...), OUT (where lab.cu, lab.cubin and lab.sass go), REPS (200),
# CASES_MAX (the first so many input cases; all by default), ONLY (a comma-separated list of variants to run beside
# factor_rows).
# Without a GPU (COMPILE_ONLY=1) it compiles and prints the resources only.
import ctypes, os, subprocess, sys
import numpy as np

root = sys.argv[1] if len(sys.argv) > 1 else "."
here = os.path.dirname(os.path.abspath(__file__))
out = os.environ.get("OUT", "/tmp")
nvrtc = os.environ.get("NVRTC", "/usr/local/cuda/lib64/libnvrtc.so")
cuobjdump = os.environ.get("CUOBJDUMP", "/usr/local/cuda/bin/cuobjdump")
reps = int(os.environ.get("REPS", "200"))

pre = open(f"{root}/internal/gpu/scalar/scalar.cuh").read()
blk = open(f"{root}/internal/gpu/cholblocked/blocked.cu").read()
factors = blk[: blk.index("// store_inverse writes")]  # the helpers, factor_subblocks and factor_rows
quarters = open(f"{here}/quarters.cuh").read()
bench = r'''
#define BENCH(NAME, MINB, CALL)                                                                              \
extern "C" __global__ void __launch_bounds__(128, MINB) NAME(const float* a, float* l, float* x, long long* res, \
                                                          int reps, int w, int inverse) {                   \
    __shared__ float s_a[32][33], s_x[32][33];                                                              \
    quarters_init(); /* used by the mbarrier form only; the fill's barrier orders it */                    \
    long long total = 0, best = 1LL << 62;                                                                  \
    int fail = 0; float dfail = 0.0f;                                                                       \
    for (int rep = 0; rep < reps; ++rep) {                                                                  \
        for (int e = threadIdx.x; e < 1024; e += 128) {                                                     \
            const int r = e % 32, c = e / 32;                                                               \
            float v = r == c ? 1.0f : 0.0f;                                                                 \
            if (r < w && c <= r) v = a[r + 32 * c];                                                         \
            s_a[r][c] = v;                                                                                  \
            s_x[r][c] = 0.0f;                                                                               \
        }                                                                                                   \
        __syncthreads();                                                                                    \
        const long long t0 = clock64();                                                                     \
        CALL;                                                                                               \
        __syncthreads();                                                                                    \
        const long long dt = clock64() - t0;                                                                \
        total += dt;                                                                                        \
        best = dt < best ? dt : best;                                                                       \
    }                                                                                                       \
    for (int e = threadIdx.x; e < 1024; e += 128) {                                                         \
        l[e] = s_a[e % 32][e / 32];                                                                         \
        x[e] = s_x[e % 32][e / 32];                                                                         \
    }                                                                                                       \
    if (threadIdx.x == 0) {                                                                                 \
        res[0] = total;                                                                                     \
        res[1] = best;                                                                                      \
        res[2] = fail;                                                                                      \
        res[3] = __float_as_int(dfail);                                                                     \
    }                                                                                                       \
}
BENCH(lab_rows, 1, (factor_rows<128, false>(s_a, s_x, w, inverse != 0, fail, dfail)))
BENCH(lab_rows_bound, 1, (factor_rows<128, true>(s_a, s_x, w, inverse != 0, fail, dfail)))
BENCH(lab_subblocks, 1, (factor_subblocks<float, 32, 128>(s_a, s_x, w, inverse != 0, fail, dfail)))
BENCH(lab_quarters, 1, (factor_quarters<128, true>(s_a, s_x, w, inverse != 0, fail, dfail, [] {})))
BENCH(lab_late, 1, (factor_quarters<128, false>(s_a, s_x, w, inverse != 0, fail, dfail, [] {})))
BENCH(lab_mbar, 1, (factor_quarters<128, true, kMbar>(s_a, s_x, w, inverse != 0, fail, dfail, [] {})))
BENCH(lab_full, 1, (factor_quarters<128, true, kFull>(s_a, s_x, w, inverse != 0, fail, dfail, [] {})))
BENCH(lab_quarters4, 4, (factor_quarters<128, true>(s_a, s_x, w, inverse != 0, fail, dfail, [] {})))
BENCH(lab_mbar4, 4, (factor_quarters<128, true, kMbar>(s_a, s_x, w, inverse != 0, fail, dfail, [] {})))
BENCH(lab_subblocks4, 4, (factor_subblocks<float, 32, 128>(s_a, s_x, w, inverse != 0, fail, dfail)))
'''
VARIANTS = ["rows", "rows_bound", "subblocks", "quarters", "late", "mbar", "full", "quarters4", "mbar4", "subblocks4"]
if os.environ.get("ONLY"):  # these variants and factor_rows, the reference (racecheck a form at a time)
    VARIANTS = ["rows"] + [v for v in os.environ["ONLY"].split(",") if v != "rows"]
src = pre + factors + quarters + bench
open(f"{out}/lab.cu", "w").write(src)


def compile_cubin():
    nv = ctypes.CDLL(nvrtc)
    prog = ctypes.c_void_p()
    assert nv.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"lab.cu", 0, None, None) == 0
    opts = [b"--gpu-architecture=sm_90", b"-std=c++17"]
    rc = nv.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
    n = ctypes.c_size_t()
    nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
    log = ctypes.create_string_buffer(n.value)
    nv.nvrtcGetProgramLog(prog, log)
    if rc != 0:
        sys.exit(f"nvrtc failed ({rc}):\n{log.value.decode()}")
    nv.nvrtcGetCUBINSize(prog, ctypes.byref(n))
    buf = ctypes.create_string_buffer(n.value)
    nv.nvrtcGetCUBIN(prog, buf)
    path = f"{out}/lab.cubin"
    open(path, "wb").write(buf.raw)
    ver = (ctypes.c_int(), ctypes.c_int())
    nv.nvrtcVersion(ctypes.byref(ver[0]), ctypes.byref(ver[1]))
    print(f"NVRTC {ver[0].value}.{ver[1].value}")
    r = subprocess.run([cuobjdump, "-res-usage", path], capture_output=True, text=True)
    name = None
    for line in r.stdout.splitlines():
        if "Function" in line:
            name = line.split("Function")[1].strip(" :")
        elif "REG:" in line and name:
            print(f"  {name:16s} {line.strip()}")
    r = subprocess.run([cuobjdump, "-sass", path], capture_output=True, text=True)
    open(f"{out}/lab.sass", "w").write(r.stdout)
    # Instructions a call, by kernel (the whole kernel: its fill and store loops are the same in every variant).
    counts, name = {}, None
    for line in r.stdout.splitlines():
        if "Function :" in line:
            name = line.split("Function :")[1].strip()
            counts[name] = 0
        elif name and line.strip().startswith("/*") and "*/" in line and ";" in line:
            counts[name] += 1
    for k, v in counts.items():
        print(f"  {k:16s} {v} SASS instructions")
    return path


path = compile_cubin()
if os.environ.get("COMPILE_ONLY") == "1":
    sys.exit(0)

import cupy as cp

mod = cp.RawModule(path=path)
rng = np.random.default_rng(48)


def spd(cond=None):
    if cond is None:
        g = rng.standard_normal((32, 32))
        return g @ g.T / 32 + np.eye(32)
    u, _ = np.linalg.qr(rng.standard_normal((32, 32)))
    return u @ np.diag(np.logspace(0, -np.log10(cond), 32)) @ u.T


cases = [(f"spd w={w}", w, spd()) for w in (32, 31, 25, 24, 17, 16, 9, 8, 1)]
cases.append(("cond1e6", 32, spd(1e6)))
cases.append(("cond1e7", 32, spd(1e7)))
for k in (0, 7, 8, 15, 20, 31):  # a failing pivot on each side of the steps' edges
    B = spd()
    B[k, k] = -5.0
    cases.append((f"neg{k}", 32, B))
B = spd(); B[5, 5] = np.nan; cases.append(("nan5", 32, B))
B = spd(); B[12, 3] = np.nan; cases.append(("nan12,3", 32, B))
B = spd(); B[26, 26] = np.inf; cases.append(("inf26", 32, B))
B = spd(); B[3, 0] = 40.0; cases.append(("indef", 32, B))
B = spd(); B[9, 9] = 0.0; cases.append(("zero9", 29, B))
cases.append(("tiny", 32, spd() * 1e-30))
cases = cases[:int(os.environ.get("CASES_MAX", len(cases)))]  # fewer under compute-sanitizer


def run(kname, A, w, inverse):
    k = mod.get_function(kname)
    a = cp.asarray(np.asarray(A, np.float32).ravel(order="F"))
    l = cp.zeros(1024, cp.float32)
    x = cp.zeros(1024, cp.float32)
    res = cp.zeros(4, cp.int64)
    for _ in range(3):
        k((1,), (128,), (a, l, x, res, np.int32(reps), np.int32(w), np.int32(inverse)))
    cp.cuda.Device().synchronize()
    r = res.get()
    dfail = np.array([r[3]], np.int64).astype(np.int32).view(np.float32)[0]
    return r[0] / reps, r[1], int(r[2]), dfail, l.get(), x.get()


bad = 0
times = {}
for cname, w, A0 in cases:
    A = A0.copy()
    A[w:, :] = 0
    A[:, w:] = 0
    for inverse in (1, 0):
        got = {v: run(f"lab_{v}", A, w, inverse) for v in VARIANTS}
        ref = got["rows"]
        for v in VARIANTS:
            times.setdefault((v, inverse), []).append(got[v][0])
            if v.startswith("subblocks"):
                same = got[v][2] == ref[2]  # another algorithm: the same failing column, not the same bits
            else:
                same = (got[v][2] == ref[2] and np.array_equal(got[v][3:4], ref[3:4], equal_nan=True)
                        and np.array_equal(got[v][4].view(np.uint32), ref[4].view(np.uint32))
                        and np.array_equal(got[v][5].view(np.uint32), ref[5].view(np.uint32)))
            if not same:
                bad += 1
                print(f"DIFFERS {cname} inverse={inverse} {v}: fail {got[v][2]} vs {ref[2]}; dfail {got[v][3]} vs {ref[3]}; "
                      f"L bits differ at {np.count_nonzero(got[v][4].view(np.uint32) != ref[4].view(np.uint32))}, "
                      f"X at {np.count_nonzero(got[v][5].view(np.uint32) != ref[5].view(np.uint32))}")
        # factor_rows against numpy on the columns before a failure.
        f = ref[2]
        lim = f - 1 if f else w
        L = np.tril(ref[4].reshape(32, 32, order="F")[:w, :w]).astype(np.float64)
        X = np.tril(ref[5].reshape(32, 32, order="F")[:w, :w]).astype(np.float64)
        msg = ""
        try:
            Lo = np.linalg.cholesky(A[:lim, :lim].astype(np.float32).astype(np.float64)) if lim > 0 else None
        except np.linalg.LinAlgError:
            Lo = None
            msg = "numpy: leading block not SPD"
        if Lo is not None and np.isfinite(A[:lim, :lim]).all():
            errL = np.abs(L[:lim, :lim] - Lo).max() / np.abs(Lo).max()
            msg = f"errL {errL:.1e}"
            if inverse:
                msg += f" errX {np.abs(X[:lim, :lim] @ Lo - np.eye(lim)).max():.1e}"
            if cname.startswith("spd") and errL > 1e-5:  # well conditioned: float32's rounding alone
                bad += 1
                msg += " BAD"
        print(f"{cname:9s} inv={inverse} fail {f:2d} {msg:28s} cycles/call " +
              " ".join(f"{v} {got[v][0]:7.0f}" for v in VARIANTS), flush=True)

print("median over the cases of the mean cycles a call (the kernels also keep the least, res[1], not printed):")
for inverse in (1, 0):
    print(f"  inverse={inverse}: " + ", ".join(f"{v} {np.median(times[(v, inverse)]):.0f}" for v in VARIANTS))
print("BAD" if bad else "all variants agree with factor_rows bit for bit, and factor_rows with numpy")
sys.exit(1 if bad else 0)
