# Lab (GPU machine): chol_tiled's split loop with Upper's 16-byte copies (wide) and the four-block kernels' row pairs
# (pairs), against main's blocked.cu. Variants:
#   head   main's blocked.cu ($HEAD_CU);
#   wide   the tree's blocked.cu ($TREE_CU) without row pairs (PAIRS false, four stages of two rows, as main);
#   pairs  the tree's blocked.cu: wide copies and row pairs (three stages of three rows in the four-block kernels).
# Each is compiled as the engine compiles it (session 20's res.py, CUDA 13's NVRTC; registers and stack frames printed
# for every float chol_tiled kernel) and launched as PotrfTiled launches chol_tiled (session 20's Case; CUDA events
# around the launch alone, L2 evicted, variants interleaved within each repetition, median of $REPS). Every result is
# checked (info, ‖LLᵀ − A‖₁ / (‖A‖₁·n·eps)) and its bits compared with head's ("=" the same, "≠" not).
# $CASES: uplo x split x n x count x blocks-a-multiprocessor (1 or 4).
import os, re, sys, time
sys.path.insert(0, "bench/results/h200/session20")
os.environ.setdefault("NVRTC", "/usr/local/cuda/lib64/libnvrtc.so")
os.environ.setdefault("CUOBJDUMP", "/usr/local/cuda/bin/cuobjdump")
b = lambda v: "true" if v else "false"
KN = {(u, s, mb): f"chol_tiled<float, 32, 128, {b(u == 'U')}, {b(s)}, false, {mb}>" for u in "LU" for s in (0, 1) for mb in (1, 4)}
ALL = list(KN.values()) + [f"chol_tiled<float, 32, 128, {b(u)}, {b(s)}, true, 1>" for u in (0, 1) for s in (0, 1)]
names = f"{os.environ.get('CUBINS', '/tmp')}/pairs-names.txt"
open(names, "w").write("\n".join(ALL) + "\n")
os.environ["NAMES"] = names
import res

def sub(src, old, new):
    assert src.count(old) == 1, old
    return src.replace(old, new)

tree = open(os.environ["TREE_CU"]).read()
wide = sub(tree, "constexpr bool PAIRS = SPLIT && !PANEL && MIN_BLOCKS == 4;", "constexpr bool PAIRS = false;")
wide = sub(wide, "static constexpr int value = MIN_BLOCKS == 4 ? 3 : 3;", "static constexpr int value = MIN_BLOCKS == 4 ? 4 : 3;")
wide = sub(wide, "static constexpr int value = MIN_BLOCKS == 4 ? 3 : 2;", "static constexpr int value = MIN_BLOCKS == 4 ? 2 : 2;")
V = {"head": open(os.environ["HEAD_CU"]).read(), "wide": wide, "pairs": tree}
os.environ.setdefault("JOBS", str(len(V)))
t0 = time.time()
results = res.compile_all(V)
res.report(results)
print(f"compiled in {time.time() - t0:.0f}s", flush=True)

def dyn_bytes(src, mb):
    st = re.search(r"struct split_stages \{\s*static constexpr int value = MIN_BLOCKS == 4 \? (\d+) : (\d+);", src)
    ro = re.search(r"struct split_rows \{\s*static constexpr int value = MIN_BLOCKS == 4 \? (\d+) : (\d+);", src)
    stages = int(st.group(1) if mb == 4 else st.group(2))
    rows = int(ro.group(1) if mb == 4 else ro.group(2)) if ro else 2
    return rows * stages * 32 * 36 * 4

import numpy as np, cupy as cp
_src = open("bench/results/h200/session20/gpu_lab.py").read()
exec(_src[_src.index("def divmagic"):_src.index('if __name__ == "__main__":')])

class PreCase(Case):  # room for the prefix tasks of the one-block split kernels (session 31)
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
        if key[1]:
            fns[(name, key)].max_dynamic_shared_size_bytes = dyn_bytes(V[name], key[2])
arms = [name for name, path, *_ in results if path is not None]
flush = cp.empty(256 << 20, cp.uint8)
reps = int(os.environ.get("REPS", "7"))
for spec in os.environ.get("CASES", "Ux1x8192x1x4").split(","):
    uplo, split, n, count, mb = spec.split("x")
    split, mb = int(split), int(mb)
    c = PreCase(cp, int(n), int(count), uplo)
    blocks = min((2 if mb == 1 else 4) * sms, c.tiles)
    ts = {a: [] for a in arms}
    res_, bits = {}, {}
    for r in range(reps + 1):
        for a in arms:
            f = fns[(a, (uplo, split, mb))]
            flush.fill(r)
            c.a[...] = c.A0
            c.tickets.fill(0)
            c.info.fill(0)
            e0, e1 = cp.cuda.Event(), cp.cuda.Event()
            e0.record()
            f((blocks,), (128,), c.args(), shared_mem=dyn_bytes(V[a], mb) if split else 0)
            e1.record(); e1.synchronize()
            if r > 0:
                ts[a].append(cp.cuda.get_elapsed_time(e0, e1) * 1000)
            if r == reps:
                res_[a] = c.check()
                bits[a] = c.a.copy()
    out = []
    for a in arms:
        same = "=" if bool((bits[a].view(cp.uint32) == bits["head"].view(cp.uint32)).all()) else "≠"
        out.append(f"{a} {float(np.median(ts[a])):8.1f} [{res_[a][0]}, {res_[a][1]:.4f}] {same}")
    print(f"{uplo} {'3xTF32' if split else 'exact'} n{n} b{count} mb{mb}: " + "  ".join(out), flush=True)
