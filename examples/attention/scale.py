# %%
import math

import torch

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

# zh: q、k 的每个分量都是标准正态分布；一个点积是 d 项之和，标准差是 √d
# en: Every entry of q and k is standard normal; a dot product sums d terms, so its std is √d.
T = 16
print("    d  std(q·k)  std(q·k/√d)")
for d in [16, 64, 256, 1024]:
    q = torch.randn(1000, d, device=device)
    k = torch.randn(1000, d, device=device)
    dots = (q * k).sum(dim=-1)
    print(f"{d:5d}  {dots.std().item():8.2f}  {(dots / math.sqrt(d)).std().item():11.2f}")


# %%
def softmax_stats(scores):
    # zh: 最大权重的平均值，以及反向传播到分数上的梯度有多大
    # en: The mean of the largest weight, and how much gradient reaches the scores.
    scores = scores.detach().requires_grad_()
    w = scores.softmax(dim=-1)
    upstream = torch.randn(w.shape, generator=torch.Generator(scores.device).manual_seed(1), device=scores.device)
    (w * upstream).sum().backward()
    return w.max(dim=-1).values.mean().item(), scores.grad.norm(dim=-1).mean().item()


print("    d   max weight (unscaled / scaled)   grad norm (unscaled / scaled)")
for d in [16, 64, 256, 1024]:
    q = torch.randn(64, T, d, device=device)
    k = torch.randn(64, T, d, device=device)
    raw = q @ k.transpose(-2, -1)
    m_raw, g_raw = softmax_stats(raw)
    m_s, g_s = softmax_stats(raw / math.sqrt(d))
    print(f"{d:5d}   {m_raw:10.3f} / {m_s:.3f}             {g_raw:12.4f} / {g_s:.4f}")
