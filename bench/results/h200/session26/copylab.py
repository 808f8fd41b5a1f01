# Session 26 lab: does the Upper in-place access pattern of potrf_warp (lane i moves columns i and i+32 of U as
# 16-byte vectors) cost more than Lower's (lane i moves rows i and i+32 of L, one element per column, coalesced
# across lanes)? Copy kernels with potrf_warp's shapes (n = 64, two warps a block, registers only, no arithmetic),
# each moving one triangle of every matrix (read once, written once), against cudaMemcpy of the whole matrices;
# CuPy events, L2 evicted before each run. copy_upper_tile4's 16-byte moves also touch the other triangle's
# elements in the vector that straddles the diagonal, which a shipped kernel must not write.
import cupy as cp, numpy as np, sys
src = r'''
extern "C" __global__ void copy_lower(const float* __restrict__ a, float* __restrict__ o, long long lda, long long stride, int count) {
  const int lane = threadIdx.x % 32; const long long m = (long long)blockIdx.x * 2 + threadIdx.x / 32;
  if (m >= count) return;
  const float* p = a + m * stride; float* q = o + m * stride;
  float ra[32], rb[64];
  #pragma unroll
  for (int c = 0; c < 32; ++c) ra[c] = c <= lane ? p[lane + c * lda] : 0.f;
  #pragma unroll
  for (int c = 0; c < 64; ++c) rb[c] = c <= lane + 32 ? p[lane + 32 + c * lda] : 0.f;
  #pragma unroll
  for (int c = 0; c < 32; ++c) if (c <= lane) q[lane + c * lda] = ra[c];
  #pragma unroll
  for (int c = 0; c < 64; ++c) if (c <= lane + 32) q[lane + 32 + c * lda] = rb[c];
}
// lane i: column i and i + 32 of U (rows 0..i), 16-byte vectors where wholly inside, else elements.
extern "C" __global__ void copy_upper_vec(const float* __restrict__ a, float* __restrict__ o, long long lda, long long stride, int count) {
  const int lane = threadIdx.x % 32; const long long m = (long long)blockIdx.x * 2 + threadIdx.x / 32;
  if (m >= count) return;
  const float* pa = a + m * stride + (long long)lane * lda; const float* pb = a + m * stride + (long long)(lane + 32) * lda;
  float* qa = o + m * stride + (long long)lane * lda; float* qb = o + m * stride + (long long)(lane + 32) * lda;
  float4 ra[8], rb[16];
  #pragma unroll
  for (int v = 0; v < 8; ++v) { float4 x = make_float4(0,0,0,0); if (4*v + 3 <= lane) x = *(const float4*)(pa + 4*v); else { if (4*v <= lane) x.x = pa[4*v]; if (4*v+1 <= lane) x.y = pa[4*v+1]; if (4*v+2 <= lane) x.z = pa[4*v+2]; } ra[v] = x; }
  #pragma unroll
  for (int v = 0; v < 16; ++v) { const int r = lane + 32; float4 x = make_float4(0,0,0,0); if (4*v + 3 <= r) x = *(const float4*)(pb + 4*v); else { if (4*v <= r) x.x = pb[4*v]; if (4*v+1 <= r) x.y = pb[4*v+1]; if (4*v+2 <= r) x.z = pb[4*v+2]; } rb[v] = x; }
  #pragma unroll
  for (int v = 0; v < 8; ++v) { float4 x = ra[v]; if (4*v + 3 <= lane) *(float4*)(qa + 4*v) = x; else { if (4*v <= lane) qa[4*v] = x.x; if (4*v+1 <= lane) qa[4*v+1] = x.y; if (4*v+2 <= lane) qa[4*v+2] = x.z; } }
  #pragma unroll
  for (int v = 0; v < 16; ++v) { const int r = lane + 32; float4 x = rb[v]; if (4*v + 3 <= r) *(float4*)(qb + 4*v) = x; else { if (4*v <= r) qb[4*v] = x.x; if (4*v+1 <= r) qb[4*v+1] = x.y; if (4*v+2 <= r) qb[4*v+2] = x.z; } }
}
// lane i: rows i and i + 32 of U (columns c >= row), coalesced across lanes: the column orientation's pattern.
extern "C" __global__ void copy_upper_rows(const float* __restrict__ a, float* __restrict__ o, long long lda, long long stride, int count) {
  const int lane = threadIdx.x % 32; const long long m = (long long)blockIdx.x * 2 + threadIdx.x / 32;
  if (m >= count) return;
  const float* p = a + m * stride; float* q = o + m * stride;
  float ra[64], rb[32];
  #pragma unroll
  for (int c = 0; c < 64; ++c) ra[c] = c >= lane ? p[lane + c * lda] : 0.f;
  #pragma unroll
  for (int c = 32; c < 64; ++c) rb[c - 32] = c >= lane + 32 ? p[lane + 32 + c * lda] : 0.f;
  #pragma unroll
  for (int c = 0; c < 64; ++c) if (c >= lane) q[lane + c * lda] = ra[c];
  #pragma unroll
  for (int c = 32; c < 64; ++c) if (c >= lane + 32) q[lane + 32 + c * lda] = rb[c - 32];
}
// lane i ends with column i and i + 32 of U in registers, as copy_upper_vec, but through a shared tile: the warp
// reads U's columns coalesced (scalar: 32 lanes a column half), then each lane reads its columns from the tile.
extern "C" __global__ void copy_upper_tile(const float* __restrict__ a, float* __restrict__ o, long long lda, long long stride, int count) {
  extern __shared__ float sh[];
  const int lane = threadIdx.x % 32; const long long m = (long long)blockIdx.x * 2 + threadIdx.x / 32;
  if (m >= count) return;
  float* t = sh + (threadIdx.x / 32) * 64 * 65;
  const float* p = a + m * stride; float* q = o + m * stride;
  #pragma unroll
  for (int c = 0; c < 64; ++c) { if (lane <= c) t[c * 65 + lane] = p[lane + c * lda]; if (lane + 32 <= c) t[c * 65 + lane + 32] = p[lane + 32 + c * lda]; }
  __syncwarp();
  float ra[32], rb[64];
  #pragma unroll
  for (int r = 0; r < 32; ++r) ra[r] = r <= lane ? t[lane * 65 + r] : 0.f;
  #pragma unroll
  for (int r = 0; r < 64; ++r) rb[r] = r <= lane + 32 ? t[(lane + 32) * 65 + r] : 0.f;
  __syncwarp();
  #pragma unroll
  for (int r = 0; r < 32; ++r) if (r <= lane) t[lane * 65 + r] = -ra[r];
  #pragma unroll
  for (int r = 0; r < 64; ++r) if (r <= lane + 32) t[(lane + 32) * 65 + r] = -rb[r];
  __syncwarp();
  #pragma unroll
  for (int c = 0; c < 64; ++c) { if (lane <= c) q[lane + c * lda] = -t[c * 65 + lane]; if (lane + 32 <= c) q[lane + 32 + c * lda] = -t[c * 65 + lane + 32]; }
}
// the same with 16-byte global accesses: 16 lanes a column (two columns an instruction), the tile's rows 68 apart.
extern "C" __global__ void copy_upper_tile4(const float* __restrict__ a, float* __restrict__ o, long long lda, long long stride, int count) {
  extern __shared__ float sh[];
  const int lane = threadIdx.x % 32; const long long m = (long long)blockIdx.x * 2 + threadIdx.x / 32;
  if (m >= count) return;
  float* t = sh + (threadIdx.x / 32) * 64 * 68;
  const float* p = a + m * stride; float* q = o + m * stride;
  const int h = lane / 16, r4 = 4 * (lane % 16);
  #pragma unroll
  for (int c2 = 0; c2 < 64; c2 += 2) { const int c = c2 + h; if (r4 <= c) { float4 x = *(const float4*)(p + r4 + c * lda); *(float4*)(t + c * 68 + r4) = x; } }
  __syncwarp();
  float ra[32], rb[64];
  #pragma unroll
  for (int r = 0; r < 32; ++r) ra[r] = r <= lane ? t[lane * 68 + r] : 0.f;
  #pragma unroll
  for (int r = 0; r < 64; ++r) rb[r] = r <= lane + 32 ? t[(lane + 32) * 68 + r] : 0.f;
  __syncwarp();
  #pragma unroll
  for (int r = 0; r < 32; ++r) if (r <= lane) t[lane * 68 + r] = -ra[r];
  #pragma unroll
  for (int r = 0; r < 64; ++r) if (r <= lane + 32) t[(lane + 32) * 68 + r] = -rb[r];
  __syncwarp();
  #pragma unroll
  for (int c2 = 0; c2 < 64; c2 += 2) { const int c = c2 + h; if (r4 <= c) { float4 x = *(const float4*)(t + c * 68 + r4); x.x = -x.x; x.y = -x.y; x.z = -x.z; x.w = -x.w; *(float4*)(q + r4 + c * lda) = x; } }
}

'''
mod = cp.RawModule(code=src, options=("-std=c++17",))
names = ["copy_lower", "copy_upper_vec", "copy_upper_rows", "copy_upper_tile", "copy_upper_tile4"]
shm = {"copy_upper_tile": 2 * 64 * 65 * 4, "copy_upper_tile4": 2 * 64 * 68 * 4}
for k in names:
    f = mod.get_function(k)
    if k in shm: f.max_dynamic_shared_size_bytes = shm[k]
    print(k, "registers", f.num_regs, "local", f.local_size_bytes, flush=True)
