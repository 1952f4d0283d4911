# %%
import torch
from torch import nn
from torch.distributions import Normal, kl_divergence

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
x = torch.rand(4, 64, device=device)  # zh: 4 张假想的 8x8 图，像素在 [0, 1] 里 | en: 4 stand-in 8x8 images, pixels in [0, 1]

Z = 2  # zh: 隐变量的维数 | en: latent dimensions
encoder = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 2 * Z)).to(device)
# zh: 编码器输出 2Z 个数：前一半是均值 mu，后一半是对数方差 logvar（可以取任何实数）
# en: The encoder outputs 2Z numbers: the mean mu, then the log-variance logvar (any real number is valid).
mu, logvar = encoder(x).chunk(2, dim=-1)
std = (0.5 * logvar).exp()  # zh: sigma = exp(logvar / 2)，一定为正 | en: sigma = exp(logvar / 2), always positive
print("x:", tuple(x.shape), " mu:", tuple(mu.shape), " logvar:", tuple(logvar.shape))
print("std > 0:", bool((std > 0).all()))


# %%
# zh: 三种抽样方式：梯度能不能从 z 流回 mu 和 logvar？
# en: Three ways to draw z: does the gradient flow from z back to mu and logvar?
def grads(z):
    loss = z.pow(2).sum()
    # zh: retain_graph：编码器这段计算图后面还要再用
    # en: retain_graph: the encoder's part of the graph is used again below.
    return torch.autograd.grad(loss, (mu, logvar), retain_graph=True)


z = torch.normal(mu, std)
g_mu, g_logvar = grads(z)
print("torch.normal     grad_fn:", type(z.grad_fn).__name__, " |grad mu|:", g_mu.abs().sum().item(),
      " |grad logvar|:", g_logvar.abs().sum().item())
z = Normal(mu, std).sample()
print("Normal.sample()  requires_grad:", z.requires_grad)
eps = torch.randn_like(std)
z = mu + std * eps  # zh: 重参数化：随机性全在 eps 里 | en: reparameterised: all the randomness is in eps
g_mu, g_logvar = grads(z)
print("mu + std * eps   |grad mu|:", round(g_mu.abs().sum().item(), 4), " |grad logvar|:",
      round(g_logvar.abs().sum().item(), 4))
torch.manual_seed(1)
z1 = Normal(mu, std).rsample()  # zh: rsample 就是这一行公式 | en: rsample is exactly this formula
torch.manual_seed(1)
z2 = mu + std * torch.randn_like(std)
print("Normal.rsample() == mu + std * eps:", torch.equal(z1, z2))

# %%
# zh: 重参数化得到的梯度是否正确？E[z^2] = mu^2 + sigma^2，所以 d/dmu = 2 mu，d/dlogvar = sigma^2
# en: Is the reparameterised gradient right? E[z^2] = mu^2 + sigma^2, so d/dmu = 2 mu and d/dlogvar = sigma^2.
n = 200_000
eps = torch.randn(n, *std.shape, device=device)
mc = torch.autograd.grad((mu + std * eps).pow(2).mean(0).sum(), (mu, logvar), retain_graph=True)
exact = (2 * mu, std**2)
print(f"{n} draws of eps for each of the 4 images")
for name, a, b in zip(["mu", "logvar"], mc, exact, strict=True):
    print(f"d/d{name} of image 0: Monte Carlo {[round(v, 4) for v in a[0].tolist()]}  exact {[round(v, 4) for v in b[0].tolist()]}"
          f"   largest difference over all 4 images: {(a - b).abs().max().item():.4f}")

# %%
# zh: KL(q || p)，q = N(mu, sigma^2)，p = N(0, 1)：闭式解、Monte Carlo 估计和 torch.distributions 三者对照
# en: KL(q || p) with q = N(mu, sigma^2) and p = N(0, 1): closed form, Monte Carlo and torch.distributions.
with torch.no_grad():
    kl_closed = 0.5 * (mu**2 + logvar.exp() - 1 - logvar).sum(-1)  # zh: 每张图一个数 | en: one number per image
    q, p = Normal(mu, std), Normal(torch.zeros_like(mu), torch.ones_like(std))
    zs = q.sample((n,))  # zh: (n, 4, Z) | en: (n, 4, Z)
    terms = (q.log_prob(zs) - p.log_prob(zs)).sum(-1)  # zh: log q(z) - log p(z) | en: log q(z) - log p(z)
    kl_mc, kl_se = terms.mean(0), terms.std(0) / n**0.5
    kl_torch = kl_divergence(q, p).sum(-1)
print(f"Monte Carlo over {n} draws of z per image")
print("closed form:       ", [round(v, 5) for v in kl_closed.tolist()])
print("Monte Carlo:       ", [round(v, 5) for v in kl_mc.tolist()])
print("standard error:    ", [round(v, 5) for v in kl_se.tolist()])
print("kl_divergence:     ", [round(v, 5) for v in kl_torch.tolist()])
print("|closed - MC| / standard error:", [round(v, 2) for v in ((kl_closed - kl_mc).abs() / kl_se).tolist()])
