// cluster.cuh (lab, session 56): what handoff.py's kernels and cluster.cu share about thread-block clusters
// (sm_90), put before their sources by the scripts. Generic addresses throughout: mapa maps one to its counterpart
// in another block's shared memory, and ordinary loads and stores reach it there.
__device__ __forceinline__ unsigned cl_rank() {
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}
// cl_sync: every thread of every block of the cluster; what each wrote before it is seen by all after it.
__device__ __forceinline__ void cl_sync() {
    asm volatile("barrier.cluster.arrive.release.aligned;\n barrier.cluster.wait.acquire.aligned;" ::: "memory");
}
// peer: the generic address of p's counterpart in block rank of the cluster.
template <typename P> __device__ __forceinline__ P* peer(P* p, unsigned rank) {
    unsigned long long r;
    asm volatile("mapa.u64 %0, %1, %2;" : "=l"(r) : "l"(p), "r"(rank));
    return reinterpret_cast<P*>(r);
}
__device__ __forceinline__ unsigned ld_acquire_cluster(const unsigned* p) {
    unsigned v;
    asm volatile("ld.acquire.cluster.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ void st_release_cluster(unsigned* p, unsigned v) {
    asm volatile("st.release.cluster.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
