# Lab (GPU machine): chol_tiled's split loop with more cp.async stages in flight. Variant stN keeps N shared
# buffers (N − 1 steps of copies in flight during a step's products, session 19's loop has 3) in dynamic shared
# memory; dyn3 is the landed loop with its buffers moved to dynamic memory (the control). Compiled as the engine
# compiles (session 20's res.py, CUDA 13's NVRTC), launched as PotrfTiled launches (gpu_lab.py's Case): CUDA
# events, L2 evicted, median of $REPS, every result checked ([info, ‖LLᵀ − A‖₁/(‖A‖₁·n·eps)]).
import os, sys, time
sys.path.insert(0, "bench/results/h200/session20")
os.environ.setdefault("NVRTC", "/usr/local/cuda/lib64/libnvrtc.so")
os.environ.setdefault("CUOBJDUMP", "/usr/local/cuda/bin/cuobjdump")
KN = {(u, mb): f"chol_tiled<float, 32, 128, {'true' if u == 'U' else 'false'}, true, false, {mb}>" for u in "LU" for mb in (1, 4)}
names = f"{os.environ.get('CUBINS', '/tmp')}/stages-names.txt"
open(names, "w").write("\n".join(KN.values()) + "\n")
os.environ["NAMES"] = names
import res

def edit(s, old, new):
    assert s.count(old) == 1, (old, s.count(old))
    return s.replace(old, new)

base = open(os.environ.get("BLOCKED", "internal/gpu/cholblocked/blocked.cu")).read()

def stages(n):
    s = base
    s = edit(s, "__shared__ __align__(16) float s_p[3][TS][TS + 4], s_q[3][TS][TS + 4];",
             f"extern __shared__ __align__(16) float lab_dyn[];\n            float (*const s_p)[TS][TS + 4] = reinterpret_cast<float (*)[TS][TS + 4]>(lab_dyn);\n            float (*const s_q)[TS][TS + 4] = s_p + {n};")
    s = edit(s, "copy_tile<TS, NT, UPPER>(s_p[k % 3], rp, next);", f"copy_tile<TS, NT, UPPER>(s_p[k % {n}], rp, next);")
    s = edit(s, "copy_tile<TS, NT, UPPER>(s_q[k % 3], rq, next);", f"copy_tile<TS, NT, UPPER>(s_q[k % {n}], rq, next);")
    s = edit(s, "wait_steps(2);\n                __syncthreads();\n                copy(0);\n                copy(1);\n",
             f"wait_steps({n - 1});\n                __syncthreads();\n#pragma unroll\n                for (int s0 = 0; s0 < {n - 1}; ++s0) copy(s0);\n")
    s = edit(s, "wait_async<1>();\n                    wait_steps(k + 3);", f"wait_async<{n - 2}>();\n                    wait_steps(k + {n});")
    s = edit(s, "copy(k + 2);", f"copy(k + {n - 1});")
    s = edit(s, "const int b = k % 3;", f"const int b = k % {n};")
    return s

ST = [int(x) for x in os.environ.get("STAGES", "3,4,5,6").split(",")]
V = {"base": base}
V.update({f"st{n}": stages(n) for n in ST})
t0 = time.time()
results = res.compile_all(V)
res.report(results)
print(f"compiled in {time.time() - t0:.0f}s", flush=True)
if os.environ.get("COMPILE_ONLY"):
    sys.exit(0)
import numpy as np, cupy as cp
import importlib.util
# gpu_lab.py's Case, without importing gpu_lab (it builds var6.py's variants of session 20's source on import).
_src = open("bench/results/h200/session20/gpu_lab.py").read()
_case = _src[_src.index("def divmagic"):_src.index('if __name__ == "__main__":')]
exec(_case)
sms = cp.cuda.Device().attributes["MultiProcessorCount"]
smem_sm = cp.cuda.Device().attributes["MaxSharedMemoryPerMultiprocessor"]
fns = {}
for name, path, info, low, msg in results:
    if path is None:
        continue
    mod = cp.RawModule(path=path)
    by = {v: k for k, v in low.items()}
    n = 0 if name == "base" else int(name[2:])
    dyn = 2 * n * 32 * 36 * 4
    for key, expr in KN.items():
        f = mod.get_function(by[expr])
        f.max_dynamic_shared_size_bytes = dyn
        fns[(name, key)] = (f, dyn, f.shared_size_bytes)
print("static + dynamic shared bytes:", {f"{k[0]}/{k[1][1]}": (st, dyn) for k, (f, dyn, st) in fns.items() if k[1][0] == "U"}, flush=True)
flush = cp.empty(256 << 20, cp.uint8)
reps = int(os.environ.get("REPS", "3"))
for spec in os.environ.get("CASES", "Ux4096x1,Lx4096x1,Ux2048x8,Ux8192x1,Ux1024x60,Ux512x640,Ux4096x2,Ux2048x2,Ux512x16").split(","):
    uplo, n, count = spec.split("x")
    c = Case(cp, int(n), int(count), uplo)
    out = []
    for mb in (1, 4):
        for name in V:
            if (name, (uplo, mb)) not in fns:
                continue
            f, dyn, st = fns[(name, (uplo, mb))]
            per = (smem_sm // (st + dyn + 1024))
            blocks = min(min(2 if mb == 1 else 4, per) * sms, c.tiles)
            def launch(grid, block, args, f=f, dyn=dyn):
                f(grid, block, args, shared_mem=dyn) if dyn else f(grid, block, args)
            t = c.timed(launch, blocks, reps, flush)
            info, resid = c.check()
            out.append(f"{name}/{mb}:{blocks // sms} {t:8.1f} [{info}, {resid:.3f}]")
    print(f"{uplo} n{n} b{count}: " + "  ".join(out), flush=True)
