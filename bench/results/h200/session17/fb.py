# Lab: time factor_block (blocked.cu) alone on one block, and dump its SASS.
import ctypes, os, re, subprocess, sys, time
import numpy as np, cupy as cp

root = sys.argv[1] if len(sys.argv) > 1 else "."
out = os.environ.get("OUT", "/tmp")
pre = open(f"{root}/internal/gpu/scalar/scalar.cuh").read()
blk = open(f"{root}/internal/gpu/cholblocked/blocked.cu").read()
fb = blk[: blk.index("// store_block writes")]
bench = r'''
__device__ __forceinline__ unsigned long long gtime() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
#define BENCH(NAME, FN, T)                                                                              \
extern "C" __global__ void NAME(const T* a, T* l, T* x, long long* res, int reps, int w, int inverse) { \
    __shared__ T s_a[32][33], s_x[32][33];                                                              \
    long long total = 0; unsigned long long g0 = gtime(); int fail = 0;                                  \
    for (int rep = 0; rep < reps; ++rep) {                                                              \
        for (int e = threadIdx.x; e < 1024; e += 128) {                                                 \
            int r = e % 32, c = e / 32;                                                                 \
            T v = (r == c) ? T(1) : T(0);                                                               \
            if (r < w && c <= r) v = a[r + 32 * c];                                                     \
            s_a[r][c] = v; s_x[r][c] = T(0);                                                            \
        }                                                                                               \
        __syncthreads();                                                                                \
        long long t0 = clock64();                                                                       \
        T dfail;                                                                                        \
        FN<T, 32, 128>(s_a, s_x, w, inverse != 0, fail, dfail);                                         \
        __syncthreads();                                                                                \
        total += clock64() - t0;                                                                        \
    }                                                                                                   \
    unsigned long long g1 = gtime();                                                                    \
    for (int e = threadIdx.x; e < 1024; e += 128) { l[e] = s_a[e % 32][e / 32]; x[e] = s_x[e % 32][e / 32]; } \
    if (threadIdx.x == 0) { res[0] = total; res[1] = (long long)(g1 - g0); res[2] = fail; }             \
}
'''
src = pre + fb + bench
names = [("new_f", "factor_block", "float"), ("old_f", "factor_subblocks", "float")]
src += "".join("BENCH(%s, %s, %s)\n" % n for n in names)
open(f"{out}/lab.cu", "w").write(src)

# SASS through NVRTC's cubin and nvdisasm/cuobjdump when present.
def sass():
    try:
        nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
        prog = ctypes.c_void_p()
        nv.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"lab.cu", 0, None, None)
        opts = [b"--gpu-architecture=sm_90", b"-std=c++17"]
        arr = (ctypes.c_char_p * len(opts))(*opts)
        rc = nv.nvrtcCompileProgram(prog, len(opts), arr)
        n = ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
        log = ctypes.create_string_buffer(n.value); nv.nvrtcGetProgramLog(prog, log)
        print("nvrtc rc", rc, log.value.decode()[:2000])
        nv.nvrtcGetCUBINSize(prog, ctypes.byref(n))
        buf = ctypes.create_string_buffer(n.value); nv.nvrtcGetCUBIN(prog, buf)
        open(f"{out}/lab.cubin", "wb").write(buf.raw)
        for tool in ["/usr/local/cuda/bin/cuobjdump", "/usr/local/cuda/bin/nvdisasm"]:
            if os.path.exists(tool):
                args = [tool, "-sass", f"{out}/lab.cubin"] if "cuobjdump" in tool else [tool, "-c", f"{out}/lab.cubin"]
                r = subprocess.run(args, capture_output=True, text=True)
                open(f"{out}/lab.sass", "w").write(r.stdout + r.stderr)
                r = subprocess.run(["/usr/local/cuda/bin/cuobjdump", "-res-usage", f"{out}/lab.cubin"], capture_output=True, text=True)
                print(r.stdout[-6000:])
                break
        else:
            print("no cuobjdump/nvdisasm:", os.listdir("/usr/local/cuda/bin") if os.path.exists("/usr/local/cuda/bin") else "no bin")
    except Exception as e:
        print("sass failed", e)
sass()

