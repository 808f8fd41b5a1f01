# Lab (GPU machine; session 56): what one hand-over between two thread blocks costs, through global memory as
# chol_tiled's tasks hand tiles over (a flag stored with release at GPU scope, polled with acquire), against the
# same through distributed shared memory inside a thread-block cluster (sm_90: the flag in the waiting block's
# shared memory, stored by its peer with release at cluster scope), and what a cluster barrier and a block's
# __syncthreads cost. Why: the cholesky-gpumode suite's chains (n512 b16, n1024 b4, n2048 b2, n4096 b1, one block a
# multiprocessor) take 8.3-9.1 µs a tile step whatever n is (session 55's suite: 139.9/16, 265.4/32, 531.9/64,
# 1161/128), and each step has at least two hand-overs on its critical path (the diagonal tile to the column's
# tasks, tile (j+1, j) back to the next diagonal task). If a cluster's hand-over is much cheaper, a kernel that
# keeps a chain's matrix in one cluster's shared memory (n <= 512 float32 fits eight blocks' 1.8 MB) is worth
# designing; if not, it is not.
#
# Each ping-pong runs ITERS round trips between thread 0 of two blocks (2 hand-overs each), timed by CUDA events
# around the launch (launch overhead under 0.1 % at these counts); ns a hand-over = time / (2 * ITERS).
#   python3 bench/results/h200/session56/lab/handoff.py      # on the GPU machine, from the repository root
#   COMPILE_ONLY=1 NVRTC=/tmp/lcuda/usr/lib/x86_64-linux-gnu/libnvrtc.so.12 python3 …/handoff.py   # here
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from nvrtc import compile_only  # noqa: E402

SRC = open(f"{HERE}/cluster.cuh").read() + r"""
__device__ __forceinline__ unsigned ld_acquire_gpu(const unsigned* p) {
    unsigned v; asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v;
}
__device__ __forceinline__ void st_release_gpu(unsigned* p, unsigned v) {
    asm volatile("st.release.gpu.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}

// Two blocks on (most likely) two multiprocessors; flags 128 bytes apart.
extern "C" __global__ void ping_global(unsigned* flags, int iters) {
    if (threadIdx.x != 0) return;
    const int me = blockIdx.x;
    unsigned* const mine = flags + 32 * me;
    unsigned* const theirs = flags + 32 * (1 - me);
    for (int i = 1; i <= iters; ++i) {
        if (me == 0) {
            st_release_gpu(theirs, i);
            while (ld_acquire_gpu(mine) != (unsigned)i) {}
        } else {
            while (ld_acquire_gpu(mine) != (unsigned)i) {}
            st_release_gpu(theirs, i);
        }
    }
}

// The same between the two blocks of a cluster, each flag in its waiter's shared memory.
extern "C" __global__ void __cluster_dims__(2, 1, 1) ping_cluster(int iters) {
    __shared__ unsigned flag;
    const unsigned me = cl_rank();
    if (threadIdx.x == 0) flag = 0;
    cl_sync();
    if (threadIdx.x == 0) {
        unsigned* const theirs = peer(&flag, 1 - me);
        for (int i = 1; i <= iters; ++i) {
            if (me == 0) {
                st_release_cluster(theirs, i);
                while (ld_acquire_cluster(&flag) != (unsigned)i) {}
            } else {
                while (ld_acquire_cluster(&flag) != (unsigned)i) {}
                st_release_cluster(theirs, i);
            }
        }
    }
    cl_sync(); // no block leaves while its peer may still store into its shared memory
}

// ITERS cluster barriers of every thread of a cluster of 2 or 8 blocks of 128 threads.
extern "C" __global__ void __cluster_dims__(2, 1, 1) barrier_cluster2(int iters, unsigned* sink) {
    unsigned x = threadIdx.x;
    for (int i = 0; i < iters; ++i) { cl_sync(); x = x * 3u + 1u; }
    if (x == 0xdeadbeefu) *sink = x;
}
extern "C" __global__ void __cluster_dims__(8, 1, 1) barrier_cluster8(int iters, unsigned* sink) {
    unsigned x = threadIdx.x;
    for (int i = 0; i < iters; ++i) { cl_sync(); x = x * 3u + 1u; }
    if (x == 0xdeadbeefu) *sink = x;
}
// ITERS __syncthreads of one block of 128 threads.
extern "C" __global__ void barrier_block(int iters, unsigned* sink) {
    unsigned x = threadIdx.x;
    for (int i = 0; i < iters; ++i) { __syncthreads(); x = x * 3u + 1u; }
    if (x == 0xdeadbeefu) *sink = x;
}
"""
NAMES = ["ping_global", "ping_cluster", "barrier_cluster2", "barrier_cluster8", "barrier_block"]

if os.environ.get("COMPILE_ONLY"):
    sys.exit(compile_only(SRC, "handoff.cu"))

import cupy as cp
import numpy as np

mod = cp.RawModule(code=SRC, options=("-std=c++17",), backend="nvrtc")  # CuPy names the architecture
fn = {k: mod.get_function(k) for k in NAMES}
ITERS = int(os.environ.get("ITERS", "20000"))
REPS = int(os.environ.get("REPS", "5"))
flags = cp.zeros(64, dtype=cp.uint32)
sink = cp.zeros(1, dtype=cp.uint32)


def timed(launch):
    """Median ms of REPS launches (one warm-up first)."""
    ts = []
    for r in range(REPS + 1):
        flags.fill(0)
        s, e = cp.cuda.Event(), cp.cuda.Event()
        s.record()
        launch()
        e.record()
        e.synchronize()
        if r:
            ts.append(cp.cuda.get_elapsed_time(s, e))
    return float(np.median(ts))


dev = cp.cuda.Device()
print(f"{cp.cuda.runtime.getDeviceProperties(dev.id)['name'].decode()}, ITERS {ITERS}, median of {REPS}")
it = np.int32(ITERS)
rows = [
    ("hand-over through global memory (release/acquire, gpu scope)", 2 * ITERS,
     lambda: fn["ping_global"]((2,), (32,), (flags, it))),
    ("hand-over through a cluster peer's shared memory (release/acquire, cluster scope)", 2 * ITERS,
     lambda: fn["ping_cluster"]((2,), (32,), (it,))),
    ("cluster barrier, 2 blocks of 128", ITERS, lambda: fn["barrier_cluster2"]((2,), (128,), (it, sink))),
    ("cluster barrier, 8 blocks of 128", ITERS, lambda: fn["barrier_cluster8"]((8,), (128,), (it, sink))),
    ("__syncthreads, one block of 128", ITERS, lambda: fn["barrier_block"]((1,), (128,), (it, sink))),
]
for name, count, launch in rows:
    ms = timed(launch)
    print(f"{name}: {ms * 1e6 / count:8.1f} ns each ({ms:.3f} ms for {count})", flush=True)
