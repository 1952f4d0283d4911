# %%
import math
import time

import torch
import torch.nn.functional as F
from sklearn.datasets import load_digits
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程得不偿失 | en: tiny model: extra CPU threads cost more than they save
digits = load_digits()
X = torch.tensor(digits.data / 8 - 1, dtype=torch.float32)  # zh: 像素缩放到 [-1, 1] | en: pixels scaled to [-1, 1]
perm = torch.randperm(len(X), generator=torch.Generator().manual_seed(0))
X_train, X_test = X[perm[:1500]].to(device), X[perm[1500:]].to(device)
y_train, y_test = digits.target[perm[:1500]], digits.target[perm[1500:]]

T = 100  # zh: 和上一个示例相同的加噪过程 | en: the same noising process as the previous example
betas = torch.linspace(1e-4, 0.1, T, device=device)
alphas = 1 - betas
alpha_bar = torch.cumprod(alphas, dim=0)


class NoisePredictor(nn.Module):
    # zh: 输入带噪图 x_t 和步数 t，输出对噪声 eps 的预测
    # en: Takes the noisy image x_t and the step t, predicts the noise eps.
    def __init__(self, h=192, e=32):
        super().__init__()
        # zh: 时间步嵌入：每个 t 一行正弦和余弦，频率按几何级数排列（和 Transformer 的位置编码一样）
        # en: Timestep embedding: one row of sines and cosines per t, at geometric frequencies (like a Transformer's positions).
        freqs = torch.exp(-math.log(1000) * torch.arange(e // 2) / (e // 2))
        angles = torch.arange(T)[:, None] * freqs
        self.register_buffer("table", torch.cat([angles.sin(), angles.cos()], dim=-1))  # zh: (T, e) | en: (T, e)
        self.time = nn.Linear(e, 3 * h)  # zh: 给三层各一份时间偏置 | en: a time bias for each of three layers
        self.inp = nn.Linear(64, h)
        self.hidden = nn.ModuleList([nn.Linear(h, h), nn.Linear(h, h)])
        self.out = nn.Linear(h, 64)

    def forward(self, x, t):
        e0, e1, e2 = self.time(self.table[t]).chunk(3, dim=-1)
        h = self.inp(x) + e0
        for layer, e in zip(self.hidden, (e1, e2), strict=True):
            h = h + layer(F.silu(h)) + e  # zh: 残差，再加上这一层的时间偏置 | en: residual, plus this layer's time bias
        return self.out(F.silu(h))


model = NoisePredictor().to(device)
print("parameters:", sum(p.numel() for p in model.parameters()))
steps = 2000
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=5e-3, total_steps=steps, pct_start=0.1)
start = time.perf_counter()
for step in range(steps):
    x0 = X_train[torch.randint(0, len(X_train), (128,), device=device)]
    t = torch.randint(0, T, (128,), device=device)  # zh: 每个样本自己的 t | en: a t for each sample
    eps = torch.randn_like(x0)
    a = alpha_bar[t][:, None]
    x_t = a.sqrt() * x0 + (1 - a).sqrt() * eps  # zh: 闭式加噪，一步到位 | en: closed-form noising in one jump
    loss = F.mse_loss(model(x_t, t), eps)  # zh: 目标是加进去的噪声 | en: the target is the noise that was added
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    if step % 500 == 0 or step == steps - 1:
        print(f"step {step:4d}  loss {loss.item():.3f}")
seconds = time.perf_counter() - start

# %% volatile=true
print(f"training took {seconds:.1f} s")

# %%
# zh: 在测试集上按 t 分开看损失：t 小时噪声很弱，很难从细节里分辨出来
# en: Test loss per t: at small t the noise is faint and hard to tell from the digit's detail.
model.eval()
torch.manual_seed(1)
with torch.no_grad():
    for t_value in [0, 9, 49, 99]:
        t = torch.full((len(X_test),), t_value, device=device)
        eps = torch.randn_like(X_test)
        a = alpha_bar[t][:, None]
        pred = model(a.sqrt() * X_test + (1 - a).sqrt() * eps, t)
        print(f"t={t_value:2d}  test loss {F.mse_loss(pred, eps).item():.3f}")


# %%
# zh: 祖先采样：从纯噪声 x_T 出发，一步步算 x_{t-1} ~ p(x_{t-1} | x_t)
# en: Ancestral sampling: start from pure noise x_T and draw x_{t-1} ~ p(x_{t-1} | x_t) step by step.
@torch.no_grad()
def sample(n, keep=()):
    x = torch.randn(n, 64, device=device)
    kept = {}
    for t in reversed(range(T)):
        eps = model(x, torch.full((n,), t, device=device))
        # zh: 均值：从 x_t 里减去预测的噪声，再放大回来
        # en: Mean: remove the predicted noise from x_t, then scale back up.
        mean = (x - betas[t] / (1 - alpha_bar[t]).sqrt() * eps) / alphas[t].sqrt()
        x = mean + betas[t].sqrt() * torch.randn_like(x) if t > 0 else mean  # zh: 最后一步不加噪声 | en: no noise at the last step
        if t in keep:
            kept[t] = x.clone()
    return x.clamp(-1, 1), kept


torch.manual_seed(2)
samples, kept = sample(500, keep=(99, 74, 49, 24, 9, 0))
print("samples:", tuple(samples.shape))

# %% caption="32 samples of the diffusion model" caption_zh="扩散模型生成的 32 个样本"
import matplotlib.pyplot as plt

fig, axes = plt.subplots(2, 16, figsize=(8, 1.2))
for ax, img in zip(axes.flat, samples, strict=False):
    ax.imshow(img.view(8, 8).cpu(), cmap="gray_r", vmin=-1, vmax=1)
    ax.axis("off")
fig.tight_layout()
plt.show()

# %% caption="Four samples along the reverse process: from noise at t = 99 to a digit at t = 0" caption_zh="逆向过程中的四个样本：从 t = 99 的噪声到 t = 0 的数字"
fig, axes = plt.subplots(4, len(kept), figsize=(4.5, 3.2))
for col, (t, x) in enumerate(kept.items()):
    for row in range(4):
        axes[row, col].imshow(x[row].view(8, 8).cpu(), cmap="gray_r", vmin=-1, vmax=1)
        axes[row, col].axis("off")
    axes[0, col].set_title(f"t = {t}", fontsize=8)
fig.tight_layout()
plt.show()

# %%
# zh: 样本好不好？用同一份训练集做两把尺子，和真实测试图、一个高斯基线、均匀噪声比较
# en: How good are the samples? Two yardsticks built on the training set, compared with real test digits,
# en: a Gaussian baseline and uniform noise.
import numpy as np
from scipy.spatial.distance import cdist
from sklearn.linear_model import LogisticRegression

train01 = (X_train.cpu().numpy() + 1) / 2  # zh: 回到 [0, 1] | en: back to [0, 1]
clf = LogisticRegression(max_iter=2000).fit(train01, y_train)
print(f"classifier accuracy on real test digits: {clf.score((X_test.cpu().numpy() + 1) / 2, y_test):.3f}")
rng = np.random.default_rng(0)
candidates = {
    "real test digits": (X_test.cpu().numpy() + 1) / 2,
    "diffusion samples": (samples.cpu().numpy() + 1) / 2,
    # zh: 基线：用训练集的均值和协方差拟合一个高斯分布，从中抽样
    # en: Baseline: a Gaussian with the training set's mean and covariance.
    "Gaussian fit": rng.multivariate_normal(train01.mean(0), np.cov(train01.T), 500).clip(0, 1),
    "uniform noise": rng.random((500, 64)),
}
print(f"{'':18s}  confidence  share > 0.9  distance to nearest training digit (mean, min)")
for name, imgs in candidates.items():
    conf = clf.predict_proba(imgs).max(1)
    nearest = cdist(imgs, train01).min(1)
    print(f"{name:18s}  {conf.mean():10.3f}  {(conf > 0.9).mean():11.3f}  {nearest.mean():6.3f} {nearest.min():6.3f}")
print("classes of the diffusion samples:", np.bincount(clf.predict(candidates["diffusion samples"]), minlength=10).tolist())
