# Lab (GPU machine): chol_tiled's prefix tasks (blocked.cu's Prefix) against the kernel without them. Variants:
# head (main's blocked.cu before this session, $HEAD_CU), the working tree (pre$AHEAD: ahead = $AHEAD, min_steps = 8)
# and the same with ahead = each of $AHEADS. Compiled as the engine compiles (session 20's res.py, CUDA 13's NVRTC), launched as
# PotrfTiled launches (session 20's gpu_lab.py Case, with room for the prefix flags and sums): CUDA events, L2
# evicted, median of $REPS, every result checked ([info, ‖LLᵀ − A‖₁/(‖A‖₁·n·eps)]).
import os, sys, time
sys.path.insert(0, "bench/results/h200/session20")
os.environ.setdefault("NVRTC", "/usr/local/cuda/lib64/libnvrtc.so")
os.environ.setdefault("CUOBJDUMP", "/usr/local/cuda/bin/cuobjdump")
KN = {(u, s): f"chol_tiled<float, 32, 128, {'true' if u == 'U' else 'false'}, {'true' if s else 'false'}, false, 1>"
      for u in "LU" for s in (0, 1)}
names = f"{os.environ.get('CUBINS', '/tmp')}/prefix-names.txt"
open(names, "w").write("\n".join(KN.values()) + "\n")
os.environ["NAMES"] = names
import res

def edit(s, old, new):
    assert s.count(old) == 1, (old, s.count(old))
    return s.replace(old, new)

new = open("internal/gpu/cholblocked/blocked.cu").read()
tree = os.environ.get("AHEAD", "10")
V = {"head": open(os.environ.get("HEAD_CU", "build/gpu31/blocked-head.cu")).read(), f"pre{tree}": new}
for d in os.environ.get("AHEADS", "3,10").split(","):
    V[f"pre{d}"] = edit(new, f"ahead = {tree}, min_steps = 8;", f"ahead = {d}, min_steps = 8;")
os.environ.setdefault("JOBS", str(len(V)))
t0 = time.time()
results = res.compile_all(V)
res.report(results)
print(f"compiled in {time.time() - t0:.0f}s", flush=True)
import numpy as np, cupy as cp
_src = open("bench/results/h200/session20/gpu_lab.py").read()
exec(_src[_src.index("def divmagic"):_src.index('if __name__ == "__main__":')])

class PreCase(Case):
    # Room for every variant: the flags of prefix tasks after the tiles' (fewer than the tiles), their sums after
    # the inverses (two tiles each, fewer than two per diagonal tile).
    def __init__(self, cp, n, count, uplo):
        super().__init__(cp, n, count, uplo)
        nt = (n + 31) // 32
        self.tickets = cp.zeros(1 + 2 * self.tiles, cp.int32)
        self.x = cp.zeros(3 * count * nt * 1024, np.float32)

sms = cp.cuda.Device().attributes["MultiProcessorCount"]
fns = {}
for name, path, info, low, msg in results:
    if path is None:
        continue
    mod = cp.RawModule(path=path)
    by = {v: k for k, v in low.items()}
    for key, expr in KN.items():
        fns[(name, key)] = mod.get_function(by[expr])
flush = cp.empty(256 << 20, cp.uint8)
reps = int(os.environ.get("REPS", "5"))
dyn = 2 * 3 * 32 * 36 * 4  # split_stages<1> = 3 buffers for each of the two tiles
for spec in os.environ.get("CASES", "Ux1x4096x1,Lx1x4096x1,Ux1x2048x2,Ux1x1024x4,Ux0x1024x4,Ux0x512x16,Ux1x4096x2,Ux1x8192x1").split(","):
    uplo, split, n, count = spec.split("x")
    c = PreCase(cp, int(n), int(count), uplo)
    out = []
    for name in V:
        if (name, (uplo, int(split))) not in fns:
            continue
        f = fns[(name, (uplo, int(split)))]
        blocks = min(2 * sms, c.tiles)
        def launch(grid, block, args, f=f, split=int(split)):
            f(grid, block, args, shared_mem=dyn) if split else f(grid, block, args)
        t = c.timed(launch, blocks, reps, flush)
        info, resid = c.check()
        out.append(f"{name} {t:8.1f} [{info}, {resid:.3f}]")
    print(f"{uplo} {'3xTF32' if int(split) else 'exact'} n{n} b{count}: " + "  ".join(out), flush=True)
