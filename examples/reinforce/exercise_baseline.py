# %%
import torch
from torch.distributions import Categorical

torch.manual_seed(0)
pay = torch.tensor([0.2, 0.5, 0.8, 0.3, 0.6])
logits = torch.zeros(5, requires_grad=True)  # zh: 起始的均匀策略 | en: the uniform starting policy
batch = 32

# zh: 这个问题的期望奖励可以精确算出：E[R] = sum(π * pay)，于是也有精确的梯度
# en: Here the expected reward is known exactly, E[R] = sum(π * pay), and so is its gradient.
(exact,) = torch.autograd.grad(-(torch.softmax(logits, 0) * pay).sum(), logits)
print("exact gradient of -E[R]:", exact.numpy().round(3))


def gradients():
    dist = Categorical(logits=logits)
    arms = dist.sample((batch,))
    reward = torch.bernoulli(pay[arms])
    others = (reward.sum() - reward) / (batch - 1)  # zh: 其余 N-1 个奖励的均值 | en: mean of the other N-1 rewards
    advantages = {
        "no baseline": reward,
        "batch mean": reward - reward.mean(),
        "leave-one-out": reward - others,
    }
    log_prob = dist.log_prob(arms)
    return {name: torch.autograd.grad(-(log_prob * a).mean(), logits, retain_graph=True)[0]
            for name, a in advantages.items()}


# zh: 三种估计用同一批采样，差别只来自基线
# en: All three estimates use the same draws, so they differ only in the baseline.
runs = [gradients() for _ in range(4000)]
grads = {name: torch.stack([r[name] for r in runs]) for name in runs[0]}
for name, g in grads.items():
    scale = g @ exact / (exact @ exact)  # zh: 每次估计在精确梯度方向上的倍数 | en: each estimate's multiple of the exact gradient
    print(f"{name:13}  mean {g.mean(0).numpy().round(3)}  "
          f"scale {scale.mean().item():.3f} ± {scale.std().item() / len(scale) ** 0.5:.3f}  "
          f"total variance {g.var(0).sum().item():.4f}")

# %%
# zh: 减去整批均值的估计，每次都恰好是留一法估计的 (N-1)/N 倍
# en: The batch-mean estimate is exactly (N-1)/N times the leave-one-out one, every time.
shrunk = (batch - 1) / batch * grads["leave-one-out"]
print(f"(N - 1) / N = {(batch - 1) / batch:.5f}")
print(f"largest |batch mean - (N-1)/N * leave-one-out|: {(grads['batch mean'] - shrunk).abs().max().item():.1e}")
