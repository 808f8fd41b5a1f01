# Session 44 lab 1: potrs_split's tri_solve with the chunks dealt to groups of G lanes (group_chunk, the
# generalisation of half_chunk): G = 8 (quarter-warps, 4 columns each) for chunks of 16, 8 and 4 right-hand sides,
# against G = 16 (halves, HEAD's choice) and HEAD's own warp.cu (lab/head-warp.cu.xz), float64; and
# __launch_bounds__(64, 10) on potrs_split (20 warps a multiprocessor where the registers allow). X's bits are compared
# with HEAD's (lda = n + 3, failed matrices skipped). Posv compositions: potrf_warp or potrf_split, then potrs_split,
# against posv_warp. Variant names: g<G16><G8><G4>, "lb" with the launch bounds.
import cupy as cp, numpy as np, ctypes, os, sys, lzma, re
nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
rd = lambda p: open(p, encoding="utf-8").read()
HERE = os.path.dirname(os.path.abspath(__file__))
pre = rd("internal/gpu/scalar/scalar.cuh") + '\n#line 1 "potrf.cu"\n' + rd("internal/gpu/potrf/potrf.cu") + \
    '\n#line 1 "sweeps.cu"\n' + rd("internal/gpu/potrf/sweeps.cu") + '\n#line 1 "warp.cu"\n'
new = rd("internal/gpu/potrf/warp.cu")
KN = "constexpr int kTriG16 = 16, kTriG8 = 16, kTriG4 = 32;"
assert new.count(KN) == 1
LB = "__global__ void potrs_split("
def var(g16, g8, g4, lb=False):
    s = new.replace(KN, f"constexpr int kTriG16 = {g16}, kTriG8 = {g8}, kTriG4 = {g4};")
    return s.replace(LB, "__global__ void __launch_bounds__(64, 10) potrs_split(") if lb else s
VAR = {"head": lzma.open(os.path.join(HERE, "head-warp.cu.xz"), "rt", encoding="utf-8").read(),
       "g16-16-32": var(16, 16, 32), "g8-16-32": var(8, 16, 32), "g8-8-32": var(8, 8, 32), "g8-8-8": var(8, 8, 8),
       "g8-8-16": var(8, 8, 16), "g16-16-32lb": var(16, 16, 32, True), "g8-8-8lb": var(8, 8, 8, True)}
NCS = (40, 48, 56, 64)
COMMON = [f"posv_warp<double, {nc}, false, false>" for nc in (48, 56)] + \
         [f"potrf_warp<double, {nc}, false, false>" for nc in (40, 48, 56)] + ["potrf_split<double, 64, false>"]
F = {}
def compile_(tag, code, names):
    """NVRTC in a thread: the cubin and each name's lowered name."""
    prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), (pre + code).encode(), b"lab.cu", 0, None, None)
    for k in names: nv.nvrtcAddNameExpression(prog, k.encode())
    o = [b"--gpu-architecture=sm_90", b"-std=c++17", b"-lineinfo"]
    rc = nv.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p * len(o))(*o))
    n_ = ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n_)); log = ctypes.create_string_buffer(n_.value)
    nv.nvrtcGetProgramLog(prog, log)
    if rc: return tag, None, log.value.decode()[-6000:]
    n_ = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_)); buf = ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
    low = {}
    for k in names:
        p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p)); low[k] = p.value.decode()
    return tag, buf.raw, low
from concurrent.futures import ThreadPoolExecutor
jobs = []
for t, c in VAR.items():
    NS = [f"potrs_split<double, {nc}, {u}>" for nc in NCS for u in ("false", "true") if u == "false" or nc in (48, 64)]
    jobs.append((t, c, NS + (COMMON if t == "head" else [])))
LOCAL = set()
with ThreadPoolExecutor(len(jobs)) as ex:
    for tag, cubin, low in ex.map(lambda j: compile_(*j), jobs):
        if cubin is None: print(tag, low, flush=True); raise SystemExit(1)
        path = f"/tmp/lab44g-{tag}.cubin"; open(path, "wb").write(cubin); m = cp.RawModule(path=path)
        for k, lk in low.items():
            f = F[tag + ":" + k] = m.get_function(lk)
            print(f"{tag}: {k}: {f.num_regs} registers, local {f.local_size_bytes} B", flush=True)
            if f.local_size_bytes: LOCAL.add(tag + ":" + k)
