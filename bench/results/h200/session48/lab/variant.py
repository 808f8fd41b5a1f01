"""variant: blocked.cu with factor_quarters (quarters.cuh) in chol_tiled's one-block float kernels, made from the
tree's text (chain.py times it; build.sh builds the test binaries from it). As a script it rewrites the file given:

    python3 bench/results/h200/session48/lab/variant.py internal/gpu/cholblocked/blocked.cu [mbar]
"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
quarters = open(f"{here}/quarters.cuh").read()


def sub(src, old, new):
    assert src.count(old) == 1, old[:80]
    return src.replace(old, new)


def with_quarters(src, mbar=False):
    src = sub(src, "// store_inverse writes X from s_x", quarters + "\n// store_inverse writes X from s_x")
    if mbar:
        src = sub(src, "    if (ROWS && tid == 0) s_stored = 0; // the task loop's barriers come before any count_in\n",
                  "    if (ROWS && tid == 0) s_stored = 0; // the task loop's barriers come before any count_in\n"
                  "    if constexpr (ROWS) quarters_init(); // and before any factor_quarters\n")
    old_store = src[src.index("                if (defer && tid >= 32) {"):src.index("                factor_rows<NT, PRE>(s_a, s_b, wj, j + 1 < nt, fail, dfail);")]
    src = src.replace(old_store, "")
    call = "factor_quarters<NT, true, true>" if mbar else "factor_quarters<NT, true>"
    return sub(src, "                factor_rows<NT, PRE>(s_a, s_b, wj, j + 1 < nt, fail, dfail);", r"""                CALL(s_a, s_b, wj, j + 1 < nt, fail, dfail, [&] {
                    // Warp 0 stores tile (j, j − 1) after its step, a row
                    // (Upper) or column a step, and releases its flag.
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


if __name__ == "__main__":
    path = sys.argv[1]
    text = with_quarters(open(path).read(), mbar=len(sys.argv) > 2 and sys.argv[2] == "mbar")
    open(path, "w").write(text)
