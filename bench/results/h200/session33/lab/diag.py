# Lab (GPU machine): where the split loop of chol_tiled's four-block kernels spends its time at n = 8192, one matrix.
# Diagnostic variants of the head blocked.cu ($HEAD_CU), made here by text substitution, none of them correct:
#   nosplit  the tensor cores read P and Q unsplit (ah = al = P's bits): the three mma of a product, no split arithmetic;
#   onemma   nosplit with one mma a product (Ph·Qhᵀ only);
#   noload   the split loop starts no tile copies (its products read stale buffers);
#   bare     noload and onemma together.
# And two that are (call 2):
#   vec16    Upper's tile copies 16 bytes a cp.async (4 floats of a row) instead of 4: two a thread and tile instead
#            of eight (the lab's matrices are 16-byte aligned; the engine would need lda, the stride and the pointer so);
#   trunc    the split without rounding: the tensor cores read P's bits as Ph (they truncate to TF32) and Pl = P − Ph
#            is two instructions instead of three (an error up to about 2.4 times the rounded split's);
#   vec16trunc both.
# Each is compiled as the engine compiles it (session 20's res.py, CUDA 13's NVRTC) and launched as PotrfTiled launches
# chol_tiled (session 20's Case; CUDA events around the launch alone, L2 evicted, variants interleaved within each
# repetition, median of $REPS). $CASES: uplo x split x n x count x blocks-a-multiprocessor (1 or 4).
import os, sys, time
sys.path.insert(0, "bench/results/h200/session20")
os.environ.setdefault("NVRTC", "/usr/local/cuda/lib64/libnvrtc.so")
os.environ.setdefault("CUOBJDUMP", "/usr/local/cuda/bin/cuobjdump")
b = lambda v: "true" if v else "false"
KN = {(u, s, mb): f"chol_tiled<float, 32, 128, {b(u == 'U')}, {b(s)}, false, {mb}>" for u in "LU" for s in (0, 1) for mb in (1, 4)}
names = f"{os.environ.get('CUBINS', '/tmp')}/diag-names.txt"
open(names, "w").write("\n".join(KN.values()) + "\n")
os.environ["NAMES"] = names
import res

head = open(os.environ["HEAD_CU"]).read()

def sub(src, old, new):
    assert src.count(old) == 1, old
    return src.replace(old, new)

SPLIT_A = """                const float x = SUB ? -pa[e] : pa[e];
                ah[e] = tf32_bits(x);
                al[e] = __float_as_uint(x - __uint_as_float(ah[e]));"""
NOSPLIT_A = "                ah[e] = al[e] = __float_as_uint(SUB ? -pa[e] : pa[e]);"
SPLIT_B = """        const unsigned h0 = tf32_bits(b0), h1 = tf32_bits(b1);
        const unsigned l0 = __float_as_uint(b0 - __uint_as_float(h0)), l1 = __float_as_uint(b1 - __uint_as_float(h1));"""
NOSPLIT_B = """        const unsigned h0 = __float_as_uint(b0), h1 = __float_as_uint(b1);
        const unsigned l0 = h0, l1 = h1;"""
MMA3 = """        mma_tf32(low, al, h0, h1);
        mma_tf32(low, ah, l0, l1);
        mma_tf32(acc, ah, h0, h1);"""
COPY = """                        copy_tile<TS, NT, UPPER>(s_p[k % S], rp, next);
                        copy_tile<TS, NT, UPPER>(s_q[k % S], rq, next);"""

ROW = """        const int r = UPPER ? w : lane % 8 + 8 * w;
        rows = nr - r;
        p = a + nat<UPPER>(r0 + r, UPPER ? lane : lane / 8, lda);"""
ROW16 = """        const int r = UPPER ? threadIdx.x / 8 : lane % 8 + 8 * w;
        rows = nr - r;
        p = a + nat<UPPER>(r0 + r, UPPER ? 4 * (threadIdx.x % 8) : lane / 8, lda);"""
CT = """    const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
    float* const d = UPPER ? &s[w][lane] : &s[lane % 8 + 8 * w][lane / 8];"""
