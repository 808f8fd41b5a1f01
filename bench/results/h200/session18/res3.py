# Lab: resources of candidate fixes for chol_tiled's local memory (session 18).
import os, time
import cupy as cp
pre = open("internal/gpu/scalar/scalar.cuh").read()
blk = open("internal/gpu/cholblocked/blocked.cu").read()
def edit(s, old, new):
    assert s.count(old) >= 1, old[:80]
    return s.replace(old, new)
STORE = """                if (defer && tid >= 32) {
                    store_tile<T, TS, NT, UPPER, 32>(am, lda, s_c, (long long)i * TS, (long long)c * TS, nr, TS, hm, lm, ldh);
"""
ROWST = """                if (defer && tid >= 32) {
                    const int lane = tid % 32;
#pragma unroll 1
                    for (int sl = tid / 32 - 1; sl < TS; sl += NT / 32 - 1) {
                        const int r = UPPER ? sl : lane, q = UPPER ? lane : sl;
                        if (r < nr) am[nat<UPPER>((long long)i * TS + r, (long long)c * TS + q, lda)] = UPPER ? conj_(s_c[r][q]) : s_c[r][q];
                    }
"""
ALL = """                if (defer) {
                    store_tile<T, TS, NT, UPPER>(am, lda, s_c, (long long)i * TS, (long long)c * TS, nr, TS, hm, lm, ldh);
                    __syncthreads();
                    if (tid == 32) release(flag(i, c, m));
                }
                if (false) {
                    store_tile<T, TS, NT, UPPER, 32>(am, lda, s_c, (long long)i * TS, (long long)c * TS, nr, TS, hm, lm, ldh);
"""
def tasks_shared(s):
    s = edit(s, "    const T zero = from_real<T>(R(0));\n\n#pragma unroll 1\n    for (;;) {", "    const T zero = from_real<T>(R(0));\n    __shared__ long long s_tasks;\n    if (tid == 0) s_tasks = tasks;\n\n#pragma unroll 1\n    for (;;) {")
    return edit(s, "        if (t >= tasks) return; // uniform", "        if (t >= s_tasks) return; // uniform")
def unroll1(s):
    return edit(s, "#pragma unroll 4\n    for (int e = threadIdx.x - T0; e < TS * TS; e += NT - T0) {\n        const int fast", "#pragma unroll 1\n    for (int e = threadIdx.x - T0; e < TS * TS; e += NT - T0) {\n        const int fast")
V = {}
V["w0"] = tasks_shared(blk)
V["w1"] = unroll1(tasks_shared(blk))
V["w2"] = edit(unroll1(tasks_shared(blk)), STORE, ROWST)
V["w2b"] = edit(tasks_shared(blk), STORE, ROWST)
V["w3"] = edit(blk, STORE, ROWST)
V["w4"] = edit(unroll1(tasks_shared(blk)), STORE, ALL)
V["w9"] = edit(V["w2"], "defer = ROWS && diag && f == 0;", "defer = false;")
kn = [f"chol_tiled<float, 32, 128, {u}, {s}, false>" for u in ("true", "false") for s in ("false", "true")]
for name, code in V.items():
    t0 = time.time()
    m = cp.RawModule(code=pre + code, options=("-std=c++17",), name_expressions=kn)
    fns = {k: m.get_function(k) for k in kn}
    print(f"variant {name}: {time.time()-t0:.1f}s;", "; ".join(f"{k.split('<')[1][:-1]}: {fns[k].num_regs} regs {fns[k].local_size_bytes} B" for k in kn), flush=True)
