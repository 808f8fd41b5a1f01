# cuSOLVER (torch.linalg.cholesky_ex, float32, TF32 off) on low rank F·Fᵀ/r + 1e-4·I, as TestAccuracyLarge forms it (float64, then float32)
import torch
torch.backends.cuda.matmul.allow_tf32 = False
for n in (1024, 2048, 4096, 16384):
    r = max(1, min(n // 8, 64))
    g = torch.Generator(device="cuda").manual_seed(n)
    f = torch.randn(n, r, dtype=torch.float64, device="cuda", generator=g)
    a = (f @ f.T) / r + 1e-4 * torch.eye(n, dtype=torch.float64, device="cuda")
    a32 = a.float()
    l, info = torch.linalg.cholesky_ex(a32)
    res = float("nan")
    if int(info) == 0:
        l64 = l.double(); d = l64 @ l64.T - a32.double()
        res = (d.abs().sum(0).max() / (n * 2**-23 * a32.double().abs().sum(0).max())).item()
    print(f"cuSOLVER n={n} info={int(info)} residual={res:.3f} n*eps*|A|1 ({5*res:.1f} % of the budget)")
