# %%
import torch

torch.manual_seed(0)
# zh: 拉普拉斯分布的权重：大多数很小，少数很大（长尾）
# en: Laplace-distributed weights: most small, a few large (a long tail).
w = torch.distributions.Laplace(0.0, 1.0).sample((100_000,))
print(f"max |w| = {w.abs().max().item():.2f},  99.9th percentile of |w| = {w.abs().quantile(0.999).item():.2f}")


def mse(w, clip, bits):
    # zh: 把范围截到 [-clip, clip]：截断误差换更细的刻度
    # en: Clip the range to [-clip, clip]: some clipping error in exchange for a finer step.
    qmax = 2 ** (bits - 1) - 1
    scale = clip / qmax
    w_hat = torch.round(w / scale).clamp(-qmax - 1, qmax) * scale
    return ((w - w_hat) ** 2).mean().item()


for bits in (8, 4):
    full = mse(w, w.abs().max(), bits)
    ratios = torch.linspace(0.1, 1.0, 91)
    errors = torch.tensor([mse(w, r * w.abs().max(), bits) for r in ratios])
    best = errors.argmin()
    print(f"int{bits}: no clipping MSE {full:.2e};  best clip = {ratios[best].item():.2f} x max,"
          f" MSE {errors[best].item():.2e}, {full / errors[best].item():.1f}x smaller")