n = 64
flush = cp.empty(256 << 20, dtype=cp.uint8)
def timeit(fn, reps=15):
    ts = []
    for _ in range(reps):
        flush.fill(1); s, e = cp.cuda.Event(), cp.cuda.Event(); s.record(); fn(); e.record(); e.synchronize(); ts.append(cp.cuda.get_elapsed_time(s, e) * 1e3)
    return float(np.median(ts))
for count, calls in [(65536, 1), (1024, 16)]:
    ins = [cp.random.rand(count * n * n, dtype=cp.float32) for _ in range(calls)]
    outs = [cp.zeros_like(x) for x in ins]
    grid = ((count + 1) // 2,)
    res = {}
    for k in names:
        f = mod.get_function(k)
        def run(f=f):
            for x, y in zip(ins, outs): f(grid, (64,), (x, y, np.int64(n), np.int64(n * n), np.int32(count)), shared_mem=shm.get(k, 0))
        run(); cp.cuda.runtime.deviceSynchronize()
        # check: each copies exactly its triangle
        A = ins[0].reshape(count, n, n)[:4].get(); O = outs[0].reshape(count, n, n)[:4].get()  # [m][c][r] column-major
        tri = np.tril(np.ones((n, n), bool)) if k == "copy_lower" else np.triu(np.ones((n, n), bool))
        ok = all(np.array_equal(O[b].T[tri], A[b].T[tri]) for b in range(4))
        res[k] = (timeit(run), ok)
    def cpy():
        for x, y in zip(ins, outs): cp.cuda.runtime.memcpyAsync(y.data.ptr, x.data.ptr, x.nbytes, 3, 0)
    tc = timeit(cpy)
    print(f"n=64 count={count} x {calls} calls: memcpy {tc:.1f} µs; " + "; ".join(f"{k} {t:.1f} µs ({'ok' if ok else 'WRONG'})" for k, (t, ok) in res.items()), flush=True)
