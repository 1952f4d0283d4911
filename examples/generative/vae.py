# %%
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
X = torch.tensor(digits.data / 16, dtype=torch.float32)  # zh: 像素缩放到 [0, 1] | en: pixels scaled to [0, 1]
perm = torch.randperm(len(X), generator=torch.Generator().manual_seed(0))
X_train, X_test = X[perm[:1500]].to(device), X[perm[1500:]].to(device)
y_test = torch.tensor(digits.target)[perm[1500:]]
print("train:", tuple(X_train.shape), " test:", tuple(X_test.shape))


class VAE(nn.Module):
    def __init__(self, d=64, h=256, z=2):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.Linear(h, 2 * z))  # zh: -> (mu, logvar) | en: -> (mu, logvar)
        self.dec = nn.Sequential(nn.Linear(z, h), nn.ReLU(), nn.Linear(h, d))  # zh: -> 每个像素的 logit | en: -> one logit per pixel

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        z = mu + (0.5 * logvar).exp() * torch.randn_like(mu)  # zh: 重参数化 | en: reparameterisation
        return self.dec(z), mu, logvar


def loss_terms(model, x):
    # zh: 负 ELBO = 重构项 + KL，单位是每张图的 nat
    # en: Negative ELBO = reconstruction + KL, in nats per image.
    logits, mu, logvar = model(x)
    rec = F.binary_cross_entropy_with_logits(logits, x, reduction="none").sum(-1)  # zh: -log p(x|z) | en: -log p(x|z)
    kl = 0.5 * (mu**2 + logvar.exp() - 1 - logvar).sum(-1)
    return rec.mean(), kl.mean()


model = VAE().to(device)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
history = []
start = time.perf_counter()
for epoch in range(60):
    model.train()
    for idx in torch.randperm(len(X_train), device=device).split(128):
        rec, kl = loss_terms(model, X_train[idx])
        opt.zero_grad()
        (rec + kl).backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        train_rec, train_kl = loss_terms(model, X_train)
        test_rec, test_kl = loss_terms(model, X_test)
    history.append([train_rec.item(), train_kl.item(), (test_rec + test_kl).item()])
    if epoch % 10 == 9:
        print(f"epoch {epoch + 1:2d}  train: reconstruction {history[-1][0]:.2f}  KL {history[-1][1]:.2f}  "
              f"-ELBO {history[-1][0] + history[-1][1]:.2f}   test -ELBO {history[-1][2]:.2f}")
seconds = time.perf_counter() - start
# zh: 像素不是 0/1，所以重构项有下限：像素自身的熵
# en: The pixels are not 0/1, so the reconstruction term has a floor: the pixels' own entropy.
floor = F.binary_cross_entropy(X_train, X_train, reduction="none").sum(-1).mean()
print(f"lowest possible reconstruction term: {floor.item():.2f}")

# %% volatile=true
print(f"training took {seconds:.1f} s")

# %% caption="VAE training: reconstruction, KL and negative ELBO per epoch" caption_zh="VAE 训练：每个 epoch 的重构项、KL 项和负 ELBO"
import matplotlib.pyplot as plt

h = torch.tensor(history)
fig, ax = plt.subplots(figsize=(6, 3))
epochs = range(1, len(h) + 1)
ax.plot(epochs, h[:, 0] + h[:, 1], label="train -ELBO")
ax.plot(epochs, h[:, 2], "--", label="test -ELBO")
ax.plot(epochs, h[:, 0], label="train reconstruction")
ax.plot(epochs, h[:, 1], label="train KL")
ax.axhline(floor.item(), color="gray", lw=0.8, ls=":", label="reconstruction floor")
ax.set_xlabel("epoch")
ax.set_ylabel("nats per image")
ax.legend(fontsize=7, ncol=2)
fig.tight_layout()
plt.show()


