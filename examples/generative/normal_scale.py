# %%
import torch
from torch import nn
from torch.distributions import Normal

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
x = torch.rand(4, 64, device=device)  # zh: 4 张假想的 8x8 图 | en: 4 stand-in 8x8 images

Z = 2
encoder = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 2 * Z)).to(device)
mu, raw = encoder(x).chunk(2, dim=-1)
# zh: 线性层的输出可以是任何实数，也包括负数
# en: A linear layer's output can be any real number, negative ones included.
print("negative entries in raw:", int((raw < 0).sum()), "of", raw.numel())

# %% raises="ValueError"
# zh: 错误：把线性层的输出直接当作标准差
# en: The mistake: using the linear layer's output as the standard deviation.
Normal(mu, raw)

# %%
# zh: 关掉检查并不能解决问题：负的标准差给出 NaN 的对数概率
# en: Switching the check off fixes nothing: a negative scale gives a NaN log-probability.
z = torch.zeros_like(mu)
print("log_prob with validate_args=False:", Normal(mu, raw, validate_args=False).log_prob(z).isnan().sum().item(), "NaN of", z.numel())

# %%
# zh: 改法一：把 raw 当作对数方差，std = exp(logvar / 2)（本章 VAE 的做法）
# en: Fix 1: read raw as the log-variance, std = exp(logvar / 2) (this chapter's VAE does this).
std_exp = (0.5 * raw).exp()
# zh: 改法二：softplus(raw) = log(1 + e^raw)，再加一个小下限，避免标准差太接近 0
# en: Fix 2: softplus(raw) = log(1 + e^raw), plus a small floor so the scale never gets too close to 0.
std_softplus = nn.functional.softplus(raw) + 1e-4
for name, std in [("exp(raw / 2)", std_exp), ("softplus(raw) + 1e-4", std_softplus)]:
    q = Normal(mu, std)
    print(f"{name:20s} smallest scale {std.min().item():.4f}  rsample shape {tuple(q.rsample().shape)}")
