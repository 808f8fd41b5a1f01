"""walking: the edits of chol_tiled (blocked.cu) that lab/walk.py and lab/walk3.py share, for a block that goes on
down a matrix's diagonal instead of taking a ticket (the "walker", session 58, calls 7–13: measured and dropped).

continued(s, flag_shared, cont_line) makes the task loop take no ticket while s_cont_j is set and run diagonal task
s_cont_j of matrix s_cont_m instead: no own loop (k0 = c), no wait for the previous diagonal flag and no reads of X
(the block's s_b has it), info s_cont_f. The caller adds where the step's sums come from, who posts them, and when
s_cont_j is set. split(s, sums) wraps chol_tiled's sums (the prefix task's or the tiles') in `if (cont_j > 0) {sums}
else {…}`.
"""
import tiledlab as tl

edit = tl.edit


def continued(s, flag_shared, cont_line):
    s = edit(s, "    __shared__ int s_ticket;\n",
             f"    __shared__ int s_ticket;\n    __shared__ int s_cont_j, s_cont_m, s_cont_f, {flag_shared};\n")
    s = edit(s, "        if (tid == 0) s_ticket = atomicAdd(tickets, 1);\n        __syncthreads();\n"
                "        const int t = s_ticket; // an int32 counter: PotrfTiled and the panels keep tasks plus the grid below 2³¹\n"
                "        if (t >= s_tasks) return; // uniform (s_tasks is set before the first barrier)\n",
             "        if (tid == 0 && s_cont_j == 0) s_ticket = atomicAdd(tickets, 1);\n        __syncthreads();\n"
             + cont_line +
             "        const int t = s_ticket;\n"
             "        if (cont_j == 0 && t >= s_tasks) return;\n")
    s = edit(s, "        const int m = t - pos * count;\n", "        int m = t - pos * count;\n")
    s = edit(s, "            pos -= size;\n            ++g;\n        }\n",
             "            pos -= size;\n            ++g;\n        }\n        if (cont_j > 0) g = cont_j, pos = 0, m = s_cont_m;\n")
    s = edit(s, "        const int k0 = diag && j >= Pre::ahead", "        const int k0 = cont_j > 0 ? c : diag && j >= Pre::ahead")
    s = edit(s, """            wait_flags(flag(c, c, m), flag(c, c, m));
            f = ld_cg(info + m);
""", """            if (cont_j == 0) wait_flags(flag(c, c, m), flag(c, c, m));
            f = cont_j > 0 ? s_cont_f : ld_cg(info + m);
""")
    x = "for (int e = tid; e < TS * TS; e += NT) s_b[e % TS][e / TS] = ld_cg(xm + e);\n"
    return edit(s, x, "if (cont_j == 0)\n            " + x)


def split(s, sums):
    old = "        if (k0 > 0) {\n            // Both sums from the prefix task.\n"
    i0 = s.index(old)
    end = "        if (c >= 0) cc.from(s_a);\n        if (pair || (PAIRS && !diag)) cd.from(s_b);\n        __syncthreads();\n"
    i1 = s.index(end, i0) + len(end)
    return s[:i0] + "        if (cont_j > 0) {\n" + sums + "        } else {\n" + s[i0:i1] + "        }\n" + s[i1:]


def run(variants, keep=(), after_case=None):
    """tiledlab.run_lab for a walker lab: CASES (default below), UPLO (U), the workspace for the walk's flags and
    sums, and two failing matrices of four (matrix 1 at column 71, tile 2; matrix 3 at column 300, tile 9), three
    launches: the walkers must leave them as head does, bit for bit."""
    import os
    specs = os.environ.get("CASES", "512x16,1024x4,2048x2,4096x1,256x64,256x1024").split(",")
    tl.run_lab(variants, os.environ.get("UPLO", "U"), specs, fails=((1, 71), (3, 300)), runs=3,
               prepare=lambda c: tl.roomy(c, walk=True), keep=keep, after_case=after_case)


def poster(s, slot, then):
    """Diagonal task j ≥ 1 of a walked launch, before its own wait: its two sums (C of tiles (j, j − 1) and (j, j),
    row-major) to the slot the expression slot gives, through s_a and s_b, then the code then (hand the step over)."""
    return edit(s, "        int f = j0 > 0 ? ld_cg(info + m) : 0;\n", f"""        if (WALK && diag && c >= 0 && cont_j == 0) {{
            T* const ws = {slot};
            cc.to(s_a);
            cd.to(s_b);
            __syncthreads();
#pragma unroll 4
            for (int e = tid; e < TS * TS; e += NT) {{
                ws[e] = s_a[e / TS][e % TS];
                ws[TS * TS + e] = s_b[e / TS][e % TS];
            }}
{then}        }}
        int f = j0 > 0 ? ld_cg(info + m) : 0;
""")
