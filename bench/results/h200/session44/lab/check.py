# Session 44 lab 3, on the final warp.cu ("new": group_chunk with each group's buffers at g·G/2, warp_solve by
# halves) against HEAD's (lab/head-warp.cu.xz), and "h8": new with tri_solve's chunk of 8 by halves where its chunks
# of 16 go to quarters (NC <= 40), 1/L(row, row) computed again in the halves' layout for it.
#  1. SASS, function by function (cuobjdump -sass), of every solve kernel of the warp tier, new against HEAD: only
#     potrs_split<double, 36 and 40> should differ.
#  2. Bits of h8's potrs_split against HEAD's; times, µs, 65,536 float64 systems, n = 33…40: HEAD, new, h8.
import cupy as cp, numpy as np, ctypes, os, sys, lzma, re, subprocess
from concurrent.futures import ThreadPoolExecutor
nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
rd = lambda p: open(p, encoding="utf-8").read()
HERE = os.path.dirname(os.path.abspath(__file__))
pre = rd("internal/gpu/scalar/scalar.cuh") + '\n#line 1 "potrf.cu"\n' + rd("internal/gpu/potrf/potrf.cu") + \
    '\n#line 1 "sweeps.cu"\n' + rd("internal/gpu/potrf/sweeps.cu") + '\n#line 1 "warp.cu"\n'
new = rd("internal/gpu/potrf/warp.cu")
KN = """    if (nrhs >= kTriHalves) {
        R inv[(NC + G - 1) / G];
        group_inverses<T, NC, G>(inv, at, n, lane);
#pragma unroll 1
        for (; c0 + 16 <= nrhs; c0 += 16) group_chunk<T, NC, G, G / 2>(at, n, lane, inv, bm, ldb, c0, pub);
        if (c0 + 8 <= nrhs) group_chunk<T, NC, G, G / 4>(at, n, lane, inv, bm, ldb, c0, pub), c0 += 8;
    }
"""
H8 = """    if (nrhs >= 16) {
        R inv[(NC + G - 1) / G];
        group_inverses<T, NC, G>(inv, at, n, lane);
#pragma unroll 1
        for (; c0 + 16 <= nrhs; c0 += 16) group_chunk<T, NC, G, G / 2>(at, n, lane, inv, bm, ldb, c0, pub);
    }
    if (c0 + 8 <= nrhs) {
        R inv[(NC + 15) / 16];
        group_inverses<T, NC, 16>(inv, at, n, lane);
        group_chunk<T, NC, 16, 4>(at, n, lane, inv, bm, ldb, c0, pub), c0 += 8;
    }
"""
assert new.count(KN) == 1
SRC = {"head": lzma.open(os.path.join(HERE, "head-warp.cu.xz"), "rt", encoding="utf-8").read(), "new": new,
       "h8": new.replace(KN, H8)}
TY = {"float": np.float32, "double": np.float64}
def names(t):
    out = []
    for nc in range(36, 65, 4):
        if t == "float" or nc <= 56: out.append(f"posv_warp<{t}, {nc}, false, false>")
        if t == "float" or nc <= 48: out += [f"posv_warp<{t}, {nc}, true, false>", f"posv_warp<{t}, {nc}, true, true>"]
        k = "potrs_warp" if t == "float" else "potrs_split"
        out += [f"{k}<{t}, {nc}, false>", f"{k}<{t}, {nc}, true>"]
    return out
EXTRA = ["potrf_warp<double, 36, false, false>", "potrf_warp<double, 40, false, false>",
         "potrf_warp<float, 36, false, false>", "potrf_warp<float, 40, false, false>"]
def build(job):
    v, t, part = job
    ns = [k for i, k in enumerate(names(t)) if i % 2 == part] + (EXTRA if v == "head" and part == 0 else [])
    prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), (pre + SRC[v]).encode(), b"warp.cu", 0, None, None)
    for k in ns: nv.nvrtcAddNameExpression(prog, k.encode())
    o = [b"--gpu-architecture=sm_90", b"-std=c++17"]
    rc = nv.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p * len(o))(*o))
    n_ = ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n_)); log = ctypes.create_string_buffer(n_.value)
    nv.nvrtcGetProgramLog(prog, log)
    if rc: return v, t, part, None, log.value.decode()[-6000:], None
    n_ = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_)); buf = ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
    path = f"/tmp/lab44c-{v}-{t}-{part}.cubin"; open(path, "wb").write(buf.raw)
    low = {}
    for k in ns:
        p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p)); low[k] = p.value.decode()
    out = subprocess.run(["/usr/local/cuda/bin/cuobjdump", "-sass", path], capture_output=True, text=True).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"\s+Function : (\S+)", line)
        if m: cur = m.group(1); funcs[cur] = []; continue
        if cur: funcs[cur].append(re.sub(r"/\*[0-9a-f]{4}\*/", "", line).strip())
    return v, t, part, path, low, funcs
jobs = [(v, t, part) for v in SRC for t in TY for part in (0, 1) if v != "h8" or t == "double"]
with ThreadPoolExecutor(len(jobs)) as ex: res = list(ex.map(build, jobs))
F, SASS = {}, {}
for v, t, part, path, low, funcs in res:
    if path is None: print(v, t, low, flush=True); raise SystemExit(1)
    m = cp.RawModule(path=path)
    for k, lk in low.items():
        f = F[v + ":" + k] = m.get_function(lk)
        print(f"{v}: {k}: {f.num_regs} registers, local {f.local_size_bytes} B", flush=True)
        SASS[(v, k)] = funcs.get(lk)
