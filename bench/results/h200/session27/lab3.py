# Session 27 lab 3: why CuPy's build of potrf_warp takes fewer registers than the engine's (same NVRTC 13.0):
# CuPy adds -ftz=true. Variants of this change's potrf.cu + warp.cu compiled with the engine's NVRTC:
# default options; -ftz=true; default options with float rsqrt_ as rsqrt.approx.ftz.f32 (scalar.F.cuh), and the
# same with subnormal arguments scaled by 2^24 first (scalar.G.cuh).
import cupy as cp, numpy as np, os, sys, ctypes, time
H = os.path.dirname(os.path.abspath(__file__))
sys.argv = [sys.argv[0]]
NAMES = ["potrf_warp<float, 64, false>", "potrf_warp<float, 64, true>", "potrf_warp<float, 48, false>",
         "posv_warp<float, 64, false, false>", "posv_warp<float, 64, true, true>", "potrf_reg_min<float, 32, 32, false, false, 6>"]
lib = "/usr/local/cuda/lib64/libnvrtc.so"
nv = ctypes.CDLL(lib)
def build(tag, prelude, opts):
    code = open(f"{H}/{prelude}").read() + '\n#line 1 "potrf.cu"\n' + open(f"{H}/src.E.cu").read()
    prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), code.encode(), b"potrf.cu", 0, None, None)
    for k in NAMES: nv.nvrtcAddNameExpression(prog, k.encode())
    o = [b"--gpu-architecture=sm_90", b"-std=c++17"] + [x.encode() for x in opts]
    assert nv.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p * len(o))(*o)) == 0
    n_ = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_)); buf = ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
    path = f"{H}/lab3-{tag}.cubin"; open(path, "wb").write(buf.raw)
    m = cp.RawModule(path=path); fn = {}
    for k in NAMES:
        p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p)); fn[k] = m.get_function(p.value.decode())
        print(f"{tag} {k}: {fn[k].num_regs} regs, local {fn[k].local_size_bytes} B", flush=True)
    return fn
V = {"default": build("default", "scalar.cuh", []), "ftz": build("ftz", "scalar.cuh", ["-ftz=true"]), "rsqrtftz": build("rsqrtftz", "scalar.F.cuh", []),
     "rsqrtguard": build("rsqrtguard", "scalar.G.cuh", [])}
flush = cp.empty(256 << 20, dtype=cp.uint8)
def spd(n, count):
    y = cp.random.RandomState(7).standard_normal((count, n, n), dtype=cp.float64)
    return (cp.matmul(y.transpose(0, 2, 1), y) / n + 0.01 * cp.eye(n)[None]).astype(cp.float32)
for n, name in [(64, "potrf_warp<float, 64, false>"), (64, "potrf_warp<float, 64, true>"), (48, "potrf_warp<float, 48, false>")]:
    count = 65536; a0 = spd(n, count); info = cp.zeros(count, cp.int32)
    shm = 2 * n * (n + 1) * 4 if name.endswith(", true>") else 0
    ts = {v: [] for v in V}; outs = {}
    for r in range(10):
        for v, fn in V.items():
            a = a0.copy(); flush.fill(r); s, e = cp.cuda.Event(), cp.cuda.Event(); s.record()
            fn[name](((count + 1) // 2,), (64,), (a, np.int64(n), np.int64(n * n), np.int32(n), np.int32(count), info), shared_mem=shm)
            e.record(); e.synchronize()
            if r: ts[v].append(cp.cuda.get_elapsed_time(s, e) * 1e3)
            outs[v] = a
    same = all(bool(cp.all(outs[v] == outs["default"])) for v in V)
    print(f"{name} count={count}: " + "; ".join(f"{v} {np.median(t):.1f} µs" for v, t in ts.items()), "| bits equal" if same else "| BITS DIFFER", flush=True)
# scalar.G.cuh's rsqrt against rsqrtf, bit for bit, on positive normals and subnormals (engine options, no -ftz).
src = r'''
extern "C" __global__ void cmp(const float* x, unsigned* bad, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return;
  float v = x[i]; const bool tiny = v < 1.17549435e-38f; float y;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(tiny ? v * 16777216.0f : v));
  y = tiny ? y * 4096.0f : y;
  if (__float_as_uint(y) != __float_as_uint(rsqrtf(v))) atomicAdd(bad, 1u);
}'''
prog = ctypes.c_void_p(); nv.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"cmp.cu", 0, None, None)
o = [b"--gpu-architecture=sm_90"]; assert nv.nvrtcCompileProgram(prog, 1, (ctypes.c_char_p * 1)(*o)) == 0
n_ = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_)); buf = ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
open(f"{H}/cmp.cubin", "wb").write(buf.raw); f = cp.RawModule(path=f"{H}/cmp.cubin").get_function("cmp")
bits = cp.arange(1, 0x7f800000, 97, dtype=cp.uint32)  # every 97th positive finite float, subnormals included
x = bits.view(cp.float32); bad = cp.zeros(1, cp.uint32)
f(((x.size + 255) // 256,), (256,), (x, bad, np.int32(x.size)))
print(f"guarded rsqrt against rsqrtf: {int(bad[0])} of {x.size} positive floats differ", flush=True)
