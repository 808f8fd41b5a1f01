# Session 44 lab 6: posv_split under __launch_bounds__(64, 8) ("lb": 16 warps a multiprocessor where its 140
# registers allowed 12; shared memory allows 16 up to NC = 56) against the final posv_split ("new"), float64.
#  1. Registers and local memory; bits of lb's A, info and X against new's, both triangles, lda = n + 3, ldb = n + 1,
#     failing and NaN matrices.
#  2. Times, µs, 65,536 and 16,384 systems, L2 flushed, the copies of A and B subtracted: lb, new, posv_warp, and
#     potrf_warp then potrs_split.
import cupy as cp, numpy as np, ctypes, os, sys, lzma, re, subprocess
from concurrent.futures import ThreadPoolExecutor
nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
rd = lambda p: open(p, encoding="utf-8").read()
HERE = os.path.dirname(os.path.abspath(__file__))
pre = rd("internal/gpu/scalar/scalar.cuh") + '\n#line 1 "potrf.cu"\n' + rd("internal/gpu/potrf/potrf.cu") + \
    '\n#line 1 "sweeps.cu"\n' + rd("internal/gpu/potrf/sweeps.cu") + '\n#line 1 "warp.cu"\n'
NEW = rd("internal/gpu/potrf/warp.cu")
KG = "template <typename T, int NC, bool UPPER>\n__global__ void posv_split("
assert NEW.count(KG) == 1
SRC = {"new": NEW, "lb": NEW.replace(KG, "template <typename T, int NC, bool UPPER>\n__global__ void __launch_bounds__(64, 8) posv_split(")}
NCS = (44, 48, 52, 56)
UP = ("false", "true")
def names(v, part):
    if v == "lb": return [f"posv_split<double, {nc}, {u}>" for nc in NCS for u in UP]
    if part == 0: return [f"posv_split<double, {nc}, {u}>" for nc in NCS for u in UP]
    if part == 1: return [f"potrs_split<double, {nc}, {u}>" for nc in NCS for u in UP] + \
        [f"potrf_warp<double, {nc}, {u}, false>" for nc in (48, 56) for u in UP]
    return [f"posv_warp<double, 48, {u}, false>" for u in UP] + ["posv_warp<double, 56, false, false>"]
def build(job):
    v, part = job; ns = names(v, part)
    prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), (pre + SRC[v]).encode(), b"warp.cu", 0, None, None)
    for k in ns: nv.nvrtcAddNameExpression(prog, k.encode())
    o = [b"--gpu-architecture=sm_90", b"-std=c++17"]
    rc = nv.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p * len(o))(*o))
    n_ = ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n_)); log = ctypes.create_string_buffer(n_.value)
    nv.nvrtcGetProgramLog(prog, log)
    if rc: return v, part, None, log.value.decode()[-6000:], None
    n_ = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_)); buf = ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
    path = f"/tmp/lab44b-{v}-{part}.cubin"; open(path, "wb").write(buf.raw)
    low = {}
    for k in ns:
        p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p)); low[k] = p.value.decode()
    out = subprocess.run(["/usr/local/cuda/bin/cuobjdump", "-sass", path], capture_output=True, text=True).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"\s+Function : (\S+)", line)
        if m: cur = m.group(1); funcs[cur] = []; continue
        if cur: funcs[cur].append(re.sub(r"/\*[0-9a-f]{4}\*/", "", line).strip())
    return v, part, path, low, funcs
jobs = [("lb", 0), ("new", 0), ("new", 1), ("new", 2)]
with ThreadPoolExecutor(len(jobs)) as ex: res = list(ex.map(build, jobs))
F, SASS = {}, {}
for v, part, path, low, funcs in res:
    if path is None: print(v, part, low, flush=True); raise SystemExit(1)
    m = cp.RawModule(path=path)
    for k, lk in low.items():
        f = F[v + ":" + k] = m.get_function(lk)
        print(f"{v}: {k}: {f.num_regs} registers, local {f.local_size_bytes} B", flush=True)
        SASS[(v, k)] = funcs.get(lk)
