"""variant: blocked.cu with factor_quarters (quarters.cuh) in chol_tiled's one-block float kernels, made from the
tree's text (chain.py times it; build.sh builds the test binaries from it). Forms: named (named barriers), mbar
(mbarriers), full (a __syncthreads after each step), mbar4 (mbar, and the float split kernels for four blocks a multiprocessor take factor_quarters too, in
place of factor_subblocks; tile (j, j − 1) is stored before the factor there, as before; the exact ones spilled 32–40 B
with it under NVRTC 12.4 and keep factor_subblocks). As a script it rewrites the file:

    python3 bench/results/h200/session48/lab/variant.py internal/gpu/cholblocked/blocked.cu named|mbar|mbar4|full
"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
quarters = open(f"{here}/quarters.cuh").read()


def sub(src, old, new):
    assert src.count(old) == 1, old[:80]
    return src.replace(old, new)


def with_quarters(src, mbar=False, four=False, full=False):
    assert mbar or not four, "the four-block form is built with mbarriers only"
    assert not (mbar and full)
    src = sub(src, "// store_inverse writes X from s_x", quarters + "\n// store_inverse writes X from s_x")
    if mbar:
        src = sub(src, "    if (ROWS && tid == 0) s_stored = 0; // the task loop's barriers come before any count_in\n",
                  "    if (ROWS && tid == 0) s_stored = 0; // the task loop's barriers come before any count_in\n"
                  f"    if constexpr ({'ROWS || (sizeof(T) == 4 && SPLIT)' if four else 'ROWS'}) quarters_init(); // and before any factor_quarters\n")
    if four:
        src = sub(src, "                factor_subblocks<T, TS, NT>(s_a, s_b, wj, j + 1 < nt, fail, dfail);\n",
                  "                if constexpr (sizeof(T) == 4 && SPLIT) factor_quarters<NT, true, kMbar>(s_a, s_b, wj, j + 1 < nt, fail, dfail, [] {});\n"
                  "                else factor_subblocks<T, TS, NT>(s_a, s_b, wj, j + 1 < nt, fail, dfail);\n")
    old_store = src[src.index("                if (defer && tid >= 32) {"):src.index("                factor_rows<NT, PRE>(s_a, s_b, wj, j + 1 < nt, fail, dfail);")]
    src = src.replace(old_store, "")
    call = "factor_quarters<NT, true, kMbar>" if mbar else "factor_quarters<NT, true, kFull>" if full else "factor_quarters<NT, true>"
    return sub(src, "                factor_rows<NT, PRE>(s_a, s_b, wj, j + 1 < nt, fail, dfail);", r"""                CALL(s_a, s_b, wj, j + 1 < nt, fail, dfail, [&] {
                    // One warp stores tile (j, j − 1), a row (Upper) or column
                    // a step, and releases its flag: warp 0 after its step
                    // (warp 3 at the start with full barriers).
                    if (defer) {
                        const int lane = tid % 32;
#pragma unroll 1
                        for (int sl = 0; sl < TS; ++sl) {
                            const int r = UPPER ? sl : lane, q = UPPER ? lane : sl;
                            if (r < nr) am[nat<UPPER>((long long)i * TS + r, (long long)c * TS + q, lda)] = UPPER ? conj_(s_c[r][q]) : s_c[r][q];
                            if (hm != nullptr && sl < nr)
                                split_store(hm, lm, nat<true>((long long)i * TS + sl, (long long)c * TS + lane, ldh), s_c[sl][lane]);
                        }
                        __syncwarp(); // the warp's stores before its lane 0 releases them
                        if (lane == 0) release(flag(i, c, m));
                    }
                });""".replace("CALL", call))


FORMS = {"named": {}, "mbar": {"mbar": True}, "mbar4": {"mbar": True, "four": True}, "full": {"full": True}}

if __name__ == "__main__":
    path, form = sys.argv[1], sys.argv[2]
    text = with_quarters(open(path).read(), **FORMS[form])
    open(path, "w").write(text)