CT16 = """    if constexpr (UPPER) {
        float* const d = &s[threadIdx.x / 8][4 * (threadIdx.x % 8)];
        const float* q = t.p;
#pragma unroll
        for (int e = 0; e < TS * TS / (4 * NT); ++e) {
            cp_async16(d + NT / 8 * e * (TS + 4), q, NT / 8 * e < t.rows);
            q += next;
        }
        t.p += TS;
        return;
    }
""" + CT
CP16 = """__device__ __forceinline__ void cp_async16(float* dst, const float* src, bool in) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"((unsigned)__cvta_generic_to_shared(dst)), "l"(src),
                 "r"(in ? 16 : 0) : "memory");
}
__device__ __forceinline__ void commit_async()"""
NEXT = "const long long next = NT / 32 * lda;"
NEXT16 = "const long long next = (UPPER ? NT / 8 : NT / 32) * lda;"
TRUNC_A = """                const float x = SUB ? -pa[e] : pa[e];
                ah[e] = __float_as_uint(x);
                al[e] = __float_as_uint(x - __uint_as_float(ah[e] & 0xffffe000u));"""
TRUNC_B = """        const unsigned h0 = __float_as_uint(b0), h1 = __float_as_uint(b1);
        const unsigned l0 = __float_as_uint(b0 - __uint_as_float(h0 & 0xffffe000u)),
                       l1 = __float_as_uint(b1 - __uint_as_float(h1 & 0xffffe000u));"""

def vec16(s):
    s = sub(sub(s, ROW, ROW16), CT, CT16)
    return sub(sub(s, "__device__ __forceinline__ void commit_async()", CP16), NEXT, NEXT16)
def trunc(s):
    return sub(sub(s, SPLIT_A, TRUNC_A), SPLIT_B, TRUNC_B)

def nosplit(s):
    return sub(sub(s, SPLIT_A, NOSPLIT_A), SPLIT_B, NOSPLIT_B)
def onemma(s):
    return sub(nosplit(s), MMA3, "        mma_tf32(acc, ah, h0, h1);")
def noload(s):
    return sub(s, COPY, "                        (void)rp, (void)rq, (void)next;")

V = {"head": head, "nosplit": nosplit(head), "onemma": onemma(head), "noload": noload(head), "bare": noload(onemma(head)),
     "vec16": vec16(head), "trunc": trunc(head), "vec16trunc": vec16(trunc(head))}
only = os.environ.get("VARIANTS")
if only:
    V = {k: v for k, v in V.items() if k == "head" or k in only.split(",")}
os.environ.setdefault("JOBS", str(len(V)))
t0 = time.time()
results = res.compile_all(V)
res.report(results)
print(f"compiled in {time.time() - t0:.0f}s", flush=True)

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
            fns[(name, key)].max_dynamic_shared_size_bytes = 2 * (4 if key[2] == 4 else 3) * 32 * 36 * 4
arms = [name for name, path, *_ in results if path is not None]
flush = cp.empty(256 << 20, cp.uint8)
reps = int(os.environ.get("REPS", "5"))
for spec in os.environ.get("CASES", "Ux1x8192x1x4,Ux1x8192x1x1,Ux1x2048x8x4,Ux1x512x640x4").split(","):
    uplo, split, n, count, mb = spec.split("x")
    split, mb = int(split), int(mb)
    c = PreCase(cp, int(n), int(count), uplo)
    blocks = min((2 if mb == 1 else 4) * sms, c.tiles)
    dyn = 2 * (4 if mb == 4 else 3) * 32 * 36 * 4 if split else 0
    ts = {a: [] for a in arms}
    res_ = {}
    for r in range(reps + 1):
        for a in arms:
            f = fns[(a, (uplo, split, mb))]
            flush.fill(r)
            c.a[...] = c.A0
            c.tickets.fill(0)
            c.info.fill(0)
            e0, e1 = cp.cuda.Event(), cp.cuda.Event()
            e0.record()
            f((blocks,), (128,), c.args(), shared_mem=dyn)
            e1.record(); e1.synchronize()
            if r > 0:
                ts[a].append(cp.cuda.get_elapsed_time(e0, e1) * 1000)
            if r == reps:
                res_[a] = c.check()
    out = "  ".join(f"{a} {float(np.median(ts[a])):8.1f} [{res_[a][0]}, {res_[a][1]:.4f}]" for a in arms)
    print(f"{uplo} {'3xTF32' if split else 'exact'} n{n} b{count} mb{mb}: {out}", flush=True)
