# Lab (GPU machine): which forms of the prefix tasks keep chol_tiled's float kernels for one block a multiprocessor
# free of local memory under CUDA 13, and how fast the clean ones are. Variants: head (main's blocked.cu before this
# session, $HEAD_CU) and each $VDIR/<name>/blocked.cu. Compiled as the engine compiles (session 20's res.py, CUDA
# 13's NVRTC); every float one-block kernel's registers and stack frame are printed, and a line "CLEAN name" for each
# variant with no frame in any of them. The clean ones and head are then launched as PotrfTiled launches
# (prefix.py's PreCase: CUDA events, L2 evicted, median of $REPS, every result checked), and the last line says
# "BEST name" for the fastest clean variant at the first case.
import glob, os, sys, time
sys.path.insert(0, "bench/results/h200/session20")
os.environ.setdefault("NVRTC", "/usr/local/cuda/lib64/libnvrtc.so")
os.environ.setdefault("CUOBJDUMP", "/usr/local/cuda/bin/cuobjdump")
KN = {(u, s): f"chol_tiled<float, 32, 128, {'true' if u == 'U' else 'false'}, {'true' if s else 'false'}, false, 1>"
      for u in "LU" for s in (0, 1)}
names = f"{os.environ.get('CUBINS', '/tmp')}/variants-names.txt"
open(names, "w").write("\n".join(KN.values()) + "\n")
os.environ["NAMES"] = names
import res

V = {"head": open(os.environ.get("HEAD_CU", "build/gpu31/blocked-head.cu")).read()}
for p in sorted(glob.glob(os.environ.get("VDIR", "build/gpu31/v") + "/*/blocked.cu")):
    V[os.path.basename(os.path.dirname(p))] = open(p).read()
os.environ.setdefault("JOBS", str(len(V)))
t0 = time.time()
results = res.compile_all(V)
res.report(results)
print(f"compiled in {time.time() - t0:.0f}s", flush=True)
clean = []
for name, path, info, low, msg in results:
    if path is not None and name != "head" and all(info[k][1] == 0 and info[k][2] == 0 for k in KN.values()):
        clean.append(name)
        print("CLEAN", name, flush=True)
import numpy as np, cupy as cp
_src = open("bench/results/h200/session20/gpu_lab.py").read()
exec(_src[_src.index("def divmagic"):_src.index('if __name__ == "__main__":')])

class PreCase(Case):
    # Room for every variant's prefix flags (fewer than the tiles) and sums (fewer than two per diagonal tile).
    def __init__(self, cp, n, count, uplo):
        super().__init__(cp, n, count, uplo)
        nt = (n + 31) // 32
        self.tickets = cp.zeros(1 + 2 * self.tiles, cp.int32)
        self.x = cp.zeros(3 * count * nt * 1024, np.float32)

sms = cp.cuda.Device().attributes["MultiProcessorCount"]
fns = {}
for name, path, info, low, msg in results:
    if path is None or (name != "head" and name not in clean):
        continue
    mod = cp.RawModule(path=path)
    by = {v: k for k, v in low.items()}
    for key, expr in KN.items():
        fns[(name, key)] = mod.get_function(by[expr])
flush = cp.empty(256 << 20, cp.uint8)
reps = int(os.environ.get("REPS", "7"))
dyn = 2 * 3 * 32 * 36 * 4  # split_stages<1> = 3 buffers for each of the two tiles
first = {}
for spec in os.environ.get("CASES", "Ux1x4096x1,Lx1x4096x1,Ux1x2048x2,Ux1x1024x4,Ux0x1024x4").split(","):
    uplo, split, n, count = spec.split("x")
    c = PreCase(cp, int(n), int(count), uplo)
    out = []
    for name in ["head"] + clean:
        f = fns[(name, (uplo, int(split)))]
        blocks = min(2 * sms, c.tiles)
        def launch(grid, block, args, f=f, split=int(split)):
            f(grid, block, args, shared_mem=dyn) if split else f(grid, block, args)
        t = c.timed(launch, blocks, reps, flush)
        info, resid = c.check()
        first.setdefault(spec, {})[name] = t
        out.append(f"{name} {t:8.1f} [{info}, {resid:.3f}]")
    print(f"{uplo} {'3xTF32' if int(split) else 'exact'} n{n} b{count}: " + "  ".join(out), flush=True)
if clean:
    spec = next(iter(first))
    print("BEST", min(clean, key=lambda k: first[spec][k]), flush=True)
