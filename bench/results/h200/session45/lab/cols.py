# Session 45 lab 2: Lower's packed tile by columns (warp.cu's tri_at), so split_fill's copies and the store of L land in
# and leave consecutive words, against HEAD's tile by rows (lab/head-warp.cu.xz), float64.
#  1. Registers and local memory of every split kernel (posv_split, potrs_split at every NC, potrf_split at 60, 64),
#     both sources; Upper's SASS against HEAD's (whitespace collapsed: it should not change).
#  2. Bits of A, info and X against HEAD at n = NC − 3 and NC of every bucket (and 33), both triangles, lda = n + 3,
#     ldb = n + 1, failing, NaN and tiny-pivot matrices, 1…17 right-hand sides.
#  3. Times, µs, 16,384 and 65,536 systems, L2 flushed, the copies of A and B subtracted, each case's arms timed in
#     order and again in reverse (both medians printed).
import cupy as cp, numpy as np, ctypes, os, lzma, re, subprocess
from concurrent.futures import ThreadPoolExecutor
nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
rd = lambda p: open(p, encoding="utf-8").read()
HERE = os.path.dirname(os.path.abspath(__file__))
pre = rd("internal/gpu/scalar/scalar.cuh") + '\n#line 1 "potrf.cu"\n' + rd("internal/gpu/potrf/potrf.cu") + \
    '\n#line 1 "sweeps.cu"\n' + rd("internal/gpu/potrf/sweeps.cu") + '\n#line 1 "warp.cu"\n'
SRC = {"head": lzma.open(os.path.join(HERE, "head-warp.cu.xz"), "rt", encoding="utf-8").read(),
       "cols": rd("internal/gpu/potrf/warp.cu")}
NCS = (36, 40, 44, 48, 52, 56, 60, 64)
UP = ("false", "true")
def names(part):
    if part < 4: return [f"posv_split<double, {nc}, {u}>" for nc in NCS[2 * part:2 * part + 2] for u in UP]
    if part < 6: return [f"potrs_split<double, {nc}, {u}>" for nc in NCS[4 * (part - 4):4 * (part - 4) + 4] for u in UP]
    return [f"potrf_split<double, {nc}, {u}>" for nc in (60, 64) for u in UP]
def build(job):
    v, part = job; ns = names(part); prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), (pre + SRC[v]).encode(), b"warp.cu", 0, None, None)
    for k in ns: nv.nvrtcAddNameExpression(prog, k.encode())
    o = [b"--gpu-architecture=sm_90", b"-std=c++17"]
    rc = nv.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p * len(o))(*o))
    n_ = ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n_)); log = ctypes.create_string_buffer(n_.value)
    nv.nvrtcGetProgramLog(prog, log)
    if rc: return v, part, None, log.value.decode()[-6000:], None
    n_ = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_)); buf = ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
    path = f"/tmp/lab45c-{v}-{part}.cubin"; open(path, "wb").write(buf.raw)
    low = {}
    for k in ns:
        p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p)); low[k] = p.value.decode()
    out = subprocess.run(["/usr/local/cuda/bin/cuobjdump", "-sass", path], capture_output=True, text=True).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"\s+Function : (\S+)", line)
        if m: cur = m.group(1); funcs[cur] = []; continue
        if cur: funcs[cur].append(" ".join(re.sub(r"/\*[0-9a-f]{4}\*/", "", line).split()))
    return v, part, path, low, funcs
jobs = [(v, p) for v in SRC for p in range(7)]
with ThreadPoolExecutor(len(jobs)) as ex: res = list(ex.map(build, jobs))
F, SASS = {}, {}
for v, part, path, low, funcs in res:
    if path is None: print(v, part, low, flush=True); raise SystemExit(1)
    m = cp.RawModule(path=path)
    for k, lk in low.items():
        f = F[v + ":" + k] = m.get_function(lk)
        print(f"{v}: {k}: {f.num_regs} registers, local {f.local_size_bytes} B", flush=True)
        SASS[(v, k)] = funcs.get(lk)
print("\n# SASS, cols against head (whitespace collapsed)", flush=True)
for (v, k), s in sorted(SASS.items()):
    if v == "cols": print(f"{k}: {'same' if s == SASS[('head', k)] else 'DIFFERENT'}", flush=True)
