# Session 43 lab 2: potrs_split's tri_solve with 16-column chunks as two half-warps (half_chunk on the packed tile,
# kTriHalves = 16), and with 8- and 4-column chunks as halves too (kTriHalves = 8, 4), against HEAD's warp.cu
# (lab/head-warp.cu.xz: warp_chunk of 16), float64; and potrs_split below NC = 52 against potrs_warp. X's bits are
# compared (lda = n + 3, failed matrices skipped). Posv compositions: potrf_warp or potrf_split, then potrs_split,
# against posv_warp and today's two launches. PROF=1: one 16-rhs launch of HEAD's and h16's potrs_split<double, 64>.
import cupy as cp, numpy as np, ctypes, os, sys, lzma
nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
rd = lambda p: open(p, encoding="utf-8").read()
HERE = os.path.dirname(os.path.abspath(__file__))
pre = rd("internal/gpu/scalar/scalar.cuh") + '\n#line 1 "potrf.cu"\n' + rd("internal/gpu/potrf/potrf.cu") + \
    '\n#line 1 "sweeps.cu"\n' + rd("internal/gpu/potrf/sweeps.cu") + '\n#line 1 "warp.cu"\n'
new = rd("internal/gpu/potrf/warp.cu")
K16 = "constexpr int kTriHalves = 16;"
assert new.count(K16) == 1
VAR = {"head": lzma.open(os.path.join(HERE, "head-warp.cu.xz"), "rt", encoding="utf-8").read(), "h16": new,
       "h8": new.replace(K16, "constexpr int kTriHalves = 8;"), "h4": new.replace(K16, "constexpr int kTriHalves = 4;")}
PROF = os.environ.get("PROF") == "1"
if PROF: VAR = {k: VAR[k] for k in ("head", "h16")}
NCS = (40, 48, 52, 56, 60, 64)
COMMON = [f"potrs_warp<double, {nc}, false>" for nc in NCS if nc <= 56] + [f"posv_warp<double, {nc}, false, false>" for nc in (48, 52, 56)] + \
         [f"potrf_warp<double, {nc}, false, false>" for nc in (48, 52, 56)] + ["potrf_split<double, 64, false>", "potrf_split<double, 60, false>"]
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
with ThreadPoolExecutor(len(jobs)) as ex:
    for tag, cubin, low in ex.map(lambda j: compile_(*j), jobs):
        if cubin is None: print(tag, low, flush=True); raise SystemExit(1)
        path = f"/tmp/lab43t-{tag}.cubin"; open(path, "wb").write(cubin); m = cp.RawModule(path=path)
        for k, lk in low.items():
            f = F[tag + ":" + k] = m.get_function(lk)
            if not PROF: print(f"{tag}: {k}: {f.num_regs} registers, local {f.local_size_bytes} B", flush=True)
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
def ncof(n): return (n + 3) // 4 * 4
def fact(n): return f"head:potrf_split<double, {ncof(n)}, false>" if n > 56 else f"head:potrf_warp<double, {max(48, ncof(n))}, false, false>"
if PROF:
    count, n = 16384, 64; a = spd(n, count, 1); info = cp.zeros(count, cp.int32); call(fact(n), a, n, n, count, info)()
    b0 = cp.random.RandomState(2).standard_normal((count, 16, n))
    for t in VAR: b = b0.copy(); call(f"{t}:potrs_split<double, 64, false>", a, n, n, count, info, b, 16)()
    cp.cuda.Device().synchronize(); print("prof done"); sys.exit(0)
