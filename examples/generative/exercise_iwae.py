# %%
import math

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

enc = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 4)).to(device)
dec = nn.Sequential(nn.Linear(2, 256), nn.ReLU(), nn.Linear(256, 64)).to(device)
opt = torch.optim.Adam([*enc.parameters(), *dec.parameters()], lr=3e-3)
for _ in range(30):
    for idx in torch.randperm(len(X_train), device=device).split(128):
        x = X_train[idx]
        mu, logvar = enc(x).chunk(2, dim=-1)
        z = mu + (0.5 * logvar).exp() * torch.randn_like(mu)
        rec = F.binary_cross_entropy_with_logits(dec(z), x, reduction="none").sum(-1)
        kl = 0.5 * (mu**2 + logvar.exp() - 1 - logvar).sum(-1)
        opt.zero_grad()
        (rec + kl).mean().backward()
        opt.step()


# %%
# zh: 重要性采样：log p(x) ≈ log (1/K) Σ_k p(x|z_k) p(z_k) / q(z_k|x)，z_k ~ q(z|x)
# en: Importance sampling: log p(x) ≈ log (1/K) Σ_k p(x|z_k) p(z_k) / q(z_k|x), with z_k ~ q(z|x).
@torch.no_grad()
def log_p_estimate(x, K):
    # zh: 每张图一个估计，再对图取平均
    # en: One estimate per image, averaged over the images.
    mu, logvar = enc(x).chunk(2, dim=-1)
    q = torch.distributions.Normal(mu, (0.5 * logvar).exp())
    z = q.sample((K,))  # zh: (K, N, 2) | en: (K, N, 2)
    log_px_z = -F.binary_cross_entropy_with_logits(dec(z), x.expand(K, -1, -1), reduction="none").sum(-1)
    log_pz = torch.distributions.Normal(0.0, 1.0).log_prob(z).sum(-1)
    log_w = log_px_z + log_pz - q.log_prob(z).sum(-1)  # zh: 每个 z_k 的对数权重 | en: log weight of each z_k
    return (torch.logsumexp(log_w, dim=0) - math.log(K)).mean().item()  # zh: 在对数空间里求平均 | en: averaged in log space


torch.manual_seed(1)
with torch.no_grad():
    mu, logvar = enc(X_test).chunk(2, dim=-1)
    z = mu + (0.5 * logvar).exp() * torch.randn(200, *mu.shape, device=device)
    rec = F.binary_cross_entropy_with_logits(dec(z), X_test.expand(200, -1, -1), reduction="none").sum(-1).mean()
    elbo = -(rec + 0.5 * (mu**2 + logvar.exp() - 1 - logvar).sum(-1).mean()).item()
print(f"ELBO (closed-form KL):           {elbo:.3f}")
# zh: K=1 就是用一次抽样估计的 ELBO；平均 50 次，抽样误差才小到能和上一行比较
# en: K=1 is the ELBO estimated from one draw; averaged over 50 runs its sampling error is small enough to compare.
print(f"K=1, averaged over 50 runs:     {sum(log_p_estimate(X_test, 1) for _ in range(50)) / 50:.3f}")
for K in [10, 100, 1000]:
    estimate = log_p_estimate(X_test, K)
    print(f"K={K:4d}  estimate of log p(x):  {estimate:.3f}")
print(f"gap between the K=1000 estimate and the ELBO: {estimate - elbo:.3f} nats")
