# Session 45 lab 3: Lower's packed tile by columns, where it pays, and Posv's routes for Lower n = 45…48, float64.
#  Sources: head (lab/head-warp.cu.xz: by rows), cols (the working tree: Lower by columns in every split kernel),
#  colsinc (cols with split_panel's loop over finished columns stepping a pointer to column j instead of computing
#  tri_at's quadratic offset each step).
#  1. Registers, local memory; SASS of potrf_split<double, 64, false> and posv_split<double, 48|64, false> to $OUT.
#  2. Bits of colsinc against head (posv_split and potrf_split, both triangles, lda = n + 3, ldb = n + 1, failing, NaN
#     and tiny-pivot matrices).
#  3. Times (µs, median of 7, L2 flushed, copies subtracted; forward/reverse order): posv_split Lower at every NC and
#     potrf_split Lower at 60, 64, the three sources; then Posv's routes for Lower n = 45 and 48 at 1,024…65,536 systems
#     and 1…16 right-hand sides: posv_warp, posv_split (cols), potrf_warp then potrs_split (head).
import cupy as cp, numpy as np, ctypes, os, lzma, re, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
rd = lambda p: open(p, encoding="utf-8").read()
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.environ.get("OUT", "/tmp")
pre = rd("internal/gpu/scalar/scalar.cuh") + '\n#line 1 "potrf.cu"\n' + rd("internal/gpu/potrf/potrf.cu") + \
    '\n#line 1 "sweeps.cu"\n' + rd("internal/gpu/potrf/sweeps.cu") + '\n#line 1 "warp.cu"\n'
COLS = rd("internal/gpu/potrf/warp.cu")
LOOP = """        const tri_tile<T, NC, ROWS> at{tile};
#pragma unroll 4
        for (int j = 0; j < C0; ++j) {
            const T lx = TOP ? at(lane, j) : from_real<T>(0);
            const T ly = ib < NC ? at(ib < NC ? ib : 0, j) : from_real<T>(0); // no address past the tile
#pragma unroll
            for (int c = 0; c < K; ++c) {
                if (C0 + c >= NC) break; // padding columns: nothing in the tile
                const T p = at(C0 + c, j);
                if constexpr (TOP) x[c] = sub_mul_conj(x[c], lx, p);
                y[c] = sub_mul_conj(y[c], ly, p);
            }
        }"""
INC = """        const tri_tile<T, NC, ROWS> at{tile};
        const T* colj = tile; // by columns: L(i, j) at colj[i]
#pragma unroll 4
        for (int j = 0; j < C0; ++j) {
            const T lx = TOP ? (ROWS ? at(lane, j) : colj[lane]) : from_real<T>(0);
            const T ly = ib < NC ? (ROWS ? at(ib < NC ? ib : 0, j) : colj[ib < NC ? ib : 0]) : from_real<T>(0);
#pragma unroll
            for (int c = 0; c < K; ++c) {
                if (C0 + c >= NC) break; // padding columns: nothing in the tile
                const T p = ROWS ? at(C0 + c, j) : colj[C0 + c];
                if constexpr (TOP) x[c] = sub_mul_conj(x[c], lx, p);
                y[c] = sub_mul_conj(y[c], ly, p);
            }
            colj += NC - 1 - j;
        }"""
assert COLS.count(LOOP) == 1
SRC = {"head": lzma.open(os.path.join(HERE, "head-warp.cu.xz"), "rt", encoding="utf-8").read(), "cols": COLS,
       "colsinc": COLS.replace(LOOP, INC)}
NCS = (36, 40, 44, 48, 52, 56, 60, 64)
UP = ("false", "true")
def names(v, part):
    if part < 4: return [f"posv_split<double, {nc}, {u}>" for nc in NCS[2 * part:2 * part + 2] for u in UP]
    if part == 4: return [f"potrf_split<double, {nc}, {u}>" for nc in (60, 64) for u in UP]
    if v != "head": return []
    return ["posv_warp<double, 48, false, false>", "potrf_warp<double, 48, false, false>", "potrs_split<double, 48, false>"]
def build(job):
    v, part = job; ns = names(v, part); prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), (pre + SRC[v]).encode(), b"warp.cu", 0, None, None)
    for k in ns: nv.nvrtcAddNameExpression(prog, k.encode())
    o = [b"--gpu-architecture=sm_90", b"-std=c++17"]
    rc = nv.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p * len(o))(*o))
    n_ = ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n_)); log = ctypes.create_string_buffer(n_.value)
    nv.nvrtcGetProgramLog(prog, log)
    if rc: return v, part, None, log.value.decode()[-6000:], None
    n_ = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_)); buf = ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
    path = f"/tmp/lab45r-{v}-{part}.cubin"; open(path, "wb").write(buf.raw)
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
jobs = [(v, p) for v in SRC for p in range(6) if names(v, p)]
with ThreadPoolExecutor(len(jobs)) as ex: res = list(ex.map(build, jobs))
F = {}
os.makedirs(os.path.join(OUT, "sass"), exist_ok=True)
for v, part, path, low, funcs in res:
    if path is None: print(v, part, low, flush=True); raise SystemExit(1)
    m = cp.RawModule(path=path)
    for k, lk in low.items():
        f = F[v + ":" + k] = m.get_function(lk)
        print(f"{v}: {k}: {f.num_regs} registers, local {f.local_size_bytes} B", flush=True)
        if k in ("potrf_split<double, 64, false>", "posv_split<double, 48, false>", "posv_split<double, 64, false>"):
            fn = re.sub(r"[^a-z0-9]+", "-", k).strip("-")
            open(os.path.join(OUT, "sass", f"{v}-{fn}.sass"), "w").write("\n".join(funcs.get(lk, [])))
