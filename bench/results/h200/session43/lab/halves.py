# Session 43 lab 5: posv.cu's solve_halves (groups of a whole warp, n = 17…32: each half-warp takes half of a chunk's
# columns, two rows a lane) against HEAD's posv.cu (lab/head-posv.cu.xz), every type: registers and local memory; X,
# A and info to the bit on a mixed batch (failing and NaN matrices, lda > n, ldb > n), both triangles; times of
# posv_reg and potrs_reg at n = 32 and 24 with the chunk Go picks, and float64 with 16 columns in one chunk (NR = 16).
import cupy as cp, numpy as np, ctypes, os, sys, lzma
from concurrent.futures import ThreadPoolExecutor
nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
rd = lambda p: open(p, encoding="utf-8").read()
HERE = os.path.dirname(os.path.abspath(__file__))
pre = rd("internal/gpu/scalar/scalar.cuh") + '\n#line 1 "posv.cu"\n'
SRC = {"head": lzma.open(os.path.join(HERE, "head-posv.cu.xz"), "rt", encoding="utf-8").read(), "new": rd("internal/gpu/posv/posv.cu")}
TY = {"float": (np.float32, 4), "double": (np.float64, 8), "cfloat": (np.complex64, 8), "cdouble": (np.complex128, 16)}
def maxchunk(t): return 64 // TY[t][1]
def chunk(t, nrhs):
    nr = 1
    while nr < nrhs and nr < maxchunk(t): nr *= 2
    return nr
def threads(t, nc, nr):  # posv.go's threadsFor for 32 lanes
    v = 16 // TY[t][1]; th = 128
    while th > 32 and 16 * (th // 32) * (nc * ((nc // v) | 1) + 1 + 2 * ((nr + v - 1) // v) + 1) > 48 * 1024: th //= 2
    return th
def name(kind, t, nc, nr, u): return f"{kind}_reg<{t}, 32, {nc}, {nr}, {'true' if u else 'false'}, {threads(t, nc, nr)}>"
JOBS = []
for t in TY:
    nrs = [nr for nr in (2, 4, 8, 16) if nr <= maxchunk(t)] + ([16] if t == "double" else [])
    names = sorted({name(k, t, nc, nr, u) for k in ("posv", "potrs") for nc in (20, 24, 32) for nr in nrs for u in (0, 1)
                    if u == 0 or nc == 32})
    for v in SRC: JOBS.append((v, t, names))
def compile_(job):
    v, t, names = job
    prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), (pre + SRC[v]).encode(), b"posv.cu", 0, None, None)
    for k in names: nv.nvrtcAddNameExpression(prog, k.encode())
    o = [b"--gpu-architecture=sm_90", b"-std=c++17"]
    rc = nv.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p * len(o))(*o))
    n_ = ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n_)); log = ctypes.create_string_buffer(n_.value)
    nv.nvrtcGetProgramLog(prog, log)
    if rc: return v, t, None, log.value.decode()[-4000:]
    n_ = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_)); buf = ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
    low = {}
    for k in names:
        p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p)); low[k] = p.value.decode()
    return v, t, buf.raw, low
F = {}
with ThreadPoolExecutor(len(JOBS)) as ex:
    for v, t, cubin, low in ex.map(compile_, JOBS):
        if cubin is None: print(v, t, low, flush=True); raise SystemExit(1)
        path = f"/tmp/lab43h-{v}-{t}.cubin"; open(path, "wb").write(cubin); m = cp.RawModule(path=path)
        for k, lk in low.items():
            f = F[v + ":" + k] = m.get_function(lk)
            print(f"{v}: {k}: {f.num_regs} registers, local {f.local_size_bytes} B", flush=True)