I, L = np.int32, np.int64
def pitch(nc): return (nc * (nc + 1) // 2 + 1) // 2 * 2
def call(v, k, a, lda, n, count, info, b=None, nrhs=0, ldb=None):
    nc = int(k.split(",")[1]); f = F[v + ":" + k]; ldb = ldb or n; sm = 2 * pitch(nc) * 8
    if k.startswith("potrf"): args = (a, L(lda), L(lda * n), I(n), I(count), info)
    else: args = (a, L(lda), L(lda * n), I(n), b, L(ldb), L(ldb * nrhs), I(nrhs), I(count), info)
    if sm > 48 << 10: f.max_dynamic_shared_size_bytes = sm
    return lambda: f(((count + 1) // 2,), (64,), args, shared_mem=sm)
def spd(n, count, seed, lda=None):
    lda = lda or n
    y = cp.random.RandomState(seed).standard_normal((count, n, n))
    a = cp.matmul(y.transpose(0, 2, 1), y) / n + 0.5 * cp.eye(n)[None]
    s = cp.full((count, n, lda), cp.nan); s[:, :, :n] = a
    return s
def same(x, y): return bool(((x == y) | (cp.isnan(x) & cp.isnan(y))).all())
fails = checks = 0
print("\n# bits, cols against head (lda = n + 3, ldb = n + 1; failing, NaN and tiny-pivot matrices)", flush=True)
for nc in NCS:
    for n in sorted({nc - 3, nc} | ({33} if nc == 36 else set())):
        count, lda = 29, n + 3
        for u in UP:
            a0 = spd(n, count, n, lda); a0[4, 7, 7] = -2.0; a0[6, 0, 0] = cp.nan; a0[9, n - 1, n - 1] = 1e-300
            a0[11, n - 1, 3] = cp.nan; a0[13, n - 2, n - 2] = -1.0
            for nrhs in (1, 2, 3, 4, 7, 8, 9, 16, 17):
                b0 = cp.random.RandomState(nrhs).standard_normal((count, nrhs, n + 1))
                outs = {}
                for v in SRC:
                    a = a0.copy(); b = b0.copy(); info = cp.zeros(count, cp.int32)
                    call(v, f"posv_split<double, {nc}, {u}>", a, lda, n, count, info, b, nrhs, n + 1)()
                    b2 = b0.copy(); call(v, f"potrs_split<double, {nc}, {u}>", a, lda, n, count, info, b2, nrhs, n + 1)()
                    outs[v] = (a, b, info, b2)
                h, c = outs["head"], outs["cols"]
                ok = same(h[0], c[0]) and same(h[1], c[1]) and bool((h[2] == c[2]).all()) and same(h[3], c[3]) and same(c[1], c[3])
                checks += 1; fails += not ok
                if not ok: print(f"FAIL n={n} upper={u} nrhs={nrhs}", flush=True)
            if nc >= 60:
                outs = {}
                for v in SRC:
                    a = a0.copy(); info = cp.zeros(count, cp.int32); call(v, f"potrf_split<double, {nc}, {u}>", a, lda, n, count, info)()
                    outs[v] = (a, info)
                ok = same(outs["head"][0], outs["cols"][0]) and bool((outs["head"][1] == outs["cols"][1]).all())
                checks += 1; fails += not ok
                if not ok: print(f"FAIL potrf_split n={n} upper={u}", flush=True)
print(f"# bits: {fails} of {checks} failed", flush=True)

flush = cp.empty(256 << 20, dtype=cp.uint8)
def timed(f, reps=9):
    ts = []
    for r in range(reps):
        flush.fill(r); s, e = cp.cuda.Event(), cp.cuda.Event(); s.record(); f(); e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e) * 1e3)
    return float(np.median(ts[2:]))
print("\n# µs (median of 7, L2 flushed, copies of A and B subtracted); each arm: forward order / reverse order", flush=True)
def case(count, n, u, kind, nrhs):
    nc = (n + 3) // 4 * 4; k = f"{kind}<double, {nc}, {u}>"
    a0 = spd(n, count, 1); a = cp.empty_like(a0); info = cp.zeros(count, cp.int32)
    b0 = cp.random.RandomState(2).standard_normal((count, max(nrhs, 1), n)); b = cp.empty_like(b0)
    tab = timed(lambda: (a.__setitem__(Ellipsis, a0), b.__setitem__(Ellipsis, b0)))
    ks = {v: (call(v, k, a, n, n, count, info) if kind == "potrf_split" else call(v, k, a, n, n, count, info, b, nrhs)) for v in SRC}
    got = {v: [] for v in ks}
    for order in (list(ks), list(ks)[::-1]):
        for v in order:
            def go(): a[...] = a0; b[...] = b0; ks[v]()
            got[v].append(timed(go) - tab)
    print(f"count={count} {kind} {'U' if u == 'true' else 'L'} n={n} nrhs={nrhs}: " +
          "; ".join(f"{v} {x[0]:.1f}/{x[1]:.1f}" for v, x in got.items()), flush=True)
for count in (16384, 65536):
    for n in (48, 45, 64, 57, 56, 52):
        for nrhs in (1, 4, 16):
            case(count, n, "false", "posv_split", nrhs)
    for nrhs in (1, 16): case(count, 48, "true", "posv_split", nrhs)
    for n in (33, 36, 40, 44, 48, 52, 56, 60, 64):
        for nrhs in (1, 4, 16):
            case(count, n, "false", "potrs_split", nrhs)
    for n in (57, 64):
        case(count, n, "false", "potrf_split", 0)
    case(count, 64, "true", "potrf_split", 0)
print("# done", flush=True)
