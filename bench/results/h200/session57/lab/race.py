# Lab (GPU machine): racecheck with source lines for lab/overlap.py's chol_tiled. Call 7's racecheck of the patched
# tree (TestPotrfTiled, 3xTF32 Upper, n = 97) reported write-write hazards in four places of the one-block split
# kernel, without lines. Here the kernel is compiled as res.py compiles it, with -lineinfo, and launched once from
# CuPy on n = 97 at 2 matrices; run it under compute-sanitizer --tool racecheck.
#
# Usage, from the repository root: compute-sanitizer --tool racecheck python3 bench/results/h200/session57/lab/race.py
# Env: VARIANT (overlap; or head), UPLO (U), SPLIT (1).
import ctypes, os, sys

sys.path.insert(0, "bench/lab")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tiledlab as tl
from overlap import with_overlap

head = open("internal/gpu/cholblocked/blocked.cu").read()
# overlap.py edits the stamped source's factor barrier; give it the text it expects, then drop the stamp.
stamped = head.replace("            __syncthreads();\n            int fail;\n            R dfail;\n",
                       "            __syncthreads();\n            P(3);\n            int fail;\n            R dfail;\n")
code = head if os.environ.get("VARIANT", "overlap") == "head" else with_overlap(stamped).replace("            P(3);\n", "")
uplo = os.environ.get("UPLO", "U")
split = os.environ.get("SPLIT", "1") == "1"
expr = f"chol_tiled<float, 32, 128, {'true' if uplo == 'U' else 'false'}, {'true' if split else 'false'}, false, 1>"
nv = ctypes.CDLL(os.environ.get("NVRTC", "/usr/local/cuda/lib64/libnvrtc.so"))
src = open("internal/gpu/scalar/scalar.cuh").read() + '\n#line 1 "blocked.cu"\n' + code
prog = ctypes.c_void_p()
nv.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"blocked.cu", 0, None, None)
nv.nvrtcAddNameExpression(prog, expr.encode())
opts = [b"--gpu-architecture=sm_90", b"-std=c++17", b"-lineinfo"]
if nv.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts)) != 0:
    n = ctypes.c_size_t(); nv.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
    log = ctypes.create_string_buffer(n.value); nv.nvrtcGetProgramLog(prog, log)
    sys.exit(log.value.decode()[:3000])
n = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n))
buf = ctypes.create_string_buffer(n.value); nv.nvrtcGetCUBIN(prog, buf)
p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, expr.encode(), ctypes.byref(p))
import cupy as cp
path = f"{os.environ.get('CUBINS', '/tmp')}/race57.cubin"
open(path, "wb").write(buf.raw)
mod = cp.RawModule(path=path)
f = mod.get_function(p.value.decode())
f.max_dynamic_shared_size_bytes = tl.split_shared_bytes(1)
c = tl.Case(97, 2, uplo)
c.reset()
f((min(2 * cp.cuda.Device().attributes["MultiProcessorCount"], c.tiles),), (128,), c.args(), shared_mem=tl.split_shared_bytes(1) if split else 0)
cp.cuda.Device().synchronize()
print(expr, "info and residual:", c.check())
