# Lab: where chol_tiled spills (SASS with line info), and the resources of candidate fixes.
import ctypes, os, re, subprocess, time, collections
import cupy as cp
pre = open("internal/gpu/scalar/scalar.cuh").read()
blk = open("internal/gpu/cholblocked/blocked.cu").read()
out = os.environ.get("OUT", "/tmp")
def edit(s, old, new):
    assert s.count(old) >= 1, old[:80]
    return s.replace(old, new)
STORE = """                if (defer && tid >= 32) {
                    store_tile<T, TS, NT, UPPER, 32>(am, lda, s_c, (long long)i * TS, (long long)c * TS, nr, TS, hm, lm, ldh);
                    asm volatile("bar.sync 1, %0;" ::"n"(NT - 32) : "memory"); // warps 1… only: their stores are done
                    if (tid == 32) release(flag(i, c, m));
                }
"""
ALL = """                if (defer) {
                    store_tile<T, TS, NT, UPPER>(am, lda, s_c, (long long)i * TS, (long long)c * TS, nr, TS, hm, lm, ldh);
                    __syncthreads();
                    if (tid == 32) release(flag(i, c, m));
                }
"""
V = {"e1": blk, "v2": edit(blk, "defer = ROWS && diag && f == 0;", "defer = false;"), "v8": edit(blk, STORE, ALL),
     "v11": edit(blk, "#pragma unroll 4\n    for (int e = threadIdx.x - T0; e < TS * TS; e += NT - T0) {\n        const int fast", "#pragma unroll 1\n    for (int e = threadIdx.x - T0; e < TS * TS; e += NT - T0) {\n        const int fast"),
     "head": open("build/lab/blocked_head.cu").read()}
kn = [f"chol_tiled<float, 32, 128, {u}, {s}, false>" for u in ("true", "false") for s in ("false", "true")]
for name, code in V.items():
    t0 = time.time()
    m = cp.RawModule(code=pre + code, options=("-std=c++17",), name_expressions=kn)
    fns = {k: m.get_function(k) for k in kn}
    print(f"variant {name}: {time.time()-t0:.1f}s;", "; ".join(f"{k.split('<')[1][:-1]}: {fns[k].num_regs} regs {fns[k].local_size_bytes} B" for k in kn), flush=True)
# SASS with line info for e1's spilled kernels
nv = ctypes.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
src = pre + blk
prog = ctypes.c_void_p()
nv.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"blocked.cu", 0, None, None)
ks = [kn[0], kn[1]]
for k in ks: nv.nvrtcAddNameExpression(prog, k.encode())
opts = [b"--gpu-architecture=sm_90", b"-std=c++17", b"-lineinfo"]
rc = nv.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
n = ctypes.c_size_t(); nv.nvrtcGetCUBINSize(prog, ctypes.byref(n))
buf = ctypes.create_string_buffer(n.value); nv.nvrtcGetCUBIN(prog, buf)
open(f"{out}/e1.cubin", "wb").write(buf.raw)
low = {}
for k in ks:
    p = ctypes.c_char_p(); nv.nvrtcGetLoweredName(prog, k.encode(), ctypes.byref(p)); low[p.value.decode()] = k
r = subprocess.run(["/usr/local/cuda/bin/nvdisasm", "-g", "-c", f"{out}/e1.cubin"], capture_output=True, text=True)
txt = r.stdout
print("nvdisasm rc", r.returncode, r.stderr[:300], len(txt))
fn = None; line = None; cnt = collections.Counter()
for l in txt.splitlines():
    mm = re.match(r"\s*\.text\.(\S+):", l) or re.match(r"\s*(_Z\S+):\s*$", l)
    if mm: fn = low.get(mm.group(1).rstrip(':'), mm.group(1)[:40])
    ml = re.search(r'line (\d+)', l)
    if ml and "//##" in l: line = int(ml.group(1))
    if re.search(r"\b(STL|LDL)", l):
        cnt[(fn, line, "STL" if "STL" in l else "LDL")] += 1
lines = src.splitlines()
for (f, ln, op), c in sorted(cnt.items(), key=lambda x: (str(x[0][0]), x[0][1] or 0)):
    print(f"{str(f)[:50]:50s} {op} x{c} at line {ln}: {lines[ln-1].strip()[:110] if ln else ''}")
