# Session 28 lab: registers (CUDA 13's NVRTC, the engine's options) and time of potrf_warp and potrf_reg built
# from eight sources (scalar.cuh + potrf.cu + warp.cu, as the engine concatenates them):
#   O  main (91ea67c): rsqrt_ (rsqrtf) at every pivot
#   E  this change: rsqrt_fast, pivots below the smallest normal finished by finish_in_memory
#   N  E without the finish (its call made unreachable): what the finish costs
#   R  E with finish_in_memory __noinline__
#   P  E with the matrix for the finish taken from the store pointer (outa − lane), nothing else kept for it
#   S  E with the matrix for the finish recomputed from the block and thread index behind opaque()
#   Q, T  P and S with finish_in_memory __noinline__
# Every variant's result is compared bit for bit with O's on the same SPD inputs.
import cupy as cp, numpy as np, os, sys, ctypes
H = os.path.dirname(os.path.abspath(__file__))
WARP = ["potrf_warp<float, 64, false>", "potrf_warp<float, 64, true>", "potrf_warp<float, 48, false>", "potrf_warp<float, 48, true>",
        "potrf_warp<float, 40, false>", "potrf_warp<float, 56, false>"]
REG = ["potrf_reg<float, 16, 16, false, false>", "potrf_reg_min<float, 32, 32, false, false, 6>"]
NAMES = WARP + REG
nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
def build(tag):
    code = open(f"{H}/src.{tag}.cu").read()
    prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), code.encode(), b"potrf.cu", 0, None, None)
    for k in NAMES: nv.nvrtcAddNameExpression(prog, k.encode())
    o = [b"--gpu-architecture=sm_90", b"-std=c++17"]
    rc = nv.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p * len(o))(*o))
    if rc:
        n_ = ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n_)); log = ctypes.create_string_buffer(n_.value)
        nv.nvrtcGetProgramLog(prog, log); print(log.value.decode()[-3000:]); raise SystemExit(1)
    n_ = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_)); buf = ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
    path = f"/tmp/lab28-{tag}.cubin"; open(path, "wb").write(buf.raw)
    m = cp.RawModule(path=path); fn = {}
    for k in NAMES:
        p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p)); fn[k] = m.get_function(p.value.decode())
        print(f"{tag} {k}: {fn[k].num_regs} regs, local {fn[k].local_size_bytes} B", flush=True)
    return fn
V = {t: build(t) for t in "OENRPSQT"}
flush = cp.empty(256 << 20, dtype=cp.uint8)
def spd(n, count):
    y = cp.random.RandomState(7).standard_normal((count, n, n), dtype=cp.float32)
    return (cp.matmul(y.transpose(0, 2, 1), y) / n + 0.01 * cp.eye(n, dtype=cp.float32)[None]).astype(cp.float32)
cases = [(64, WARP[0], 65536), (64, WARP[1], 65536), (48, WARP[2], 65536), (48, WARP[3], 65536), (64, WARP[0], 1024),
         (40, WARP[4], 65536), (56, WARP[5], 65536),
         (16, REG[0], 262144), (32, REG[1], 65536)]
for n, name, count in cases:
    a0 = spd(n, count); info = cp.zeros(count, cp.int32)
    if name.startswith("potrf_warp"):
        grid, block = (count + 1) // 2, 64
        shm = 2 * n * (n + 1) * 4 if name.endswith(", true>") else 0
    else:
        grid, block, shm = (count * n + 127) // 128, 128, 0
    ts = {v: [] for v in V}; outs = {}
    cp.cuda.Device().synchronize()
    for r in range(10):
        for v, fn in (V.items() if r % 2 else reversed(list(V.items()))):
            a = a0.copy(); flush.fill(r); s, e = cp.cuda.Event(), cp.cuda.Event(); s.record()
            fn[name]((grid,), (block,), (a, np.int64(n), np.int64(n * n), np.int32(n), np.int32(count), info), shared_mem=shm)
            e.record(); e.synchronize()
            if r >= 2: ts[v].append(cp.cuda.get_elapsed_time(s, e) * 1e3)
            outs[v] = a
    same = all(bool(cp.all(outs[v] == outs["O"])) for v in V)
    c = cp.empty_like(a0); cs = []
    for r in range(5):
        flush.fill(r); s, e = cp.cuda.Event(), cp.cuda.Event(); s.record(); c[...] = a0; e.record(); e.synchronize(); cs.append(cp.cuda.get_elapsed_time(s, e) * 1e3)
    cu = np.median(cs)
    print(f"{name} n={n} count={count}: copy {cu:.1f} µs; " + "; ".join(f"{v} {np.median(t):.1f} ({100 * cu / np.median(t):.0f} %)" for v, t in ts.items()),
          "| bits equal" if same else "| BITS DIFFER", flush=True)
