# Lab: blocked.cu variants compiled as the engine compiles them (NVRTC, --gpu-architecture=sm_90 -std=c++17, the
# scalar prelude and a #line, every kernel name of the module), in parallel; local memory of the chol_tiled kernels
# from cuobjdump; then the split kernels of the variants without local memory timed from their cubins.
import ctypes, os, re, subprocess, sys, time
from concurrent.futures import ProcessPoolExecutor
sys.path.insert(0, os.path.dirname(__file__))
OUT = os.environ.get("OUT", "/tmp")
NAMES = [l.strip() for l in open("build/lab19/names.txt") if l.strip()]
PRE = open("internal/gpu/scalar/scalar.cuh").read()
def compile_variant(args):
    name, code = args
    nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
    src = PRE + '\n#line 1 "blocked.cu"\n' + code
    prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"blocked.cu", 0, None, None)
    for k in NAMES: nv.nvrtcAddNameExpression(prog, k.encode())
    opts = [b"--gpu-architecture=sm_90", b"-std=c++17"]
    t0 = time.time()
    rc = nv.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
    if rc != 0:
        n = ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n)); log = ctypes.create_string_buffer(n.value); nv.nvrtcGetProgramLog(prog, log)
        return name, None, {}, {}, log.value.decode()[:2000]
    n = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n))
    buf = ctypes.create_string_buffer(n.value); nv.nvrtcGetCUBIN(prog, buf)
    path = f"{OUT}/{name}.cubin"
    open(path, "wb").write(buf.raw)
    low = {}
    for k in NAMES:
        p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p)); low[p.value.decode()] = k
    res = subprocess.run(["/usr/local/cuda/bin/cuobjdump", "-res-usage", path], capture_output=True, text=True).stdout
    info, fn = {}, None
    for line in res.splitlines():
        m = re.search(r"Function (\S+):", line)
        if m: fn = low.get(m.group(1), m.group(1)); continue
        m = re.search(r"REG:(\d+).*LOCAL:(\d+)", line)
        if m and fn: info[fn] = (int(m.group(1)), int(m.group(2)))
    return name, path, low, info, f"{time.time()-t0:.0f}s"

def edit(s, old, new):
    assert s.count(old) == 1, (s.count(old), old[:80])
    return s.replace(old, new)
BLK = open("internal/gpu/cholblocked/blocked.cu").read()
def f1(c):
    c = edit(c, "template <int TS, int NT, bool UPPER>\n__device__ __forceinline__ void copy_tile(", "template <int TS, int NT, bool UPPER, bool FULL = false>\n__device__ __forceinline__ void copy_tile(")
    c = edit(c, "UPPER ? NT / 32 * e < t.rows : t.rows > 0);", "FULL || (UPPER ? NT / 32 * e < t.rows : t.rows > 0));")
    return edit(c, "copy_tile<TS, NT, UPPER>(s_q[k % 3], rq, next);", "copy_tile<TS, NT, UPPER, true>(s_q[k % 3], rq, next);")
def rot(c):
    c = edit(c, "auto copy = [&](int k) {", "auto copy = [&](int k, int bf) {")
    c = edit(c, "s_p[k % 3], rp, next);", "s_p[bf], rp, next);")
    c = c.replace("(s_q[k % 3], rq, next);", "(s_q[bf], rq, next);")
    c = edit(c, "                copy(0);\n                copy(1);\n#pragma unroll 1\n                for (int k = 0; k < c; ++k) {",
                "                copy(0, 0);\n                copy(1, 1);\n                int b = 0;\n#pragma unroll 1\n                for (int k = 0; k < c; ++k) {")
    c = edit(c, "                    copy(k + 2);\n                    const int b = k % 3;\n", "                    copy(k + 2, b == 0 ? 2 : b - 1);\n")
    return edit(c, "if (diag) cd.template mul<true>(s_p[b], s_p[b]); // row j of L is s_p here\n                }", "if (diag) cd.template mul<true>(s_p[b], s_p[b]); // row j of L is s_p here\n                    b = b == 2 ? 0 : b + 1;\n                }")
def one(c):
    c = edit(c, "mma_tf32(low[f], al, h0, h1);\n                mma_tf32(low[f], ah, l0, l1);", "mma_tf32(acc[f], al, h0, h1);\n                mma_tf32(acc[f], ah, l0, l1);")
    return c
V = {"base": BLK, "f1": f1(BLK), "f1rot": rot(f1(BLK)), "f1one": one(f1(BLK)), "f1rotone": one(rot(f1(BLK)))}
only = os.environ.get("VARIANTS")
if only: V = {k: v for k, v in V.items() if k in only.split(",")}
if __name__ == "__main__":
    with ProcessPoolExecutor(len(V)) as ex:
        results = list(ex.map(compile_variant, V.items()))
    good = {}
    for name, path, low, info, msg in results:
        if path is None:
            print(name, "failed:", msg); continue
        tiled = {k: v for k, v in info.items() if "chol_tiled<float" in k}
        bad = {k: v for k, v in info.items() if v[1]}
        print(f"{name} ({msg}):", "; ".join(f"{k[11:-1]}: {r} regs {l} B" for k, (r, l) in sorted(tiled.items())), "| local elsewhere:", {k: v for k, v in bad.items() if k not in tiled}, flush=True)
        if not any(l for k, (r, l) in tiled.items()):
            good[name] = (path, {v: k for k, v in low.items()})
    import cupy as cp, numpy as np
    from common import Case, timed, KN
    mods = {n: cp.RawModule(path=p) for n, (p, _) in good.items()}
    flush = cp.empty(256 << 20, cp.uint8)
    for case in os.environ.get("CASES", "Lx1000x3,Ux1000x3,Ux2048x8,Ux4096x1,Ux1024x4,Ux2048x2,Lx2048x8,Lx4096x1").split(","):
        uplo, n, count = case.split("x")
        c = Case(int(n), int(count), uplo)
        out = []
        for name, (p, low) in good.items():
            f = mods[name].get_function(low[KN[(uplo, 1)]])
            t = timed(c, f, 3, flush)
            info, resid = c.check()
            out.append(f"{name} {t:8.1f} ({info}, {resid:.3f})")
        print(f"{uplo} 3xTF32 n{n} b{count}: " + "  ".join(out), flush=True)
