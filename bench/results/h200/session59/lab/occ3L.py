# Lab (GPU machine): chol_tiled's three-block kernel for Lower, which d8e1912 does not build (8 B of local memory
# under CUDA 13, call 8). Lower copies 4-byte pieces (copy_tile: eight cp.async a tile a thread, each a 64-bit
# address step, where Upper's wide copies take two), three tile rows a step: the variants unroll that loop less, so
# that fewer addresses are live at once:
#   rp     the tree's source with the three-block kernel allowed for Lower (call 8's kernel);
#   u4     rp with copy_tile's 4-byte loop unrolled by 4;   u2   by 2 (call 14: 8 B of stack in all three);
#   nx     rp with the loop's copy step (next) computed from lda at each copy instead of held in registers;
#   nx-u4  both.
# Each prints its resources (the device's NVRTC) and is timed with the one- and four-block Lower kernels beside it;
# factors bit for bit as the one-block kernel's (the four-block Lower kernel factors with factor_subblocks: info and
# residuals only).
#
# Usage, from the repository root: python3 bench/results/h200/session59/lab/occ3L.py
# Env: VARIANTS ("rp,nx,nx-u4"), CASES ("4096x1,4096x2,2048x8,2048x2"), REPS (7), COMPILE_ONLY=1 (resources only).
import os, sys

sys.path.insert(0, "bench/lab")
import tiledlab as tl

head = open("internal/gpu/cholblocked/blocked.cu").read()
edit = tl.edit
rp = edit(head, "(MIN_BLOCKS == 3 && SPLIT && !PANEL && UPPER && sizeof(T) == 4)", "(MIN_BLOCKS == 3 && SPLIT && !PANEL && sizeof(T) == 4)")
LOOP = """#pragma unroll
    for (int e = 0; e < TS * TS / NT; ++e) {
        cp_async4("""
NEXT = "                const long long next = copy_step<UPPER, NT>(wide, lda);\n                auto copy = [&](int k) {\n"


def recomputed(s):
    """next (a 64-bit register through the loop) computed from lda, a kernel argument, at each copy instead."""
    return edit(s, NEXT, "                auto copy = [&](int k) {\n                    const long long next = copy_step<UPPER, NT>(wide, lda);\n")


u4 = edit(rp, LOOP, LOOP.replace("#pragma unroll", "#pragma unroll 4"))
# VARIANTS: call 14 ran rp, u4 and u2 (u2: the loop unrolled by 2); call 15 rp, nx and nx-u4.
every = {"rp": rp, "u4": u4, "u2": edit(rp, LOOP, LOOP.replace("#pragma unroll", "#pragma unroll 2")), "nx": recomputed(rp),
         "nx-u4": recomputed(u4)}
sources = {v: every[v] for v in os.environ.get("VARIANTS", "rp,nx,nx-u4").split(",")}
kernels = {**tl.split_kernel("L", 1), **tl.split_kernel("L", 4), **tl.split_kernel("L", 3)}
results = tl.build(sources, kernels)
if os.environ.get("COMPILE_ONLY") == "1":
    sys.exit(0)

fns = tl.functions(results, kernels)
arms = {"one": (fns[("rp", ("L", 1))], 1), "four": (fns[("rp", ("L", 4))], 4)}
arms.update({f"three-{v}": (fns[(v, ("L", 3))], 3) for v in sources})
specs = os.environ.get("CASES", "4096x1,4096x2,2048x8,2048x2").split(",")
bad = tl.compare_kernels(arms, "L", specs, reps=int(os.environ.get("REPS", "7")), prepare=tl.roomy, bits_exempt=("four",))
bad += tl.compare_failing_kernels(arms, "L", ((1, 71), (3, 300)), prepare=tl.roomy, bits_exempt=("four",))
print("every result checked" if bad == 0 else f"{bad} BAD")
sys.exit(1 if bad else 0)
