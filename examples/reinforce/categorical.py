# %%
import numpy as np
import torch
from torch.distributions import Categorical

torch.manual_seed(0)
np.random.seed(0)
logits = torch.tensor([[1.0, 0.0, -1.0], [0.0, 0.0, 2.0]])  # zh: 一个批量 2 个状态，每个状态 3 个动作 | en: a batch of 2 states, 3 actions each
dist = Categorical(logits=logits)
print("probs:\n", dist.probs)
actions = dist.sample()  # zh: 每行一个动作 | en: one action per row
print("sampled actions:", actions)
print("log_prob:       ", dist.log_prob(actions))

# zh: 手算同样的数：先 log_softmax，再用 gather 取出每行的动作
# en: the same numbers by hand: log_softmax, then pick each row's action with gather
log_probs = torch.log_softmax(logits, dim=1)
print("gather:         ", log_probs.gather(1, actions.unsqueeze(1)).squeeze(1))

# %%
# zh: 老代码改用 NumPy 采样：分布相同，但没有 log_prob
# en: older code samples with NumPy instead; same distribution, no log_prob attached
p = dist.probs[0].numpy()
draws = np.random.choice(len(p), size=10_000, p=p)
torch_draws = Categorical(probs=dist.probs[0]).sample((10_000,))
print("np.random.choice frequencies:", np.bincount(draws, minlength=3) / 10_000)
print("Categorical.sample frequencies:", torch.bincount(torch_draws, minlength=3) / 10_000)
print("probs:                         ", p.round(4))
