# Variants of blocked.cu (session 20's branch code) for chol_tiled:
#   ldsm:      SplitTile::mul reads its fragments with ldmatrix (one LDSM for four LDS) where the tile's pitch allows
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
def edit(s, old, new):
    assert s.count(old) == 1, (s.count(old), old[:80]); return s.replace(old, new)
BLK = open("internal/gpu/cholblocked/blocked.cu").read()
LDSM_FN = '''// ldsm4 loads four 8×8 b16 matrices (ldmatrix .x4): lane l gives the
// address of row l mod 8 of matrix l/8, and gets in r[i] the 32 bits at
// byte 4(l mod 4) of row l/4 of matrix i. For 32-bit data a matrix is 8
// rows of 4 floats, the layout of one register of mma's TF32 fragments.
__device__ __forceinline__ void ldsm4(unsigned (&r)[4], const float* p) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"((unsigned)__cvta_generic_to_shared(p)));
}

// SplitTile is a 32×32 float tile'''
MUL_OLD = '''        for (int u = 0; u < 32; u += 8) {
            const float pa[4] = {p[r0 + g][u + t], p[r0 + g + 8][u + t], p[r0 + g][u + t + 4], p[r0 + g + 8][u + t + 4]};
            unsigned ah[4], al[4];'''
MUL_NEW = '''        for (int u = 0; u < 32; u += 8) {
            float pa[4], qb[4]; // qb: b0, b1 of f = 0, then of f = 1
            if constexpr (LD % 4 == 0) {
                // ldmatrix: P's matrices (rows +0/+8) × (columns +0/+4), Q's (columns +0/+4) × (rows +0/+8).
                const int mi = lane / 8, rr = lane % 8;
                unsigned ra[4], rb[4];
                ldsm4(ra, &p[r0 + rr + 8 * (mi & 1)][u + 4 * (mi >> 1)]);
                ldsm4(rb, &q[c0 + rr + 8 * (mi >> 1)][u + 4 * (mi & 1)]);
#pragma unroll
                for (int e = 0; e < 4; ++e) pa[e] = __uint_as_float(ra[e]), qb[e] = __uint_as_float(rb[e]);
            } else {
                pa[0] = p[r0 + g][u + t], pa[1] = p[r0 + g + 8][u + t], pa[2] = p[r0 + g][u + t + 4], pa[3] = p[r0 + g + 8][u + t + 4];
#pragma unroll
                for (int f = 0; f < 2; ++f) qb[2 * f] = q[c0 + 8 * f + g][u + t], qb[2 * f + 1] = q[c0 + 8 * f + g][u + t + 4];
            }
            unsigned ah[4], al[4];'''
def ldsm(c):
    c = edit(c, "// SplitTile is a 32×32 float tile", LDSM_FN)
    c = edit(c, MUL_OLD, MUL_NEW)
    c = edit(c, "const float b0 = q[c0 + 8 * f + g][u + t], b1 = q[c0 + 8 * f + g][u + t + 4];", "const float b0 = qb[2 * f], b1 = qb[2 * f + 1];")
    return edit(c, "__shared__ float s_p[3][TS][TS + 4], s_q[3][TS][TS + 4];", "__shared__ __align__(16) float s_p[3][TS][TS + 4], s_q[3][TS][TS + 4];")
V = {"base": BLK, "ldsm": ldsm(BLK)}

