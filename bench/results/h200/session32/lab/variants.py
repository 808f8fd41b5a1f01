# Lab (GPU machine): chol_tiled variants of the hand-over from one diagonal tile to the next. Variants: head ($HEAD_CU)
# and each $VDIR/<name>/blocked.cu, compiled as the engine compiles them (session 20's res.py, CUDA 13's NVRTC). Every
# float kernel built for one block a multiprocessor (whole matrix and panel, exact and split, both triangles) has
# its registers and stack frame printed; "CLEAN name" for a variant with no local memory or frame in any of them.
# head and the clean variants are then launched as PotrfTiled launches chol_tiled (session 20's Case, room for the
# prefix tasks as session 31's PreCase; CUDA events around the launch alone, L2 evicted before each, the variants
# interleaved within each repetition, median of $REPS, every result checked), and "BEST name" names the clean
# variant fastest at the first case (of those not in $NOT_BEST). A variant's split stages are read from its
# split_stages.
import glob, os, re, sys, time
sys.path.insert(0, "bench/results/h200/session20")
os.environ.setdefault("NVRTC", "/usr/local/cuda/lib64/libnvrtc.so")
os.environ.setdefault("CUOBJDUMP", "/usr/local/cuda/bin/cuobjdump")
b = lambda v: "true" if v else "false"
ALL = [f"chol_tiled<float, 32, 128, {b(u)}, {b(s)}, {b(p)}, 1>" for u in (0, 1) for s in (0, 1) for p in (0, 1)]
KN = {(u, s): f"chol_tiled<float, 32, 128, {b(u == 'U')}, {b(s)}, false, 1>" for u in "LU" for s in (0, 1)}
names = f"{os.environ.get('CUBINS', '/tmp')}/variants-names.txt"
open(names, "w").write("\n".join(ALL) + "\n")
os.environ["NAMES"] = names
import res

V = {"head": open(os.environ["HEAD_CU"]).read()}
for p in sorted(glob.glob(os.environ["VDIR"] + "/*/blocked.cu")):
    V[os.path.basename(os.path.dirname(p))] = open(p).read()
os.environ.setdefault("JOBS", str(len(V)))
t0 = time.time()
results = res.compile_all(V)
res.report(results)
print(f"compiled in {time.time() - t0:.0f}s", flush=True)
clean = []
for name, path, info, low, msg in results:
    if path is not None and name != "head" and all(info[k][1] == 0 and info[k][2] == 0 for k in ALL):
        clean.append(name)
        print("CLEAN", name, flush=True)
import numpy as np, cupy as cp
_src = open("bench/results/h200/session20/gpu_lab.py").read()
exec(_src[_src.index("def divmagic"):_src.index('if __name__ == "__main__":')])

class PreCase(Case):
    def __init__(self, cp, n, count, uplo):
        super().__init__(cp, n, count, uplo)
        nt = (n + 31) // 32
        self.tickets = cp.zeros(1 + 2 * self.tiles, cp.int32)
        self.x = cp.zeros(3 * count * nt * 1024, np.float32)

def stages(src):
    m = re.search(r"MIN_BLOCKS == 4 \? 4 : (\d)", src)
    return int(m.group(1))

sms = cp.cuda.Device().attributes["MultiProcessorCount"]
fns, dyn = {}, {}
for name, path, info, low, msg in results:
    if path is None or (name != "head" and name not in clean):
        continue
    mod = cp.RawModule(path=path)
    by = {v: k for k, v in low.items()}
    for key, expr in KN.items():
        fns[(name, key)] = mod.get_function(by[expr])
    dyn[name] = 2 * stages(V[name]) * 32 * 36 * 4
    for key in KN:
        if key[1]:  # beyond 48 KB of shared memory a block only when asked (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
            fns[(name, key)].max_dynamic_shared_size_bytes = dyn[name]
flush = cp.empty(256 << 20, cp.uint8)
reps = int(os.environ.get("REPS", "9"))
first = {}
arms = ["head"] + clean
for spec in os.environ.get("CASES", "Ux1x4096x1,Lx1x4096x1,Ux1x2048x2,Ux1x1024x4,Ux0x1024x4,Ux1x512x16").split(","):
    uplo, split, n, count = spec.split("x")
    split = int(split)
    c = PreCase(cp, int(n), int(count), uplo)
    blocks = min(2 * sms, c.tiles)
    ts = {a: [] for a in arms}
    res_ = {}
    for r in range(reps + 1):  # repetition 0 warms up
        for a in arms:
            f = fns[(a, (uplo, split))]
            flush.fill(r)
            c.a[...] = c.A0
            c.tickets.fill(0)
            e0, e1 = cp.cuda.Event(), cp.cuda.Event()
            e0.record()
            if split:
                f((blocks,), (128,), c.args(), shared_mem=dyn[a])
            else:
                f((blocks,), (128,), c.args())
            e1.record(); e1.synchronize()
            if r > 0:
                ts[a].append(cp.cuda.get_elapsed_time(e0, e1) * 1000)
            if r == reps:
                res_[a] = c.check()
    out = []
    for a in arms:
        t = float(np.median(ts[a]))
        first.setdefault(spec, {})[a] = t
        info, resid = res_[a]
        out.append(f"{a} {t:8.1f} [{info}, {resid:.3f}]")
    print(f"{uplo} {'3xTF32' if split else 'exact'} n{n} b{count}: " + "  ".join(out), flush=True)
if clean:
    spec = next(iter(first))
    pick = [k for k in clean if k not in os.environ.get("NOT_BEST", "").split(",")]
    if pick:
        print("BEST", min(pick, key=lambda k: first[spec][k]), flush=True)