I, L = np.int32, np.int64
def pitch(nc): return (nc * (nc + 1) // 2 + 1) // 2 * 2
def call(k, a, lda, n, count, info, b=None, nrhs=0, ldb=None, v="new"):
    nc = int(k.split(",")[1]); f = F[v + ":" + k]; ldb = ldb or n
    tile = "posv" in k or (k.startswith("potrf_warp") and ", true," in k)  # potrf_warp Upper goes through the tile
    sm = 2 * pitch(nc) * 8 if "split" in k else (2 * nc * (nc + 1) * 8 if tile else 0)
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

fails = 0
print("\n# bits: lb's posv_split against new's (lda = n + 3, ldb = n + 1)", flush=True)
for n in (41, 44, 45, 47, 48, 49, 52, 53, 56):
    nc = (n + 3) // 4 * 4; count, lda = 29, n + 3
    for u in UP:
        a0 = spd(n, count, n, lda); a0[4, 7, 7] = -2.0; a0[6, 0, 0] = cp.nan; a0[9, n - 1, n - 1] = 1e-300
        for nrhs in (1, 4, 8, 9, 16, 17, 32):
            b0 = cp.random.RandomState(nrhs).standard_normal((count, nrhs, n + 1)); outs = []
            for v in ("new", "lb"):
                a = a0.copy(); b = b0.copy(); info = cp.zeros(count, cp.int32)
                call(f"posv_split<double, {nc}, {u}>", a, lda, n, count, info, b, nrhs, n + 1, v=v)(); outs.append((a, b, info))
            ok = same(outs[0][0], outs[1][0]) and same(outs[0][1], outs[1][1]) and bool((outs[0][2] == outs[1][2]).all())
            fails += not ok
            if not ok: print(f"FAIL lb n={n} upper={u} nrhs={nrhs}", flush=True)
print(f"# bits: {fails} failed", flush=True)
flush = cp.empty(256 << 20, dtype=cp.uint8)
def timed(f, reps=9):
    ts = []
    for r in range(reps):
        flush.fill(r); s, e = cp.cuda.Event(), cp.cuda.Event(); s.record(); f(); e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e) * 1e3)
    return float(np.median(ts[2:]))
LOCAL = {k for k, f in F.items() if f.local_size_bytes}
print("\n# Posv float64, µs (median of 7, L2 flushed, the copies of A and B subtracted)", flush=True)
for count in (65536, 16384):
    for n in (56, 52, 48, 45):
        nc = (n + 3) // 4 * 4; a0 = spd(n, count, 1); a = cp.empty_like(a0); info = cp.zeros(count, cp.int32)
        for u in UP:
            for nrhs in (1, 4, 8, 16):
                b0 = cp.random.RandomState(2).standard_normal((count, nrhs, n)); b = cp.empty_like(b0)
                tab = timed(lambda: (a.__setitem__(Ellipsis, a0), b.__setitem__(Ellipsis, b0))); row = []
                arms = []
                if nc in (48, 56) and (u == "false" or nc <= 48):
                    arms.append(("posv_warp", [call(f"posv_warp<double, {nc}, {u}, false>", a, n, n, count, info, b, nrhs)]))
                if nc in (48, 56):
                    arms.append(("warp+split", [call(f"potrf_warp<double, {nc}, {u}, false>", a, n, n, count, info),
                                                call(f"potrs_split<double, {nc}, {u}>", a, n, n, count, info, b, nrhs)]))
                for v in ("new", "lb"):
                    if f"{v}:posv_split<double, {nc}, {u}>" in LOCAL: row.append(f"{v} spills"); continue
                    arms.append((f"posv_split {v}", [call(f"posv_split<double, {nc}, {u}>", a, n, n, count, info, b, nrhs, v=v)]))
                for tag, ks in arms:
                    def go(): a[...] = a0; b[...] = b0; [k() for k in ks]
                    row.append(f"{tag} {timed(go) - tab:.1f}")
                print(f"count={count} {'U' if u == 'true' else 'L'} n={n} nrhs={nrhs}: " + "; ".join(row), flush=True)
        del a0, a, info
print("# done", flush=True)