I, L = np.int32, np.int64
def call(key, a, lda, sa, b, ldb, sb, n, nrhs, count, info):
    k = key.split(":")[1]; th = int(k.split(",")[5].strip(" >")); per = th // 32
    args = (a, L(lda), L(sa), b, L(ldb), L(sb), I(n), I(nrhs), I(count)) + ((info,) if k.startswith("posv") else ())
    return lambda: F[key](((count + per - 1) // per,), (th,), args)
def spd(t, n, count, seed, lda):
    dt = TY[t][0]; rs = cp.random.RandomState(seed)
    y = rs.standard_normal((count, n, n)) + (1j * rs.standard_normal((count, n, n)) if "c" in t[:1] else 0)
    a = cp.matmul(y.conj().transpose(0, 2, 1), y) / n + 0.5 * cp.eye(n)[None]
    s = cp.full((count, n, lda), cp.nan, dtype=dt); s[:, :, :n] = a.transpose(0, 2, 1).astype(dt)  # column c at s[m, c]
    return s
def same(x, y):
    xv, yv = x.view(cp.uint8), y.view(cp.uint8)
    return bool((xv == yv).all())
flush = cp.empty(256 << 20, dtype=cp.uint8)
def timed(f, reps=9):
    ts = []
    for r in range(reps):
        flush.fill(r); s, e = cp.cuda.Event(), cp.cuda.Event(); s.record(); f(); e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e) * 1e3)
    return float(np.median(ts[2:]))
fails = 0
print("\n# checks: new against head, bits of A, X and info (count 157, lda = n + 3, ldb = n + 2, failing and NaN matrices)", flush=True)
for t in TY:
    for n in (17, 20, 23, 24, 29, 32):
        nc = (n + 3) // 4 * 4
        for u in ((0, 1) if nc == 32 else (0,)):
            count, lda, ldb = 157, n + 3, n + 2
            a0 = spd(t, n, count, n, lda)
            a0[3, 5, 5] = -1; a0[8, n - 1, n - 1] = -4; a0[11, 2, 7] = a0[11, 7, 2] = cp.nan
            for nrhs in (2, 3, 5, 8, 13, 16, 21):
                b0 = (cp.random.RandomState(nrhs).standard_normal((count, nrhs, ldb))).astype(TY[t][0])
                nr = chunk(t, nrhs)
                variants = [("head", nr), ("new", nr)] + ([("new", 16)] if t == "double" and nrhs > 8 else [])
                outs = []
                for kind in ("posv", "potrs"):
                    res = []
                    for v, r in variants:
                        if r < 2 and v == "new": continue
                        a, b, info = a0.copy(), b0.copy(), cp.full(count, -7, cp.int32)
                        if kind == "potrs":  # on head posv's factor
                            call(f"head:{name('posv', t, nc, nr, u)}", a, lda, lda * n, b0.copy(), ldb, ldb * nrhs, n, nrhs, count, info)()
                            info[:] = 0
                        call(f"{v}:{name(kind, t, nc, r, u)}", a, lda, lda * n, b, ldb, ldb * nrhs, n, nrhs, count, info)()
                        res.append((a, b, info))
                    ok = all(same(x[0], res[0][0]) and same(x[1], res[0][1]) and bool((x[2] == res[0][2]).all()) for x in res[1:])
                    if kind == "posv": ok = ok and int((res[0][2] != 0).sum()) == 3
                    fails += not ok
                    if not ok: print(f"FAIL {kind} {t} n={n} upper={u} nrhs={nrhs}", flush=True)
print(f"# checks: {fails} failed", flush=True)
print("\n# Lower, µs (median of 7, L2 flushed, the copies of A and B subtracted)", flush=True)
for count in (65536, 16384):
    for t in TY:
        for n in (32, 24):
            nc = n; a0 = spd(t, n, count, 1, n); a = cp.empty_like(a0); info = cp.zeros(count, cp.int32)
            for nrhs in (2, 4, 8, 16):
                b0 = cp.random.RandomState(2).standard_normal((count, nrhs, n)).astype(TY[t][0]); b = cp.empty_like(b0)
                tc = timed(lambda: (a.__setitem__(Ellipsis, a0), b.__setitem__(Ellipsis, b0))); row = []
                nr = chunk(t, nrhs)
                for kind in ("posv", "potrs"):
                    for v, r in [("head", nr), ("new", nr)] + ([("new", 16)] if t == "double" and nrhs > 8 else []):
                        kk = call(f"{v}:{name(kind, t, nc, r, 0)}", a, n, n * n, b, n, n * nrhs, n, nrhs, count, info)
                        def go(): a[...] = a0; b[...] = b0; kk()
                        row.append(f"{kind} {v}{'' if r == nr else '16'} {timed(go) - tc:.1f}")
                print(f"count={count} {t} n={n} nrhs={nrhs}: " + "; ".join(row), flush=True)
print("# done", flush=True)