fails = 0
print("\n# checks: X's bits against HEAD's potrs_split (lda = n + 3, matrices 3 and 5 skipped by info)", flush=True)
for n in (33, 38, 40, 47, 48, 52, 55, 57, 63, 64):
    if ncof(n) not in NCS: continue
    nc = ncof(n); count, lda = 37, n + 3
    for u in ("false", "true") if nc in (48, 64) else ("false",):
        a = spd(n, count, n, lda)  # symmetric positive definite: as a factor, either triangle is a valid L
        info = cp.zeros(count, cp.int32); info[3] = 4; info[5] = 1
        for nrhs in (1, 3, 4, 8, 12, 13, 16, 21, 32):
            b0 = cp.random.RandomState(nrhs).standard_normal((count, nrhs, n))
            ref = b0.copy(); call(f"head:potrs_split<double, {nc}, {u}>", a, lda, n, count, info, ref, nrhs)()
            for t in VAR:
                if t == "head": continue
                b = b0.copy(); call(f"{t}:potrs_split<double, {nc}, {u}>", a, lda, n, count, info, b, nrhs)()
                ok = same(b, ref) and same(b[3], b0[3]) and same(b[5], b0[5]) and bool(cp.isfinite(b).all())
                fails += not ok
                if not ok: print(f"FAIL {t} n={n} upper={u} nrhs={nrhs}", flush=True)
            if nc <= 56 and u == "false":  # potrs_warp's X: the same bits
                b = b0.copy(); call(f"head:potrs_warp<double, {nc}, false>", a, lda, n, count, info, b, nrhs)()
                ok = same(b, ref); fails += not ok
                if not ok: print(f"FAIL potrs_warp n={n} nrhs={nrhs} differs from potrs_split", flush=True)
print(f"# checks: {fails} failed", flush=True)

print("\n# potrs float64 Lower, µs (median of 7, L2 flushed, the copy of B subtracted)", flush=True)
for count in (65536, 16384):
    for n in (64, 60, 57, 56, 52, 48, 40):
        nc = ncof(n); a = spd(n, count, 1); info = cp.zeros(count, cp.int32); call(fact(n), a, n, n, count, info)()
        for nrhs in (1, 4, 8, 16):
            b0 = cp.random.RandomState(2).standard_normal((count, nrhs, n)); b = cp.empty_like(b0)
            tb = timed(lambda: b.__setitem__(Ellipsis, b0)); row = []
            keys = [f"{t}:potrs_split<double, {nc}, false>" for t in VAR] + ([f"head:potrs_warp<double, {nc}, false>"] if nc <= 56 else [])
            for k in keys:
                kk = call(k, a, n, n, count, info, b, nrhs)
                def go(): b[...] = b0; kk()
                row.append(f"{k.split(':')[0] if 'split' in k else 'warp'} {timed(go) - tb:.1f}")
            print(f"count={count} n={n} nrhs={nrhs}: " + "; ".join(row), flush=True)
print("\n# posv float64 Lower, µs (the copies of A and B subtracted): posv_warp; the factor then potrs_split (h16, h8)", flush=True)
for count in (65536, 16384):
    for n in (64, 57, 56, 52, 48):
        nc = ncof(n); a0 = spd(n, count, 1); a = cp.empty_like(a0); info = cp.zeros(count, cp.int32)
        for nrhs in (1, 4, 8, 16):
            b0 = cp.random.RandomState(2).standard_normal((count, nrhs, n)); b = cp.empty_like(b0)
            tab = timed(lambda: (a.__setitem__(Ellipsis, a0), b.__setitem__(Ellipsis, b0))); row = []
            kf = call(fact(n), a, n, n, count, info)
            if nc <= 56:
                kp = call(f"head:posv_warp<double, {max(48, nc)}, false, false>", a, n, n, count, info, b, nrhs)
                def go(): a[...] = a0; b[...] = b0; kp()
                row.append(f"posv_warp {timed(go) - tab:.1f}")
            for t in ("head", "h16", "h8"):
                ks = call(f"{t}:potrs_split<double, {nc}, false>", a, n, n, count, info, b, nrhs)
                def go(): a[...] = a0; b[...] = b0; kf(); ks()
                row.append(f"{fact(n).split(':')[1].split('<')[0]}+{t} {timed(go) - tab:.1f}")
            print(f"count={count} n={n} nrhs={nrhs}: " + "; ".join(row), flush=True)
print("# done", flush=True)