# %% caption="Top: test digits. Bottom: their reconstructions, decoded from mu" caption_zh="上：测试集数字；下：从 mu 解码得到的重构"
def show(rows, labels=None):
    fig, axes = plt.subplots(len(rows), len(rows[0]), figsize=(len(rows[0]) * 0.5, len(rows) * 0.55))
    for r, row in enumerate(rows):
        for c, img in enumerate(row):
            axes[r, c].imshow(img.view(8, 8).cpu(), cmap="gray_r", vmin=0, vmax=1)
            axes[r, c].axis("off")
        if labels:
            axes[r, 0].set_title(labels[r], fontsize=7, loc="left")
    fig.tight_layout()
    plt.show()


with torch.no_grad():
    mu, _ = model.enc(X_test[:14]).chunk(2, dim=-1)
    recon = torch.sigmoid(model.dec(mu))  # zh: 解码器给出的像素均值 | en: the decoder's mean pixel values
show([X_test[:14], recon])

# %% caption="28 samples from the prior: z ~ N(0, I), decoded" caption_zh="从先验中采样的 28 个样本：z ~ N(0, I)，再解码"
torch.manual_seed(1)
with torch.no_grad():
    samples = torch.sigmoid(model.dec(torch.randn(28, 2, device=device)))
show([samples[:14], samples[14:]])

# %% caption="Left: the test digits' mu, coloured by class. Right: the decoder over a grid of z" caption_zh="左：测试集数字的 mu，按类别着色；右：解码器在 z 的网格上的输出"
with torch.no_grad():
    mu_test, _ = model.enc(X_test).chunk(2, dim=-1)
    grid = torch.linspace(-2.5, 2.5, 12)
    # zh: 第 r 行、第 c 列的小图解码 z = (grid[c], grid[-1 - r])：z[0] 向右增大，z[1] 向上增大
    # en: The tile in row r, column c decodes z = (grid[c], grid[-1 - r]): z[0] grows to the right, z[1] upwards.
    zz = torch.cartesian_prod(grid.flip(0), grid)[:, [1, 0]]
    tiles = torch.sigmoid(model.dec(zz.to(device))).view(12, 12, 8, 8).cpu()
    tiles = F.pad(tiles, (1, 1, 1, 1))  # zh: 小图之间留一像素白边 | en: a one-pixel white border between tiles
fig, (a, b) = plt.subplots(1, 2, figsize=(9, 4.2))
pts = a.scatter(*mu_test.cpu().T, c=y_test, cmap="tab10", s=8)
fig.colorbar(pts, ax=a, ticks=range(10), label="digit")
a.set_xlabel("z[0]")
a.set_ylabel("z[1]")
a.set_title("test digits in latent space (mu)")
canvas = tiles.permute(0, 2, 1, 3).reshape(12 * 10, 12 * 10)  # zh: 拼成一张 120x120 的图 | en: tiled into one 120x120 image
b.imshow(canvas, cmap="gray_r", extent=(-2.5, 2.5, -2.5, 2.5))
b.set_xlabel("z[0]")
b.set_ylabel("z[1]")
b.set_title("decoder over a grid of z")
fig.tight_layout()
plt.show()

# %% caption="From one test digit to another: interpolating in latent space (top) and in pixel space (bottom)" caption_zh="从一个测试数字到另一个：在隐空间中插值（上）和在像素空间中插值（下）"
i, j = (y_test == 0).nonzero()[0].item(), (y_test == 7).nonzero()[0].item()
w = torch.linspace(0, 1, 10, device=device)[:, None]
with torch.no_grad():
    (mu_i, _), (mu_j, _) = model.enc(X_test[i]).chunk(2), model.enc(X_test[j]).chunk(2)
    latent = torch.sigmoid(model.dec((1 - w) * mu_i + w * mu_j))
pixel = (1 - w) * X_test[i] + w * X_test[j]  # zh: 直接混合像素：两张图叠在一起 | en: blending pixels: two images overlaid
show([latent, pixel], labels=["latent", "pixels"])
print("from digit", y_test[i].item(), "to digit", y_test[j].item())
