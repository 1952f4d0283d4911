# %%
import math

import torch

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


def linear_schedule(T, beta_max):
    return torch.cumprod(1 - torch.linspace(1e-4, beta_max, T, device=device), dim=0)


def cosine_schedule(T, s=0.008):
    # zh: 余弦调度（Nichol 和 Dhariwal）：直接规定 alpha_bar；s 让 t=0 附近的噪声不至于太小
    # en: Cosine schedule (Nichol and Dhariwal): alpha_bar is given directly; s keeps the noise near t = 0 from being too small.
    f = torch.cos((torch.arange(T + 1, device=device) / T + s) / (1 + s) * math.pi / 2) ** 2
    alpha_bar = f[1:] / f[0]
    betas = 1 - alpha_bar / torch.cat([torch.ones(1, device=device), alpha_bar[:-1]])
    # zh: 最后一步的 beta 是 1（alpha_bar 恰好为 0），按论文截到 0.999
    # en: The last beta is 1 (alpha_bar is exactly 0); clip at 0.999 as the paper does.
    return torch.cumprod(1 - betas.clamp(max=0.999), dim=0)


schedules = {
    "DDPM linear, T=1000": linear_schedule(1000, 0.02),  # zh: DDPM 论文的设置 | en: the DDPM paper's setting
    "cosine, T=1000": cosine_schedule(1000),
    "this chapter, T=100": linear_schedule(100, 0.1),
}
for name, ab in schedules.items():
    T = len(ab)
    at = [float(f"{ab[int(q * T) - 1].item():.3g}") for q in (0.25, 0.5, 0.75, 1.0)]
    noise_only = (ab.sqrt() < 0.1).float().mean().item()  # zh: 信号系数不到 0.1 的步数所占比例 | en: share of steps with a signal coefficient below 0.1
    print(f"{name:20s} alpha_bar at t/T = 0.25, 0.5, 0.75, 1: {at}   share of steps with sqrt(alpha_bar) < 0.1: {noise_only:.2f}")

# %% caption="Left: alpha_bar against t/T. Right: the signal-to-noise ratio alpha_bar / (1 - alpha_bar), log scale" caption_zh="左：alpha_bar 随 t/T 的变化；右：信噪比 alpha_bar / (1 - alpha_bar)，对数刻度"
import matplotlib.pyplot as plt

fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3))
for name, ab in schedules.items():
    q = (torch.arange(len(ab)) + 1) / len(ab)
    left.plot(q, ab.cpu(), label=name)
    right.plot(q, (ab / (1 - ab)).cpu(), label=name)
left.set_xlabel("t / T")
left.set_ylabel("alpha_bar")
left.legend(fontsize=7)
right.set_yscale("log")
right.set_xlabel("t / T")
right.set_ylabel("signal-to-noise ratio")
fig.tight_layout()
plt.show()
