# Session 43 lab 8: posv.cu with the publish helper (working tree) against 939c50b's (lab/c939-posv.cu.xz): every one
# of the 512 posv_reg and potrs_reg instantiations compiled by NVRTC for sm_90 from both, their SASS compared
# function by function (cuobjdump -sass).
import ctypes, lzma, os, re, subprocess
from concurrent.futures import ThreadPoolExecutor
nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
rd = lambda p: open(p, encoding="utf-8").read()
HERE = os.path.dirname(os.path.abspath(__file__))
pre = rd("internal/gpu/scalar/scalar.cuh") + '\n#line 1 "posv.cu"\n'
SRC = {"c939": lzma.open(os.path.join(HERE, "c939-posv.cu.xz"), "rt", encoding="utf-8").read(), "new": rd("internal/gpu/posv/posv.cu")}
SIZE = {"float": 4, "double": 8, "cfloat": 8, "cdouble": 16}
def lanes(cols):
    l = 4
    while l < cols: l *= 2
    return l
def threads(t, cols, nr):
    v = 16 // SIZE[t]; th = 128; ln = lanes(cols)
    while th > max(32, ln) and 16 * (th // ln) * (cols * ((cols // v) | 1) + 1 + 2 * ((nr + v - 1) // v) + 1) > 48 * 1024: th //= 2
    return th
NAMES = {t: [f"{k}_reg<{t}, {lanes(c)}, {c}, {nr}, {u}, {threads(t, c, nr)}>" for k in ("posv", "potrs") for c in range(4, 33, 4)
             for nr in [1 << i for i in range(5) if (1 << i) <= 64 // SIZE[t]] for u in ("false", "true")] for t in SIZE}
def build(job):
    v, t = job
    prog = ctypes.c_void_p()
    nv.nvrtcCreateProgram(ctypes.byref(prog), (pre + SRC[v]).encode(), b"posv.cu", 0, None, None)
    for k in NAMES[t]: nv.nvrtcAddNameExpression(prog, k.encode())
    o = [b"--gpu-architecture=sm_90", b"-std=c++17"]
    rc = nv.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p * len(o))(*o))
    if rc: return v, t, None
    n_ = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n_)); buf = ctypes.create_string_buffer(n_.value); nv.nvrtcGetCUBIN(prog, buf)
    path = f"/tmp/sass-{v}-{t}.cubin"; open(path, "wb").write(buf.raw)
    out = subprocess.run(["/usr/local/cuda/bin/cuobjdump", "-sass", path], capture_output=True, text=True).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"\s+Function : (\S+)", line)
        if m: cur = m.group(1); funcs[cur] = []; continue
        if cur: funcs[cur].append(re.sub(r"/\*[0-9a-f]{4}\*/", "", line).strip())
    return v, t, funcs
jobs = [(v, t) for v in SRC for t in SIZE]
with ThreadPoolExecutor(len(jobs)) as ex: res = {(v, t): f for v, t, f in ex.map(build, jobs)}
total = same = 0
for t in SIZE:
    a, b = res[("c939", t)], res[("new", t)]
    assert a is not None and b is not None and set(a) == set(b), t
    for fn in a:
        total += 1
        if a[fn] == b[fn]: same += 1
        else: print(f"DIFFERENT SASS: {fn}", flush=True)
print(f"# {same} of {total} functions have the same SASS", flush=True)