# ldsm2: ldsm, and the diagonal task's two products of a step (C −= P·Qᵀ, its own tile −= P·Pᵀ) in one call that
# loads and splits P's A fragments once (the LDS form had that from common subexpressions; volatile ldmatrix has not).
MUL2 = '''    template <bool SUB, int LD> __device__ __forceinline__ void mul(const float (*p)[LD], const float (*q)[LD]) {
        mul_impl<SUB, false>(*this, p, q);
    }
    // mul_pair: v −= P·Qᵀ and d's v −= P·Pᵀ (SUB), P's fragments read and split once for both.
    template <bool SUB, int LD> __device__ __forceinline__ void mul_pair(SplitTile& d, const float (*p)[LD], const float (*q)[LD]) {
        mul_impl<SUB, true>(d, p, q);
    }
    // frag_b reads Qᵀ's fragments b0, b1 for f = 0, 1 (rows c0 + 8f + g of q) into qb.
    template <int LD> __device__ __forceinline__ static void frag_b(float (&qb)[4], const float (*q)[LD], int c0, int u) {
        const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
        if constexpr (LD % 4 == 0) {
            const int mi = lane / 8, rr = lane % 8;
            unsigned rb[4];
            ldsm4(rb, &q[c0 + rr + 8 * (mi >> 1)][u + 4 * (mi & 1)]);
#pragma unroll
            for (int e = 0; e < 4; ++e) qb[e] = __uint_as_float(rb[e]);
        } else {
#pragma unroll
            for (int f = 0; f < 2; ++f) qb[2 * f] = q[c0 + 8 * f + g][u + t], qb[2 * f + 1] = q[c0 + 8 * f + g][u + t + 4];
        }
    }
    template <int LD> __device__ __forceinline__ static void frag_a(float (&pa)[4], const float (*p)[LD], int r0, int u) {
        const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
        if constexpr (LD % 4 == 0) {
            const int mi = lane / 8, rr = lane % 8;
            unsigned ra[4];
            ldsm4(ra, &p[r0 + rr + 8 * (mi & 1)][u + 4 * (mi >> 1)]);
#pragma unroll
            for (int e = 0; e < 4; ++e) pa[e] = __uint_as_float(ra[e]);
        } else {
            pa[0] = p[r0 + g][u + t], pa[1] = p[r0 + g + 8][u + t], pa[2] = p[r0 + g][u + t + 4], pa[3] = p[r0 + g + 8][u + t + 4];
        }
    }
    __device__ __forceinline__ static void mma3(float (&acc)[4], float (&low)[4], const unsigned (&ah)[4], const unsigned (&al)[4], float b0, float b1) {
        const unsigned h0 = tf32_bits(b0), h1 = tf32_bits(b1);
        const unsigned l0 = __float_as_uint(b0 - __uint_as_float(h0)), l1 = __float_as_uint(b1 - __uint_as_float(h1));
        mma_tf32(low, al, h0, h1);
        mma_tf32(low, ah, l0, l1);
        mma_tf32(acc, ah, h0, h1);
    }
    template <bool SUB, bool PAIR, int LD> __device__ __forceinline__ void mul_impl(SplitTile& d, const float (*p)[LD], const float (*q)[LD]) {
        const int r0 = 16 * (threadIdx.x / 64), c0 = 16 * ((threadIdx.x / 32) & 1);
        constexpr int NP = PAIR ? 2 : 1;
        float acc[NP][2][4], low[NP][2][4];
#pragma unroll
        for (int f = 0; f < 2; ++f)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                acc[0][f][e] = v[2 * f + e / 2][e % 2], low[0][f][e] = 0.0f;
                if constexpr (PAIR) acc[NP - 1][f][e] = d.v[2 * f + e / 2][e % 2], low[NP - 1][f][e] = 0.0f;
            }
#pragma unroll
        for (int u = 0; u < 32; u += 8) {
            float pa[4], qb[4];
            frag_a(pa, p, r0, u);
            frag_b(qb, q, c0, u);
            unsigned ah[4], al[4];
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const float x = SUB ? -pa[e] : pa[e];
                ah[e] = tf32_bits(x);
                al[e] = __float_as_uint(x - __uint_as_float(ah[e]));
            }
#pragma unroll
            for (int f = 0; f < 2; ++f) mma3(acc[0][f], low[0][f], ah, al, qb[2 * f], qb[2 * f + 1]);
            if constexpr (PAIR) {
                float pb[4];
                frag_b(pb, p, c0, u);
#pragma unroll
                for (int f = 0; f < 2; ++f) mma3(acc[NP - 1][f], low[NP - 1][f], ah, al, pb[2 * f], pb[2 * f + 1]);
            }
        }
#pragma unroll
        for (int f = 0; f < 2; ++f)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                v[2 * f + e / 2][e % 2] = acc[0][f][e] + low[0][f][e];
                if constexpr (PAIR) d.v[2 * f + e / 2][e % 2] = acc[NP - 1][f][e] + low[NP - 1][f][e];
            }
    }
};'''
def ldsm2(c):
    c = edit(c, "// SplitTile is a 32×32 float tile", LDSM_FN)
    c = edit(c, "__shared__ float s_p[3][TS][TS + 4], s_q[3][TS][TS + 4];", "__shared__ __align__(16) float s_p[3][TS][TS + 4], s_q[3][TS][TS + 4];")
    i = c.index("    template <bool SUB, int LD> __device__ __forceinline__ void mul(const float (*p)[LD], const float (*q)[LD]) {\n        const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;\n        const int r0 = 16 * (threadIdx.x / 64)")
    j = c.index("\n};\n", i) + 3
    c = c[:i] + MUL2 + c[j:]
    # Tile (exact) has no mul_pair: the loop calls it for SPLIT only.
    return edit(c, """                    cc.template mul<true>(s_p[b], s_q[b]);
                    if (diag) cd.template mul<true>(s_p[b], s_p[b]); // row j of L is s_p here""",
                """                    if (diag)
                        cc.template mul_pair<true>(cd, s_p[b], s_q[b]); // and cd −= P·Pᵀ: row j of L is s_p here
                    else
                        cc.template mul<true>(s_p[b], s_q[b]);""")
V["ldsm2"] = ldsm2(BLK)

if __name__ == "__main__":
    from res import run
    only = os.environ.get("VARIANTS")
    run({k: v for k, v in V.items() if not only or k in only.split(",")}, sys.argv[1] if len(sys.argv) > 1 else "chol_tiled<float")
