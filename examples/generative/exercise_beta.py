# %%
import torch
import torch.nn.functional as F
from sklearn.datasets import load_digits
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程得不偿失 | en: tiny model: extra CPU threads cost more than they save
X = torch.tensor(load_digits().data / 16, dtype=torch.float32)
perm = torch.randperm(len(X), generator=torch.Generator().manual_seed(0))
X_train, X_test = X[perm[:1500]].to(device), X[perm[1500:]].to(device)


class VAE(nn.Module):
    def __init__(self, d=64, h=256, z=2):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.Linear(h, 2 * z))
        self.dec = nn.Sequential(nn.Linear(z, h), nn.ReLU(), nn.Linear(h, d))

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        z = mu + (0.5 * logvar).exp() * torch.randn_like(mu)
        return self.dec(z), mu, logvar


def loss_terms(model, x):
    logits, mu, logvar = model(x)
    rec = F.binary_cross_entropy_with_logits(logits, x, reduction="none").sum(-1).mean()
    kl = 0.5 * (mu**2 + logvar.exp() - 1 - logvar).sum(-1).mean()
    return rec, kl, mu


models = {}
for beta in [0.0, 1.0, 4.0]:
    torch.manual_seed(0)
    model = VAE().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(20):
        for idx in torch.randperm(len(X_train), device=device).split(128):
            rec, kl, _ = loss_terms(model, X_train[idx])
            opt.zero_grad()
            (rec + beta * kl).backward()  # zh: beta 给 KL 项加权 | en: beta weights the KL term
            opt.step()
    with torch.no_grad():
        rec, kl, mu = loss_terms(model, X_test)
    models[beta] = model
    print(f"beta={beta}  test reconstruction {rec.item():6.2f}  KL {kl.item():6.2f}  "
          f"-ELBO {rec.item() + kl.item():6.2f}  std of mu per dim {[round(s, 2) for s in mu.std(0).tolist()]}")

# %% caption="Samples from the prior N(0, I) for each beta" caption_zh="每个 beta 下从先验 N(0, I) 采样解码出的数字"
import matplotlib.pyplot as plt

fig, axes = plt.subplots(3, 14, figsize=(7, 1.9))
for row, (beta, model) in enumerate(models.items()):
    torch.manual_seed(1)
    with torch.no_grad():
        imgs = torch.sigmoid(model.dec(torch.randn(14, 2, device=device)))
    for ax, img in zip(axes[row], imgs, strict=True):
        ax.imshow(img.view(8, 8).cpu(), cmap="gray_r", vmin=0, vmax=1)
        ax.axis("off")
    axes[row, 0].set_title(f"beta = {beta}", fontsize=7, loc="left")
fig.tight_layout()
plt.show()
