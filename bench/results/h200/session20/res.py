# Lab: blocked.cu variants compiled as the engine compiles them (NVRTC, --gpu-architecture=sm_90 -std=c++17, the
# scalar prelude and a #line, the name expressions listed in $NAMES), by the NVRTC at $NVRTC: libnvrtc.so by default
# (CUDA 11.8 from Debian's non-free packages on the development machine), Debian trixie's 12.4 unpacked there
# (/opt/nvrtc124), or CUDA 13 on the GPU machine (/usr/local/cuda/lib64/libnvrtc.so). run() prints each kernel's
# registers, local memory (cuobjdump -res-usage, $CUOBJDUMP) and stack frame (session19/frames.py: cuobjdump's
# LOCAL column leaves frames out, the driver's local size counts them).
import ctypes, os, re, subprocess, sys, time
from concurrent.futures import ProcessPoolExecutor
HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = [l.strip() for l in open(os.environ.get("NAMES", f"{HERE}/names.txt")) if l.strip()]
PRE = open("internal/gpu/scalar/scalar.cuh").read()
OUTDIR = os.environ.get("CUBINS", "/tmp")

def frames(path):
    src = open("bench/results/h200/session19/frames.py").read().split("\nfor path in")[0]
    g = {}
    exec(src, g)
    return g["frames"](path)

def compile_variant(args):
    """(name, code) → (name, cubin path or None, {expression: [regs, local, frame]}, {lowered: expression}, message)."""
    name, code = args
    nv = ctypes.CDLL(os.environ.get("NVRTC", "libnvrtc.so"))
    src = PRE + '\n#line 1 "blocked.cu"\n' + code
    prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"blocked.cu", 0, None, None)
    for k in NAMES:
        nv.nvrtcAddNameExpression(prog, k.encode())
    # NVRTC_OPTS: more options, space-separated (-lineinfo for source lines in the SASS; session 60).
    opts = [b"--gpu-architecture=sm_90", b"-std=c++17"] + [o.encode() for o in os.environ.get("NVRTC_OPTS", "").split()]
    t0 = time.time()
    rc = nv.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
    if rc != 0:
        n = ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
        log = ctypes.create_string_buffer(n.value); nv.nvrtcGetProgramLog(prog, log)
        return name, None, {}, {}, log.value.decode()[:3000]
    n = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n))
    buf = ctypes.create_string_buffer(n.value); nv.nvrtcGetCUBIN(prog, buf)
    tag = os.path.basename(os.environ.get("NVRTC", "nvrtc11"))
    path = f"{OUTDIR}/lab20-{name}-{tag}.cubin"
    open(path, "wb").write(buf.raw)
    low = {}
    for k in NAMES:
        p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p)); low[p.value.decode()] = k
    res = subprocess.run([os.environ.get("CUOBJDUMP", "cuobjdump"), "-res-usage", path], capture_output=True, text=True).stdout
    info, fn = {}, None
    for line in res.splitlines():
        m = re.search(r"Function (\S+):", line)
        if m:
            fn = low.get(m.group(1), m.group(1)); continue
        m = re.search(r"REG:(\d+).*STACK:(\d+).*LOCAL:(\d+)", line)
        if m and fn:
            info[fn] = [int(m.group(1)), int(m.group(3)), int(m.group(2))]
    for k, v in frames(path).items():
        k = low.get(k, k)
        if k in info:
            info[k][2] = max(info[k][2], v.get(0x11, 0))
    return name, path, info, low, f"{time.time()-t0:.0f}s"

def compile_all(variants):
    with ProcessPoolExecutor(max(1, min(int(os.environ.get("JOBS", "2")), len(variants)))) as ex:
        return list(ex.map(compile_variant, variants.items()))

def report(results, only="chol_tiled<float"):
    for name, path, info, low, msg in results:
        if path is None:
            print(name, "failed:", msg); continue
        sel = {k: v for k, v in info.items() if only in k}
        bad = {k: v for k, v in info.items() if (v[1] or v[2]) and k not in sel}
        print(f"{name} ({msg}):")
        for k, (r, l, f) in sorted(sel.items()):
            print(f"   {k}: {r} regs, local {l} B, frame {f} B")
        if bad:
            print("   local memory elsewhere:", bad)
        sys.stdout.flush()

def run(variants, only="chol_tiled<float"):
    results = compile_all(variants)
    report(results, only)
    return results

if __name__ == "__main__":
    run({"base": open("internal/gpu/cholblocked/blocked.cu").read()}, sys.argv[1] if len(sys.argv) > 1 else "chol_tiled<float")