I, L = np.int32, np.int64
def pitch(nc): return (nc * (nc + 1) // 2 + 1) // 2 * 2
def call(key, a, lda, n, count, info=None, b=None, nrhs=0):
    k = key.split(":")[1]; nc = int(k.split(",")[1]); f = F[key]
    if k.startswith("potrf"):
        sm = 2 * pitch(nc) * 8 if "split" in k else 0
        args = (a, L(lda), L(lda * n), I(n), I(count), info)
    else:
        sm = 2 * pitch(nc) * 8 if "split" in k else 2 * nc * (nc + 1) * 8
        args = (a, L(lda), L(lda * n), I(n), b, L(n), L(n * nrhs), I(nrhs), I(count), info)
    if sm > 48 << 10: f.max_dynamic_shared_size_bytes = sm
    return lambda: f(((count + 1) // 2,), (64,), args, shared_mem=sm)
def spd(n, count, seed, lda=None):
    lda = lda or n
    y = cp.random.RandomState(seed).standard_normal((count, n, n))
    a = cp.matmul(y.transpose(0, 2, 1), y) / n + 0.5 * cp.eye(n)[None]
    s = cp.full((count, n, lda), cp.nan); s[:, :, :n] = a
    return s
flush = cp.empty(256 << 20, dtype=cp.uint8)
def timed(f, reps=9):
    ts = []
    for r in range(reps):
        flush.fill(r); s, e = cp.cuda.Event(), cp.cuda.Event(); s.record(); f(); e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e) * 1e3)
    return float(np.median(ts[2:]))
def same(x, y): return bool(((x == y) | (cp.isnan(x) & cp.isnan(y))).all())
def ncof(n): return max(40, (n + 3) // 4 * 4) if n <= 40 else (n + 7) // 8 * 8
def fact(n): return f"head:potrf_split<double, 64, false>" if n > 56 else f"head:potrf_warp<double, {ncof(n)}, false, false>"
fails = 0
print("\n# checks: X's bits against HEAD's potrs_split (lda = n + 3, matrices 3 and 5 skipped by info)", flush=True)
for n in (33, 40, 41, 47, 48, 49, 55, 56, 57, 63, 64):
    nc = ncof(n); count, lda = 37, n + 3
    for u in ("false", "true") if nc in (48, 64) else ("false",):
        a = spd(n, count, n, lda)  # symmetric positive definite: as a factor, either triangle is a valid L
        info = cp.zeros(count, cp.int32); info[3] = 4; info[5] = 1
        for nrhs in (1, 3, 4, 5, 8, 12, 13, 16, 20, 21, 28, 32, 36):
            b0 = cp.random.RandomState(nrhs).standard_normal((count, nrhs, n))
            ref = b0.copy(); call(f"head:potrs_split<double, {nc}, {u}>", a, lda, n, count, info, ref, nrhs)()
            for t in VAR:
                if t == "head": continue
                b = b0.copy(); call(f"{t}:potrs_split<double, {nc}, {u}>", a, lda, n, count, info, b, nrhs)()
                ok = same(b, ref) and same(b[3], b0[3]) and same(b[5], b0[5]) and bool(cp.isfinite(b).all())
                fails += not ok
                if not ok: print(f"FAIL {t} n={n} upper={u} nrhs={nrhs}", flush=True)
print(f"# checks: {fails} failed", flush=True)

TV = [t for t in VAR]
print("\n# potrs float64 Lower, µs (median of 7, L2 flushed, the copy of B subtracted)", flush=True)
print("variants: " + " ".join(TV), flush=True)
for count in (65536, 16384):
    for n in (64, 56, 48, 40):
        nc = ncof(n); a = spd(n, count, 1); info = cp.zeros(count, cp.int32); call(fact(n), a, n, n, count, info)()
        for nrhs in (1, 4, 8, 12, 16, 32):
            b0 = cp.random.RandomState(2).standard_normal((count, nrhs, n)); b = cp.empty_like(b0)
            tb = timed(lambda: b.__setitem__(Ellipsis, b0)); row = []
            for t in TV:
                k = f"{t}:potrs_split<double, {nc}, false>"
                if k in LOCAL: row.append(f"{t} spills"); continue
                kk = call(k, a, n, n, count, info, b, nrhs)
                def go(): b[...] = b0; kk()
                row.append(f"{t} {timed(go) - tb:.1f}")
            print(f"count={count} n={n} nrhs={nrhs}: " + "; ".join(row), flush=True)
        del a, info
print("\n# posv float64 Lower, µs (the copies of A and B subtracted): posv_warp; the factor then potrs_split", flush=True)
PV = ["head", "g8-8-32", "g8-8-8", "g8-8-8lb"]
for count in (65536, 16384):
    for n in (64, 56, 48):
        nc = ncof(n); a0 = spd(n, count, 1); a = cp.empty_like(a0); info = cp.zeros(count, cp.int32)
        for nrhs in (4, 8, 16):
            b0 = cp.random.RandomState(2).standard_normal((count, nrhs, n)); b = cp.empty_like(b0)
            tab = timed(lambda: (a.__setitem__(Ellipsis, a0), b.__setitem__(Ellipsis, b0))); row = []
            kf = call(fact(n), a, n, n, count, info)
            if nc <= 56:
                kp = call(f"head:posv_warp<double, {nc}, false, false>", a, n, n, count, info, b, nrhs)
                def go(): a[...] = a0; b[...] = b0; kp()
                row.append(f"posv_warp {timed(go) - tab:.1f}")
            for t in PV:
                if f"{t}:potrs_split<double, {nc}, false>" in LOCAL: continue
                ks = call(f"{t}:potrs_split<double, {nc}, false>", a, n, n, count, info, b, nrhs)
                def go(): a[...] = a0; b[...] = b0; kf(); ks()
                row.append(f"+{t} {timed(go) - tab:.1f}")
            print(f"count={count} n={n} nrhs={nrhs}: " + "; ".join(row), flush=True)
        del a0, a, info
print("# done", flush=True)