I, L = np.int32, np.int64
def pitch(nc): return (nc * (nc + 1) // 2 + 1) // 2 * 2
def call(v, k, a, lda, n, count, info, b=None, nrhs=0, ldb=None):
    nc = int(k.split(",")[1]); f = F[v + ":" + k]; ldb = ldb or n
    sm = 2 * pitch(nc) * 8 if "split" in k else (2 * nc * (nc + 1) * 8 if k.startswith("posv") else 0)
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
print("\n# bits, colsinc against head (lda = n + 3, ldb = n + 1; failing, NaN and tiny-pivot matrices)", flush=True)
for nc in NCS:
    for n in sorted({nc - 3, nc} | ({33} if nc == 36 else set())):
        count, lda = 29, n + 3
        for u in UP:
            a0 = spd(n, count, n, lda); a0[4, 7, 7] = -2.0; a0[6, 0, 0] = cp.nan; a0[9, n - 1, n - 1] = 1e-300
            a0[11, n - 1, 3] = cp.nan; a0[13, n - 2, n - 2] = -1.0
            for nrhs in (1, 3, 4, 8, 9, 16, 17):
                b0 = cp.random.RandomState(nrhs).standard_normal((count, nrhs, n + 1)); outs = {}
                for v in ("head", "colsinc"):
                    a = a0.copy(); b = b0.copy(); info = cp.zeros(count, cp.int32)
                    call(v, f"posv_split<double, {nc}, {u}>", a, lda, n, count, info, b, nrhs, n + 1)(); outs[v] = (a, b, info)
                h, c = outs["head"], outs["colsinc"]
                ok = same(h[0], c[0]) and same(h[1], c[1]) and bool((h[2] == c[2]).all()); checks += 1; fails += not ok
                if not ok: print(f"FAIL n={n} upper={u} nrhs={nrhs}", flush=True)
            if nc >= 60:
                outs = {}
                for v in ("head", "colsinc"):
                    a = a0.copy(); info = cp.zeros(count, cp.int32); call(v, f"potrf_split<double, {nc}, {u}>", a, lda, n, count, info)()
                    outs[v] = (a, info)
                ok = same(outs["head"][0], outs["colsinc"][0]) and bool((outs["head"][1] == outs["colsinc"][1]).all())
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
def case(count, n, u, nrhs, arms):
    a0 = spd(n, count, 1); a = cp.empty_like(a0); info = cp.zeros(count, cp.int32)
    b0 = cp.random.RandomState(2).standard_normal((count, max(nrhs, 1), n)); b = cp.empty_like(b0)
    tab = timed(lambda: (a.__setitem__(Ellipsis, a0), b.__setitem__(Ellipsis, b0)))
    ks = {}
    for tag, parts in arms:
        ks[tag] = [call(v, k, a, n, n, count, info) if k.startswith("potrf") else call(v, k, a, n, n, count, info, b, nrhs)
                   for v, k in parts]
    got = {t: [] for t in ks}
    for order in (list(ks), list(ks)[::-1]):
        for t in order:
            def go(): a[...] = a0; b[...] = b0; [k() for k in ks[t]]
            got[t].append(timed(go) - tab)
    print(f"count={count} {'U' if u == 'true' else 'L'} n={n} nrhs={nrhs}: " +
          "; ".join(f"{t} {x[0]:.1f}/{x[1]:.1f}" for t, x in got.items()), flush=True)
    del a0, a, b0, b
for count in (16384, 65536):
    for n in (36, 40, 44, 45, 48, 52, 56, 57, 64):
        nc = (n + 3) // 4 * 4
        for nrhs in (1, 16):
            case(count, n, "false", nrhs, [(v, [(v, f"posv_split<double, {nc}, false>")]) for v in SRC])
    for n in (57, 64):
        case(count, n, "false", 0, [(v, [(v, f"potrf_split<double, {(n + 3) // 4 * 4}, false>")]) for v in SRC])
print("\n# routes, Lower n = 45 and 48", flush=True)
for count in (1024, 4096, 16384, 65536):
    for n in (45, 48):
        for nrhs in (1, 2, 4, 8, 12, 16):
            arms = [("posv_warp", [("head", "posv_warp<double, 48, false, false>")]),
                    ("split-cols", [("cols", "posv_split<double, 48, false>")]),
                    ("split-colsinc", [("colsinc", "posv_split<double, 48, false>")])]
            if nrhs >= 8: arms.append(("two", [("head", "potrf_warp<double, 48, false, false>"), ("head", "potrs_split<double, 48, false>")]))
            case(count, n, "false", nrhs, arms)
print("# done", flush=True)