total = same = 0
print("\n# SASS, new against head", flush=True)
for t in TY:
    for k in names(t):
        total += 1
        a, b = SASS[("head", k)], SASS[("new", k)]
        if a is not None and a == b: same += 1
        else: print(f"DIFFERENT SASS: {k}", flush=True)
print(f"# {same} of {total} functions have HEAD's SASS", flush=True)
for nc in (44, 48, 64):
    k = f"potrs_split<double, {nc}, false>"
    print(f"h8 {k}: " + ("new's SASS" if SASS[("h8", k)] == SASS[("new", k)] else "DIFFERENT from new"), flush=True)

I, L = np.int32, np.int64
def pitch(t, nc): v = 16 // np.dtype(TY[t]).itemsize; e = nc * (nc + 1) // 2; return (e + v - 1) // v * v
def call(key, a, lda, n, count, info=None, b=None, nrhs=0, ldb=None):
    k = key.split(":")[1]; t = k.split("<")[1].split(",")[0]; nc = int(k.split(",")[1]); f = F[key]
    sz = np.dtype(TY[t]).itemsize; ldb = ldb or n
    if k.startswith("potrf"):
        args = (a, L(lda), L(lda * n), I(n), I(count), info); sm = 0
    elif k.startswith("potrs_split"):
        sm = 2 * pitch(t, nc) * sz
        args = (a, L(lda), L(lda * n), I(n), b, L(ldb), L(ldb * nrhs), I(nrhs), I(count), info)
    elif k.startswith("potrs_warp"):
        sm = 2 * nc * (nc + 1) * sz
        args = (a, L(lda), L(lda * n), I(n), b, L(ldb), L(ldb * nrhs), I(nrhs), I(count), info)
    else:  # posv_warp, Lower through the tile
        sm = 2 * nc * (nc + 1) * sz
        args = (a, L(lda), L(lda * n), I(n), b, L(ldb), L(ldb * nrhs), I(nrhs), I(count), info)
    if sm > 48 << 10: f.max_dynamic_shared_size_bytes = sm
    return lambda: f(((count + 1) // 2,), (64,), args, shared_mem=sm)
def spd(t, n, count, seed, lda=None):
    lda = lda or n
    y = cp.random.RandomState(seed).standard_normal((count, n, n))
    a = cp.matmul(y.transpose(0, 2, 1), y) / n + 0.5 * cp.eye(n)[None]
    s = cp.full((count, n, lda), cp.nan); s[:, :, :n] = a
    return s.astype(TY[t])
def same_(x, y): return bool(((x == y) | (cp.isnan(x) & cp.isnan(y))).all())
def ncof(n): return (n + 3) // 4 * 4
fails = 0
for n in (33, 36, 37, 40, 41, 48):
    nc = ncof(n); count, lda = 37, n + 3
    a0 = spd("double", n, count, n, lda)
    info = cp.zeros(count, cp.int32); info[3] = 4; info[5] = 1
    for nrhs in (1, 8, 9, 16, 24, 25, 32, 40):
        b0 = cp.random.RandomState(nrhs).standard_normal((count, nrhs, n + 1))
        ref = b0.copy(); call(f"head:potrs_split<double, {nc}, false>", a0, lda, n, count, info, ref, nrhs, n + 1)()
        for v in ("new", "h8"):
            b = b0.copy(); call(f"{v}:potrs_split<double, {nc}, false>", a0, lda, n, count, info, b, nrhs, n + 1)()
            ok = same_(b, ref) and same_(b[3], b0[3]); fails += not ok
            if not ok: print(f"FAIL {v} n={n} nrhs={nrhs}", flush=True)
print(f"# bits: {fails} failed", flush=True)
flush = cp.empty(256 << 20, dtype=cp.uint8)
def timed(f, reps=9):
    ts = []
    for r in range(reps):
        flush.fill(r); s, e = cp.cuda.Event(), cp.cuda.Event(); s.record(); f(); e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e) * 1e3)
    return float(np.median(ts[2:]))
print("\n# potrs_split float64 Lower, 65,536 systems, µs (median of 7, L2 flushed, the copy of B subtracted)", flush=True)
count = 65536
for n in (33, 36, 37, 40):
    nc = ncof(n); fa = spd("double", n, count, 1); info = cp.zeros(count, cp.int32)
    call(f"head:potrf_warp<double, {nc}, false, false>", fa, n, n, count, info)()
    for nrhs in (8, 12, 16, 24, 32):
        b0 = cp.random.RandomState(2).standard_normal((count, nrhs, n)); b = cp.empty_like(b0)
        tb = timed(lambda: b.__setitem__(Ellipsis, b0)); row = []
        for v in ("head", "new", "h8"):
            kk = call(f"{v}:potrs_split<double, {nc}, false>", fa, n, n, count, info, b, nrhs)
            def go(): b[...] = b0; kk()
            row.append(f"{v} {timed(go) - tb:.1f}")
        print(f"n={n} nrhs={nrhs}: " + "; ".join(row), flush=True)
    del fa, info
print("# done", flush=True)
