# %%
import torch
from torch.distributions import Categorical

torch.manual_seed(0)
pay = torch.tensor([0.2, 0.5, 0.8, 0.3, 0.6])
logits = torch.zeros(5, requires_grad=True)  # zh: 起始的均匀策略 | en: the uniform starting policy


def gradient(baseline, batch=32):
    dist = Categorical(logits=logits)
    arms = dist.sample((batch,))
    reward = torch.bernoulli(pay[arms])
    advantage = reward - reward.mean() if baseline else reward
    (g,) = torch.autograd.grad(-(dist.log_prob(arms) * advantage).mean(), logits)
    return g


for baseline in (False, True):
    grads = torch.stack([gradient(baseline) for _ in range(2000)])
    print(f"baseline={baseline!s:5}  mean gradient {grads.mean(0).numpy().round(3)}  "
          f"total variance {grads.var(0).sum().item():.4f}")
