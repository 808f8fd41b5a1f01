# Session 28 lab 2: main (O) against the landed build (T) at the warp tier's orders that call 4 did not time,
# registers and time, 65,536 float matrices, Upper 40…64 and Lower 44…60. Sources from sources.tar.xz (lab.py's).
import cupy as cp, numpy as np, os, ctypes
from concurrent.futures import ProcessPoolExecutor
H = os.path.dirname(os.path.abspath(__file__))
NAMES = [f"potrf_warp<float, {nc}, true>" for nc in range(40, 65, 4)] + [f"potrf_warp<float, {nc}, false>" for nc in (44, 52, 56, 60)]
def build(tag):
    nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
    prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), open(f"{H}/src.{tag}.cu", "rb").read(), b"potrf.cu", 0, None, None)
    for k in NAMES: nv.nvrtcAddNameExpression(prog, k.encode())
    o = [b"--gpu-architecture=sm_90", b"-std=c++17"]
    assert nv.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p * len(o))(*o)) == 0
    n_ = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_)); buf = ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
    open(f"/tmp/lab28b-{tag}.cubin", "wb").write(buf.raw)
    low = {}
    for k in NAMES:
        p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p)); low[k] = p.value.decode()
    return tag, low
with ProcessPoolExecutor(2) as ex:
    built = dict((t, low) for t, low in ex.map(build, "OT"))
V = {}
for t, low in built.items():
    m = cp.RawModule(path=f"/tmp/lab28b-{t}.cubin"); V[t] = {k: m.get_function(low[k]) for k in NAMES}
    for k in NAMES: print(f"{t} {k}: {V[t][k].num_regs} regs, local {V[t][k].local_size_bytes} B", flush=True)
flush = cp.empty(256 << 20, dtype=cp.uint8)
for name in NAMES:
    n = int(name.split(", ")[1]); count = 65536
    y = cp.random.RandomState(7).standard_normal((count, n, n), dtype=cp.float32)
    a0 = (cp.matmul(y.transpose(0, 2, 1), y) / n + 0.01 * cp.eye(n, dtype=cp.float32)[None]).astype(cp.float32)
    info = cp.zeros(count, cp.int32); shm = 2 * n * (n + 1) * 4 if name.endswith(", true>") else 0
    ts = {v: [] for v in V}; outs = {}
    for r in range(10):
        for v, fn in (V.items() if r % 2 else reversed(list(V.items()))):
            a = a0.copy(); flush.fill(r); s, e = cp.cuda.Event(), cp.cuda.Event(); s.record()
            fn[name](((count + 1) // 2,), (64,), (a, np.int64(n), np.int64(n * n), np.int32(n), np.int32(count), info), shared_mem=shm)
            e.record(); e.synchronize()
            if r >= 2: ts[v].append(cp.cuda.get_elapsed_time(s, e) * 1e3)
            outs[v] = a
    same = bool(cp.all(outs["O"] == outs["T"]))
    print(f"{name} n={n} count={count}: " + "; ".join(f"{v} {np.median(t):.1f} µs" for v, t in ts.items()), "| bits equal" if same else "| BITS DIFFER", flush=True)
