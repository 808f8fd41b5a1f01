# Session 44 lab 2, on the working tree's warp.cu ("new": group_sweeps and group_chunk for any group size G,
# tri_solve with quarters at NC <= 40, warp_solve with halves as before) against HEAD's (lab/head-warp.cu.xz), and
# "newq": the working tree with warp_solve's chunks of 16 by quarters at NC <= 40 too (solve_group).
#  1. SASS, function by function (cuobjdump -sass), of every solve kernel of the warp tier, new against HEAD: only
#     potrs_split<double, 36 and 40> should differ.
#  2. Bits: potrs_split (new) and posv_warp, potrs_warp (newq) against HEAD's, mixed batches, lda = n + 3.
#  3. Times, µs, 65,536 and 16,384 systems, L2 flushed: potrs_split float64 n = 33…40 (new against HEAD); posv_warp
#     and potrs_warp float32 and float64 n = 33…40 (newq against HEAD).
import cupy as cp, numpy as np, ctypes, os, sys, lzma, re, subprocess
from concurrent.futures import ThreadPoolExecutor
nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
rd = lambda p: open(p, encoding="utf-8").read()
HERE = os.path.dirname(os.path.abspath(__file__))
pre = rd("internal/gpu/scalar/scalar.cuh") + '\n#line 1 "potrf.cu"\n' + rd("internal/gpu/potrf/potrf.cu") + \
    '\n#line 1 "sweeps.cu"\n' + rd("internal/gpu/potrf/sweeps.cu") + '\n#line 1 "warp.cu"\n'
new = rd("internal/gpu/potrf/warp.cu")
KN = "template <int NC> constexpr int solve_group = 16;"
assert new.count(KN) == 1
SRC = {"head": lzma.open(os.path.join(HERE, "head-warp.cu.xz"), "rt", encoding="utf-8").read(), "new": new,
       "newq": new.replace(KN, "template <int NC> constexpr int solve_group = NC <= 40 ? 8 : 16;")}
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
    path = f"/tmp/lab44f-{v}-{t}-{part}.cubin"; open(path, "wb").write(buf.raw)
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
jobs = [(v, t, part) for v in SRC for t in TY for part in (0, 1)]
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
        q = SASS[("newq", k)]
        if q != b: print(f"newq differs from new: {k}", flush=True)
print(f"# {same} of {total} functions have HEAD's SASS", flush=True)

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
print("\n# bits: potrs_split (new), posv_warp and potrs_warp (newq) against HEAD's; lda = n + 3, ldb = n + 1", flush=True)
for t in TY:
    for n in (33, 35, 36, 37, 39, 40, 41, 44, 47, 48):
        nc = ncof(n); count, lda = 37, n + 3
        a0 = spd(t, n, count, n, lda)
        a0[7, 5, 5] = -1.0  # a failing matrix: posv leaves its B alone
        info = cp.zeros(count, cp.int32); info[3] = 4; info[5] = 1
        for nrhs in (1, 4, 5, 8, 9, 12, 15, 16, 17, 24, 32, 33):
            b0 = cp.random.RandomState(nrhs).standard_normal((count, nrhs, n + 1)).astype(TY[t])
            if t == "double":
                ref = b0.copy(); call(f"head:potrs_split<double, {nc}, false>", a0, lda, n, count, info, ref, nrhs, n + 1)()
                b = b0.copy(); call(f"new:potrs_split<double, {nc}, false>", a0, lda, n, count, info, b, nrhs, n + 1)()
                ok = same_(b, ref) and same_(b[3], b0[3]); fails += not ok
                if not ok: print(f"FAIL potrs_split {t} n={n} nrhs={nrhs}", flush=True)
            else:
                ref = b0.copy(); call(f"head:potrs_warp<float, {nc}, false>", a0, lda, n, count, info, ref, nrhs, n + 1)()
                b = b0.copy(); call(f"newq:potrs_warp<float, {nc}, false>", a0, lda, n, count, info, b, nrhs, n + 1)()
                ok = same_(b, ref) and same_(b[3], b0[3]); fails += not ok
                if not ok: print(f"FAIL potrs_warp {t} n={n} nrhs={nrhs}", flush=True)
            if t == "double" and nc > 56: continue
            outs = []
            for v in ("head", "newq"):
                a = a0.copy(); b = b0.copy(); inf = cp.zeros(count, cp.int32)
                call(f"{v}:posv_warp<{t}, {nc}, false, false>", a, lda, n, count, inf, b, nrhs, n + 1)()
                outs.append((a, b, inf))
            ok = same_(outs[0][0], outs[1][0]) and same_(outs[0][1], outs[1][1]) and bool((outs[0][2] == outs[1][2]).all()) \
                and int(outs[1][2][7]) != 0 and same_(outs[1][1][7], b0[7])
            fails += not ok
            if not ok: print(f"FAIL posv_warp {t} n={n} nrhs={nrhs}", flush=True)
print(f"# bits: {fails} failed", flush=True)

flush = cp.empty(256 << 20, dtype=cp.uint8)
def timed(f, reps=9):
    ts = []
    for r in range(reps):
        flush.fill(r); s, e = cp.cuda.Event(), cp.cuda.Event(); s.record(); f(); e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e) * 1e3)
    return float(np.median(ts[2:]))
print("\n# times, µs (median of 7, L2 flushed, the copies of A and B subtracted)", flush=True)
for count in (65536, 16384):
    for t in ("double", "float"):
        for n in (33, 36, 37, 40):
            nc = ncof(n); a0 = spd(t, n, count, 1); a = cp.empty_like(a0); info = cp.zeros(count, cp.int32)
            fa = cp.empty_like(a0); fa[...] = a0; call(f"head:potrf_warp<{t}, {nc}, false, false>", fa, n, n, count, info)()
            for nrhs in (1, 8, 12, 16, 32):
                b0 = cp.random.RandomState(2).standard_normal((count, nrhs, n)).astype(TY[t]); b = cp.empty_like(b0)
                tb = timed(lambda: b.__setitem__(Ellipsis, b0))
                tab = timed(lambda: (a.__setitem__(Ellipsis, a0), b.__setitem__(Ellipsis, b0)))
                row = []
                ks = ("potrs_split", "new") if t == "double" else ("potrs_warp", "newq")
                for v in ("head", ks[1]):
                    kk = call(f"{v}:{ks[0]}<{t}, {nc}, false>", fa, n, n, count, info, b, nrhs)
                    def go(): b[...] = b0; kk()
                    row.append(f"{ks[0]} {v} {timed(go) - tb:.1f}")
                for v in ("head", "newq"):
                    kk = call(f"{v}:posv_warp<{t}, {nc}, false, false>", a, n, n, count, info, b, nrhs)
                    def go(): a[...] = a0; b[...] = b0; kk()
                    row.append(f"posv_warp {v} {timed(go) - tab:.1f}")
                print(f"count={count} {t} n={n} nrhs={nrhs}: " + "; ".join(row), flush=True)
            del a0, a, fa, info
print("# done", flush=True)
