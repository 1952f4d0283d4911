# %%
import torch
from sklearn.datasets import load_digits

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 张量很小：多开 CPU 线程得不偿失 | en: small tensors: extra CPU threads cost more than they save
digits = load_digits()
X = torch.tensor(digits.data / 8 - 1, dtype=torch.float32, device=device)  # zh: 像素缩放到 [-1, 1] | en: pixels scaled to [-1, 1]

T = 100  # zh: 加噪的步数 | en: number of noising steps
betas = torch.linspace(1e-4, 0.1, T, device=device)  # zh: 第 t 步加入的噪声方差 | en: the noise variance added at step t
alphas = 1 - betas
alpha_bar = torch.cumprod(alphas, dim=0)  # zh: alpha_bar[t] = alphas[0] * ... * alphas[t] | en: alpha_bar[t] = alphas[0] * ... * alphas[t]
for t in [0, 9, 24, 49, 74, 99]:
    print(f"t={t:2d}  beta {betas[t].item():.4f}  alpha_bar {alpha_bar[t].item():.4f}  "
          f"signal sqrt(alpha_bar) {alpha_bar[t].sqrt().item():.3f}  noise sqrt(1 - alpha_bar) {(1 - alpha_bar[t]).sqrt().item():.3f}")


# %%
# zh: 闭式解：q(x_t | x_0) = N(sqrt(alpha_bar_t) x_0, (1 - alpha_bar_t) I)，一步就能跳到任意 t
# en: Closed form: q(x_t | x_0) = N(sqrt(alpha_bar_t) x_0, (1 - alpha_bar_t) I), a single jump to any t.
def q_sample(x0, t, eps):
    a = alpha_bar[t].view(-1, *[1] * (x0.dim() - 1))  # zh: 每个样本自己的 t | en: each sample its own t
    return a.sqrt() * x0 + (1 - a).sqrt() * eps


# zh: 对照：把同一张图复制 10000 份，一步一步地加噪 x_t = sqrt(1 - beta_t) x_{t-1} + sqrt(beta_t) eps_t
# en: Check: 10000 copies of one digit, noised step by step, x_t = sqrt(1 - beta_t) x_{t-1} + sqrt(beta_t) eps_t.
x0 = X[0]
n = 10_000
x = x0.expand(n, 64).clone()
print(f"{n} copies of digit 0, SE = standard error of a mean over {n} copies")
for t in range(T):
    x = alphas[t].sqrt() * x + betas[t].sqrt() * torch.randn_like(x)
    if t in (9, 49, 99):
        sd = (1 - alpha_bar[t]).sqrt()
        se = sd / n**0.5  # zh: n 份样本均值的标准误 | en: standard error of a mean over n copies
        jump = q_sample(x0.expand(n, 64), torch.full((n,), t, device=device), torch.randn(n, 64, device=device))
        print(f"t={t:2d}  formula: std {sd.item():.4f}   step by step: std {x.std(0).mean().item():.4f}, "
              f"worst mean error {((x.mean(0) - alpha_bar[t].sqrt() * x0).abs().max() / se).item():.1f} SE   "
              f"one jump: std {jump.std(0).mean().item():.4f}")

# %% caption="Top: one digit noised in closed form at growing t. Bottom: how much signal and noise x_t holds" caption_zh="上：用闭式公式在逐渐增大的 t 下加噪的同一个数字；下：x_t 中信号和噪声各占多少"
import matplotlib.pyplot as plt

steps = [0, 9, 24, 49, 74, 99]
eps = torch.randn(len(steps), 64, device=device)
noisy = q_sample(x0.expand(len(steps), 64), torch.tensor(steps, device=device), eps)
fig = plt.figure(figsize=(7, 3.6))
for k, (t, img) in enumerate(zip(steps, noisy, strict=True)):
    ax = fig.add_subplot(2, len(steps), k + 1)
    ax.imshow(img.view(8, 8).cpu(), cmap="gray_r", vmin=-1, vmax=1)
    ax.set_title(f"t = {t}", fontsize=8)
    ax.axis("off")
ax = fig.add_subplot(2, 1, 2)
ax.plot(alpha_bar.sqrt().cpu(), label="signal: sqrt(alpha_bar)")
ax.plot((1 - alpha_bar).sqrt().cpu(), label="noise: sqrt(1 - alpha_bar)")
ax.set_xlabel("t")
ax.legend(fontsize=8)
fig.tight_layout()
plt.show()
