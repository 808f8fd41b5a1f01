# Compile check of the chain branch's float kernels (registers, local memory, stack frames) with the NVRTC at
# $NVRTC, for variants of chain_task's fetches; writes each variant's SASS of the chain kernels to $SASS when set.
import os, sys, subprocess
sys.path.insert(0, "bench/results/h200/session20")
import res
src = open("internal/gpu/cholblocked/blocked.cu").read()
def edit(s, old, new):
    assert s.count(old) >= 1, old[:80]
    return s.replace(old, new)
V = {"cur": src}
V["unroll4"] = edit(src, "#pragma unroll 1 // unrolled, chol_tiled's chain kernels spilled 8–32 B (NVRTC 12.4)", "#pragma unroll 4")
ASYNC = """
template <int TS, bool UPPER>
__device__ __forceinline__ void fetch_tile_async(float (*s)[TS + 4], const float* a, long long lda, long long r0, long long c0, int nr,
                                                 int nc, bool lower, int first, int nthr) {
#pragma unroll 1
    for (int e = threadIdx.x - first; e < TS * TS; e += nthr) {
        const int fast = e % TS, slow = e / TS;
        const int r = UPPER ? slow : fast;
        const int c = UPPER ? fast : slow;
        const bool in = r < nr && c < nc && (!lower || c <= r);
        cp_async4(&s[r][c], a + (in ? nat<UPPER>(r0 + r, c0 + c, lda) : 0), in);
    }
}

// chain_task factors"""
a = edit(src, "\n// chain_task factors", ASYNC)
a = edit(a, """#pragma unroll 1
                    for (int e = tid - 32; e < TS * TS; e += NT - 32) {
                        s_pc[e / TS][e % TS] = ld_cg(pp + e);
                        s_pd[e / TS][e % TS] = ld_cg(pp + TS * TS + e);
                    }""", """#pragma unroll 1
                    for (int e = tid - 32; e < TS * TS; e += NT - 32) {
                        cp_async4(&s_pc[e / TS][e % TS], pp + e, true);
                        cp_async4(&s_pd[e / TS][e % TS], pp + TS * TS + e, true);
                    }""")
a = "\n".join(l.replace("fetch_tile<T, TS, UPPER, TS + 4>(", "fetch_tile_async<TS, UPPER>(") if "32, NT - 32)" in l else l for l in a.split("\n"))
a = edit(a, """                if (u >= 2)
                    fetch_tile_async<TS, UPPER>(s_l2, g_.am, g_.lda, (long long)u * TS, (long long)(u - 2) * TS, wu, TS, false, 32, NT - 32);
            }""", """                if (u >= 2)
                    fetch_tile_async<TS, UPPER>(s_l2, g_.am, g_.lda, (long long)u * TS, (long long)(u - 2) * TS, wu, TS, false, 32, NT - 32);
                commit_async();
                wait_async<0>(); // the factor's last barrier then makes them visible
            }""")
V["async"] = a
only = os.environ.get("V")
if only: V = {k: v for k, v in V.items() if k in only.split(",")}
results = res.run(V, "chol_tiled<float")
if os.environ.get("SASS"):
    for name, path, info, low, msg in results:
        if path:
            out = subprocess.run([os.environ.get("CUOBJDUMP", "cuobjdump"), "-sass", path], capture_output=True, text=True).stdout
            open(f"{os.environ['SASS']}/sass-{name}.txt", "w").write(out)