def full_resources():
    nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
    full = pre + blk
    kn = []
    for t in ("float", "double", "cfloat", "cdouble"):
        for up in ("false", "true"):
            kn.append(f"chol_tiled<{t}, 32, 128, {up}, false, false>")
            kn.append(f"chol_tiled<{t}, 32, 128, {up}, false, true>")
            if t == "float":
                kn.append(f"chol_tiled<{t}, 32, 128, {up}, true, false>")
                kn.append(f"chol_tiled<{t}, 32, 128, {up}, true, true>")
            if t != "float":
                kn.append(f"chol_diag<{t}, 32, 128, {up}>")
    prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), full.encode(), b"blocked.cu", 0, None, None)
    for k in kn:
        nv.nvrtcAddNameExpression(prog, k.encode())
    opts = [b"--gpu-architecture=sm_90", b"-std=c++17"]
    arr = (ctypes.c_char_p * len(opts))(*opts)
    t0 = time.time(); rc = nv.nvrtcCompileProgram(prog, len(opts), arr)
    n = ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
    log = ctypes.create_string_buffer(n.value); nv.nvrtcGetProgramLog(prog, log)
    print("full compile rc", rc, "in", round(time.time() - t0, 1), "s", log.value.decode()[:3000])
    names = {}
    for k in kn:
        low = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(low)); names[low.value.decode()] = k
    nv.nvrtcGetCUBINSize(prog, ctypes.byref(n))
    buf = ctypes.create_string_buffer(n.value); nv.nvrtcGetCUBIN(prog, buf)
    open(f"{out}/full.cubin", "wb").write(buf.raw)
    r = subprocess.run(["/usr/local/cuda/bin/cuobjdump", "-res-usage", f"{out}/full.cubin"], capture_output=True, text=True)
    cur = None
    for line in r.stdout.splitlines():
        if "Function" in line:
            cur = line.split("Function")[1].strip(" :")
        elif "REG:" in line and cur:
            print("RES", names.get(cur, cur), line.strip().split(" CONSTANT")[0])
if os.environ.get("FULLRES", "1") == "1":
    full_resources()


mod = cp.RawModule(code=src, options=("-std=c++17",))
rng = np.random.default_rng(1)
cases = []
for w in (32, 31, 17, 8):
    g = rng.standard_normal((32, 32)); A = g @ g.T / 32 + np.eye(32); cases.append(("spd", w, A))
g = rng.standard_normal((32, 32)); A = g @ g.T / 32 + np.eye(32)
B = A.copy(); B[20, 20] = -5; cases.append(("neg20", 32, B))
B = A.copy(); B[5, 5] = np.nan; cases.append(("nan5", 32, B))
B = A.copy(); B[3, 0] = 40; cases.append(("indef", 32, B))
u, _ = np.linalg.qr(rng.standard_normal((32, 32))); cases.append(("cond1e6", 32, u @ np.diag(np.logspace(0, -6, 32)) @ u.T))
res_by = {}
for name, fn, t in names:
    dt = np.float32 if t == "float" else np.float64
    k = mod.get_function(name)
    for cname, w, A0 in cases:
        A = A0.copy(); A[w:, :] = 0; A[:, w:] = 0
        a = cp.asarray(A.astype(dt).ravel(order="F"))
        l = cp.zeros(1024, dt); x = cp.zeros(1024, dt); res = cp.zeros(3, cp.int64)
        reps = 200
        for it in range(2):
            k((1,), (128,), (a, l, x, res, np.int32(reps), np.int32(w), np.int32(1)))
        cp.cuda.Device().synchronize()
        r = res.get()
        L = np.tril(l.get().reshape(32, 32, order="F")[:w, :w]); X = np.tril(x.get().reshape(32, 32, order="F")[:w, :w])
        f = int(r[2]); lim = f - 1 if f else w
        Aw = A[:w, :w]
        try:
            Lo = np.linalg.cholesky(Aw[:lim, :lim].astype(np.float64)) if lim > 0 else np.zeros((0, 0))
        except Exception:
            Lo = None
        if Lo is not None and lim > 0:
            errL = np.nanmax(np.abs(L[:lim, :lim] - Lo)) / np.abs(Lo).max()
            errX = np.nanmax(np.abs(X[:lim, :lim] @ Lo - np.eye(lim)))
            # the rows below the leading block, columns before the failure: L(i, :lim) Lo^T = A(i, :lim)
            errR = np.nanmax(np.abs(L[lim:, :lim] @ Lo.T - Aw[lim:, :lim])) if lim < w else 0.0
        else:
            errL = errX = errR = float("nan")
        res_by[(name, cname, w)] = (L, X, f)
        print(f"{name:8s} {cname:8s} w={w:2d} cycles/call {r[0]/reps:8.0f} ns/call {r[1]/reps:8.0f} fail {f:2d} errL {errL:.1e} errX {errX:.1e} errRows {errR:.1e}", flush=True)
for (name, cname, w), (L, X, f) in res_by.items():
    if name.startswith("new"):
        o = res_by[("old" + name[3:], cname, w)]
        lim = f - 1 if f else w
        print(f"same-as-old {name} {cname} w={w}: fail {f} vs {o[2]}; max |L diff| on final columns {np.nanmax(np.abs(L[:, :lim] - o[0][:, :lim])) if lim else 0:.1e}; X leading diff {np.nanmax(np.abs(X[:lim,:lim]-o[1][:lim,:lim])) if lim else 0:.1e}; X below finite {np.isfinite(X[lim:, :]).all()}")
